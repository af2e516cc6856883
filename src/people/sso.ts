/**
 * SAML single sign-on, service-provider initiated (docs/people.md): `startLogin` records a fresh AuthnRequest id and
 * gives the IdP's login URL carrying the request (HTTP-Redirect binding); `finishLogin` takes a response the IdP posted
 * back, verified in a parse-pool thread (./saml-verify.ts), accepts it only when it answers a request Folio sent (each
 * taken once) with an assertion never accepted before, makes the user a member just in time (the provider's default
 * role and team), and ends in a personal token for the organization, valid for a working day.
 */
import { randomBytes } from 'node:crypto';
import { SAML } from '@node-saml/node-saml';
import type { AuditActor, MemberRecord, SamlProviderRecord, Store, UserRecord } from '../store/index.js';
import { SamlRejectedError, type VerifiedAssertion, type verifySamlResponse } from './saml-verify.js';

/** How long Folio waits for the IdP to answer a login request. */
export const REQUEST_TTL_MS = 10 * 60_000;
/** Tolerated clock difference with the IdP. */
export const CLOCK_SKEW_MS = 60_000;
/** Lifetime of the personal token a login ends in. */
export const SESSION_TTL_MS = 12 * 3600_000;

/** Folio's side of a provider: its entity id (the audience it expects), where assertions are posted, where logins start. */
export interface ServiceProvider {
  entityId: string;
  acsUrl: string;
  startUrl: string;
}

export function serviceProvider(provider: Pick<SamlProviderRecord, 'id'>, publicBase: string): ServiceProvider {
  const base = `${publicBase.replace(/\/+$/, '')}/sso/saml/${provider.id}`;
  return { entityId: `${base}/metadata`, acsUrl: `${base}/acs`, startUrl: `${base}/start` };
}

/** A provider whose IdP side is not fully configured yet (status `pending`): no login can start or finish. */
export class SsoNotConfiguredError extends Error {
  constructor(providerId: string) {
    super(`SAML provider ${providerId} is pending: set its entityID, ssoURL and certificate first`);
    this.name = 'SsoNotConfiguredError';
  }
}

/** An SSO user whose membership is disabled. */
export class SsoMemberDisabledError extends Error {
  constructor() {
    super('this membership is disabled');
    this.name = 'SsoMemberDisabledError';
  }
}

function configured(provider: SamlProviderRecord): { entityId: string; ssoUrl: string; certificate: string } {
  if (!provider.entityId || !provider.ssoUrl || !provider.certificate) throw new SsoNotConfiguredError(provider.id);
  return { entityId: provider.entityId, ssoUrl: provider.ssoUrl, certificate: provider.certificate };
}

/** The IdP login URL of a new AuthnRequest (its id recorded first, so the response can be matched to it). */
export async function startLogin(store: Store, provider: SamlProviderRecord, sp: ServiceProvider, relayState = ''): Promise<string> {
  const idp = configured(provider);
  const requestId = `_${randomBytes(20).toString('hex')}`;
  await store.saml.saveRequest(provider.id, requestId);
  const saml = new SAML({
    entryPoint: idp.ssoUrl,
    issuer: sp.entityId,
    callbackUrl: sp.acsUrl,
    idpCert: idp.certificate,
    generateUniqueId: () => requestId,
    validateInResponseTo: 'never' as never,
  });
  return saml.getAuthorizeUrlAsync(relayState, undefined, {});
}

/** SP metadata for the IdP's configuration. */
export function serviceProviderMetadata(provider: SamlProviderRecord, sp: ServiceProvider): string {
  const saml = new SAML({ issuer: sp.entityId, callbackUrl: sp.acsUrl, idpCert: provider.certificate ?? 'unset', wantAssertionsSigned: true });
  return saml.generateServiceProviderMetadata(null);
}

/** `verifySamlResponse` (./saml-verify.ts), run off the event loop within budgets (the parse pool's `saml.verify`). */
export type SamlVerifier = (...args: Parameters<typeof verifySamlResponse>) => Promise<VerifiedAssertion>;

