/**
 * Issue 26: SAML SSO against a real identity provider on loopback (test/helpers/saml-idp.ts, which signs its
 * assertions with @node-saml/node-saml). SP-initiated: Folio's start URL redirects to the IdP with an AuthnRequest,
 * the IdP answers a signed response for that request, Folio's ACS verifies it, makes the person a member just in time
 * with the provider's default role and team, and answers a personal token that works on the API. Forged, unsigned,
 * expired, wrong-audience, tampered, unsolicited and replayed responses are all refused, and none makes a member.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedFolio, type TestFolio } from '../helpers/folio.js';
import { SamlIdp, type LoginRequest, type ResponseOptions } from '../helpers/saml-idp.js';

let folio: TestFolio;
let idp: SamlIdp;
let provider: { id: string; service: { acsURL: string; startURL: string; entityID: string } };
let teamId: string;

beforeAll(async () => {
  folio = await sharedFolio();
  idp = new SamlIdp();
  await idp.start();
  const team = await folio.request('PUT', `/v1/orgs/${folio.organizationId}/teams`, { title: 'Newcomers' });
  teamId = team.body.id;
  const created = await folio.request('POST', `/v1/orgs/${folio.organizationId}/saml`, {
    label: 'Loopback IdP',
    entityID: idp.entityId,
    ssoURL: idp.ssoUrl,
    certificate: idp.key.cert,
    defaultRole: 'comment',
    defaultTeam: teamId,
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  provider = created.body;
});
afterAll(async () => {
  await folio?.stop();
  await idp?.stop();
});

/** Starts a login at Folio: follows its redirect to the IdP, which records the AuthnRequest and echoes it. */
async function startLogin(): Promise<LoginRequest> {
  const start = await fetch(provider.service.startURL, { redirect: 'manual' });
  expect(start.status).toBe(302);
  const location = start.headers.get('location')!;
  expect(location.startsWith(idp.ssoUrl)).toBe(true);
  const atIdp = await fetch(location);
  expect(atIdp.status).toBe(200);
  return (await atIdp.json()) as LoginRequest;
}

/** Posts a response to the ACS as the browser's form would. */
async function post(request: LoginRequest, samlResponse: string) {
  const res = await fetch(request.acs, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
    body: new URLSearchParams({ SAMLResponse: samlResponse, RelayState: request.relayState }).toString(),
  });
  return { status: res.status, body: (await res.json()) as any };
}

const memberCount = async () => (await folio.store.members.list(folio.organizationId, { limit: 1000 })).total;

describe('SAML SSO (SP-initiated) with a loopback IdP', () => {
  it('logs a new person in: just-in-time member with the default role and team, ending in a personal token', async () => {
    const request = await startLogin();
    expect(request.acs).toBe(provider.service.acsURL);
    expect(request.issuer).toBe(provider.service.entityID);
    const { status, body } = await post(request, idp.respond({ request, email: 'Sso.Person@example.com', displayName: 'Sso Person' }));
    expect(status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ object: 'sso-session', organization: folio.organizationId, role: 'comment', token: expect.stringMatching(/^folio_/) });
    const hours = (Date.parse(body.expiresAt) - Date.now()) / 3600_000;
    expect(hours).toBeGreaterThan(11);
    expect(hours).toBeLessThanOrEqual(12);
    const me = await folio.request('GET', '/v1/user', undefined, { authorization: `Bearer ${body.token}` });
    expect(me.body).toMatchObject({ displayName: 'Sso Person', email: 'Sso.Person@example.com' });
    const member = await folio.request('GET', `/v1/orgs/${folio.organizationId}/members/${me.body.id}`);
    expect(member.body).toMatchObject({ role: 'comment', sso: true, teams: 1 });
    const audit = await folio.store.audit.list(folio.organizationId, { limit: 100, action: 'member.add' });
    expect(audit.items[0]).toMatchObject({ actor: { userId: me.body.id, via: 'sso' }, after: { role: 'comment', sso: true } });

    // The same person again (e-mail matched case-insensitively): the same user, the role they have now kept.
    await folio.request('PATCH', `/v1/orgs/${folio.organizationId}/members/${me.body.id}`, { role: 'edit' });
    const again = await startLogin();
    const second = await post(again, idp.respond({ request: again, email: 'sso.person@EXAMPLE.com' }));
    expect(second.status, JSON.stringify(second.body)).toBe(200);
    expect(second.body).toMatchObject({ user: { id: me.body.id }, role: 'edit' });
  });

  const refusals: Array<[string, (request: LoginRequest) => Partial<ResponseOptions>, RegExp]> = [
    ['forged (signed with another key)', () => ({ signer: 'attacker' }), /signature/i],
    ['unsigned', () => ({ signer: 'none' }), /signature/i],
    ['expired', () => ({ validForSeconds: -3600 }), /expired|NotOnOrAfter|subject confirmation/i],
    ['for another audience', () => ({ audience: 'https://someone-else.example.com/sp' }), /audience/i],
    ['altered after signing', () => ({ tamperEmail: 'admin@example.com' }), /signature/i],
    ['unsolicited (IdP-initiated)', () => ({ unsolicited: true }), /InResponseTo|request of Folio/i],
  ];
  for (const [name, defect, reason] of refusals) {
    it(`refuses a response ${name}, and makes no member`, async () => {
      const before = await memberCount();
      const request = await startLogin();
      const { status, body } = await post(request, idp.respond({ request, email: `victim-${name.length}@example.com`, ...defect(request) }));
      expect(status, JSON.stringify(body)).toBe(401);
      expect(body.error.message).toMatch(/SAML_REJECTED/);
      expect(body.error.message).toMatch(reason);
      expect(await memberCount()).toBe(before);
      expect(await folio.store.users.byEmail(`victim-${name.length}@example.com`)).toBeNull();
    });
  }

  it('refuses a replayed response, a response to another provider’s request, and one answering no request of Folio', async () => {
    const request = await startLogin();
    const response = idp.respond({ request, email: 'replay@example.com' });
    expect((await post(request, response)).status).toBe(200);
    const replay = await post(request, response);
    expect(replay.status).toBe(401);
    expect(replay.body.error.message).toMatch(/replay/);
    // A request id Folio never sent.
    const made = idp.respond({ request: { ...request, id: '_never-sent' }, email: 'nobody@example.com' });
    expect((await post(request, made)).status).toBe(401);
    // A DTD (an attack on the XML parser) is refused before parsing.
    const dtd = Buffer.from('<?xml version="1.0"?><!DOCTYPE x [<!ENTITY a "aaaa">]><samlp:Response/>').toString('base64');
    const refusedDtd = await post(request, dtd);
    expect(refusedDtd.status).toBe(401);
    expect(refusedDtd.body.error.message).toMatch(/DTD/);
  });

  it('a pending provider cannot start a login; an unknown one is not found', async () => {
    const pending = await folio.request('POST', `/v1/orgs/${folio.organizationId}/saml`, { label: 'Half set up' });
    expect((await fetch(pending.body.service.startURL, { redirect: 'manual' })).status).toBe(409);
    expect((await fetch(`${folio.baseUrl}/sso/saml/nope/start`, { redirect: 'manual' })).status).toBe(404);
    const metadata = await fetch(`${folio.baseUrl}/sso/saml/${provider.id}/metadata`);
    expect(metadata.status).toBe(200);
    expect(await metadata.text()).toContain(provider.service.acsURL);
  });
});