/** Verifies the posted response off the event loop; a refusal is a SamlRejectedError with a reason safe to show. */
async function verify(verifier: SamlVerifier, provider: SamlProviderRecord, sp: ServiceProvider, samlResponse: string): Promise<VerifiedAssertion> {
  const idp = configured(provider);
  try {
    return await verifier(samlResponse, {
      certificate: idp.certificate,
      idpEntityId: idp.entityId,
      spEntityId: sp.entityId,
      acsUrl: sp.acsUrl,
      clockSkewMs: CLOCK_SKEW_MS,
    });
  } catch (err) {
    const e = err as { code?: string; message?: string; data?: { name?: string } };
    if (e.data?.name === 'SamlRejectedError') throw new SamlRejectedError(String(e.message).replace(/^.*?SAML response refused: /, ''));
    if (e.code === 'PARSE_BUDGET_EXCEEDED') throw new SamlRejectedError('the response went over the parse budgets');
    throw err;
  }
}

/** The user of an assertion: the one with its e-mail, or a new one. */
async function userOf(store: Store, assertion: VerifiedAssertion): Promise<UserRecord> {
  const email = assertion.email;
  if (!email) throw new SamlRejectedError('the assertion names no e-mail address (NameID or an email attribute)');
  const known = await store.users.byEmail(email);
  if (known) return known;
  const displayName = (assertion.displayName ?? email.split('@')[0] ?? email).slice(0, 64);
  try {
    return await store.users.create({ displayName, email });
  } catch (err) {
    // Created by a concurrent login of the same person.
    const again = await store.users.byEmail(email);
    if (again) return again;
    throw err;
  }
}

/** Just-in-time membership: a new member gets the provider's default role (and team); every SSO member is marked so. */
async function joinJustInTime(store: Store, provider: SamlProviderRecord, user: UserRecord): Promise<MemberRecord> {
  const actor: AuditActor = { userId: user.id, via: 'sso' };
  const { member, added } = await store.members.add(provider.organizationId, user.id, { role: provider.defaultRole, sso: true }, actor);
  if (member.disabled) throw new SsoMemberDisabledError();
  if (added && provider.defaultTeamId) await store.teams.updateMembers(provider.organizationId, provider.defaultTeamId, { add: [{ userId: user.id }] }, actor);
  return member.sso ? member : store.members.setSso(provider.organizationId, user.id, true, actor);
}

export interface SsoSession {
  token: string;
  tokenId: string;
  expiresAt: Date;
  user: UserRecord;
  member: MemberRecord;
}

/** Accepts a posted SAML response, or throws a SamlRejectedError (forged, unsigned, expired, wrong audience, replayed, …). */
export async function finishLogin(
  store: Store,
  verifier: SamlVerifier,
  provider: SamlProviderRecord,
  sp: ServiceProvider,
  samlResponse: string,
): Promise<SsoSession> {
  const assertion = await verify(verifier, provider, sp, samlResponse);
  if (!(await store.saml.takeRequest(provider.id, assertion.inResponseTo, REQUEST_TTL_MS)))
    throw new SamlRejectedError('the response answers no pending login request of Folio (unknown, expired or already used: a replay?)');
  const until = assertion.notOnOrAfter ? new Date(Date.parse(assertion.notOnOrAfter) + CLOCK_SKEW_MS) : new Date(Date.now() + SESSION_TTL_MS);
  if (!(await store.saml.consumeAssertion(provider.id, assertion.assertionId, until)))
    throw new SamlRejectedError('this assertion was accepted before (a replay)');
  const user = await userOf(store, assertion);
  const member = await joinJustInTime(store, provider, user);
  const expiresAt = new Date(Date.now() + SESSION_TTL_MS);
  const created = await store.tokens.create(provider.organizationId, {
    userId: user.id,
    label: `sso: ${provider.label}`.slice(0, 200),
    scope: 'write',
    expiresAt,
  });
  return { token: created.token, tokenId: created.id, expiresAt, user, member };
}
