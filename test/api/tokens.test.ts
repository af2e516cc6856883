import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sha256Hex } from '../../src/store/hash.js';
import { workflowIds } from '../../src/temporal/contract/index.js';
import type { PurgeSpaceResult } from '../../workflows/purge.js';
import { startFolio, type TestFolio } from '../helpers/folio.js';
import { rawSql } from '../../src/store/raw-sql.js';

/**
 * API tokens on the dev server: the admin API under the organization, the read-only scope enforced for every
 * route, immediate revocation and expiry, and workflows that carry the organization, never the token.
 */
describe('API tokens', () => {
  let folio: TestFolio;

  beforeAll(async () => {
    folio = await startFolio({ env: { FOLIO_PURGE_AFTER_MS: '3000' } });
    await folio.store.orgs.ensure({ id: 'someone-else', title: 'Someone else' });
  });
  afterAll(async () => {
    await folio?.stop();
  });

  /** A request with another bearer token. */
  const as = (token: string, method: string, path: string, body?: unknown) => folio.request(method, path, body, { authorization: `Bearer ${token}` });
  const tokensPath = () => `/v1/orgs/${folio.organizationId}/tokens`;

  it('creates a token once in clear, lists tokens without secrets, reads one, revokes one at once', async () => {
    const created = await folio.request('POST', tokensPath(), { label: 'ci', expiresIn: '30d' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body).toMatchObject({
      object: 'api-token',
      label: 'ci',
      scope: 'write',
      status: 'active',
      revokedAt: null,
      lastUsedAt: null,
      token: expect.stringMatching(/^folio_/),
    });
    const days = (Date.parse(created.body.expiresAt) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29);
    expect(days).toBeLessThanOrEqual(30);
    const secret = created.body.token as string;

    expect((await as(secret, 'GET', `/v1/orgs/${folio.organizationId}`)).status).toBe(200);
    const list = await folio.request('GET', tokensPath());
    expect(list.status).toBe(200);
    expect(list.body.items.map((t: { label: string }) => t.label)).toEqual(expect.arrayContaining(['bootstrap', 'test', 'ci']));
    const text = JSON.stringify(list.body);
    expect(text).not.toContain(secret);
    expect(text).not.toContain(sha256Hex(secret));
    expect(text).not.toContain(folio.token);
    expect(list.body.items.every((t: Record<string, unknown>) => !('token' in t))).toBe(true);
    expect(list.body.items.find((t: { id: string }) => t.id === created.body.id).lastUsedAt).toEqual(expect.any(String));
    const paged = await folio.request('GET', `${tokensPath()}?limit=1`);
    expect(paged.body.items).toHaveLength(1);
    expect((await folio.request('GET', `${tokensPath()}?limit=1&page=${paged.body.next.page}`)).body.items[0].id).toBe(list.body.items[1].id);

    const one = await folio.request('GET', `${tokensPath()}/${created.body.id}`);
    expect(one.body).toMatchObject({ id: created.body.id, label: 'ci' });
    expect(one.body.token).toBeUndefined();

    expect((await folio.request('DELETE', `${tokensPath()}/${created.body.id}`)).status).toBe(204);
    // Refused by the very next request, and listed as revoked.
    const refused = await as(secret, 'GET', `/v1/orgs/${folio.organizationId}`);
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ error: { code: 401, message: expect.any(String) } });
    expect((await folio.request('GET', `${tokensPath()}/${created.body.id}`)).body).toMatchObject({ status: 'revoked', revokedAt: expect.any(String) });
    // Revoking again is idempotent.
    expect((await folio.request('DELETE', `${tokensPath()}/${created.body.id}`)).status).toBe(204);
  });

  it('refuses bad creation requests with 400', async () => {
    for (const body of [
      { scope: 'admin' },
      { expiresIn: 'soon' },
      { expiresIn: '0m' },
      { expiresAt: '2001-01-01T00:00:00Z' },
      { expiresAt: 'tomorrow' },
      { expiresIn: '1d', expiresAt: '2999-01-01T00:00:00Z' },
      { token: 'chosen-by-client' },
    ]) {
      const res = await folio.request('POST', tokensPath(), body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body).toEqual({ error: { code: 400, message: expect.any(String) } });
    }
  });

  it('an expired token is refused', async () => {
    const { id, token } = await folio.store.tokens.create(folio.organizationId, { expiresAt: new Date(Date.now() + 60_000) });
    expect((await as(token, 'GET', '/v1/orgs')).status).toBe(200);
    await rawSql(folio.store).query("UPDATE api_tokens SET expires_at = now() - interval '1 second' WHERE id = $1", [id]);
    expect((await as(token, 'GET', '/v1/orgs')).status).toBe(401);
    expect((await folio.request('GET', `${tokensPath()}/${id}`)).body.status).toBe('expired');
  });

  it('a read-only token reads but cannot write, import, export, delete or administer tokens', async () => {
    const created = await folio.request('POST', tokensPath(), { label: 'reader', scope: 'read' });
    expect(created.status).toBe(201);
    const reader = created.body.token as string;
    const space = await folio.request('POST', `/v1/orgs/${folio.organizationId}/spaces`, { title: 'Readable' });
    expect(space.status, JSON.stringify(space.body)).toBe(201);
    const spaceId = space.body.id as string;

    expect((await as(reader, 'GET', `/v1/orgs/${folio.organizationId}/spaces`)).status).toBe(200);
    expect((await as(reader, 'GET', `/v1/spaces/${spaceId}`)).status).toBe(200);
    expect((await as(reader, 'HEAD', `/v1/spaces/${spaceId}`)).status).toBe(200);

    const tokensBefore = await folio.store.tokens.list(folio.organizationId);
    const writes: Array<[string, string, unknown?]> = [
      ['POST', `/v1/orgs/${folio.organizationId}/spaces`, { title: 'Nope' }],
      ['PATCH', `/v1/spaces/${spaceId}`, { title: 'Renamed' }],
      ['DELETE', `/v1/spaces/${spaceId}`],
      ['POST', `/v1/spaces/${spaceId}/git/import`, { url: 'https://example.invalid/x.git', ref: 'refs/heads/main' }],
      ['POST', `/v1/spaces/${spaceId}/git/export`, { url: 'https://example.invalid/x.git', ref: 'refs/heads/main' }],
      ['POST', `/v1/spaces/${spaceId}/change-requests`, {}],
      ['PUT', `/v1/orgs/${folio.organizationId}/openapi/spec`, { source: { text: 'openapi: 3.0.0' } }],
      ['DELETE', `/v1/orgs/${folio.organizationId}/openapi/spec`],
      // A route that does not exist is refused too: the scope is checked before routing.
      ['POST', `/v1/spaces/${spaceId}/some-future-route`, {}],
      // Token administration: neither minting a write token nor revoking.
      ['POST', tokensPath(), { scope: 'write' }],
      ['DELETE', `${tokensPath()}/${created.body.id}`],
    ];
    for (const [method, path, body] of writes) {
      const res = await as(reader, method, path, body);
      expect(res.status, `${method} ${path}`).toBe(403);
      expect(res.body).toEqual({ error: { code: 403, message: expect.stringContaining('READ_ONLY_TOKEN') } });
    }
    // Nor list the organization's tokens.
    expect((await as(reader, 'GET', tokensPath())).status).toBe(403);
    // Nothing changed.
    expect((await folio.request('GET', `/v1/spaces/${spaceId}`)).body.title).toBe('Readable');
    const tokensAfter = await folio.store.tokens.list(folio.organizationId);
    expect(tokensAfter.map((t) => [t.id, t.scope, t.revokedAt])).toEqual(tokensBefore.map((t) => [t.id, t.scope, t.revokedAt]));
  });

  it('a read-only token searches a site (a read sent as POST) but still cannot publish it', async () => {
    const reader = (await folio.request('POST', tokensPath(), { label: 'site reader', scope: 'read' })).body.token as string;
    const site = await folio.request('POST', `/v1/orgs/${folio.organizationId}/sites`, { title: 'Searchable', visibility: 'public' });
    expect(site.status, JSON.stringify(site.body)).toBe(201);
    const searchPath = `/v1/orgs/${folio.organizationId}/sites/${site.body.id}/search`;
    const found = await as(reader, 'POST', searchPath, { query: 'install' });
    expect(found.status, JSON.stringify(found.body)).toBe(200);
    expect(found.body).toMatchObject({ items: [] });
    // Still a 404 for another organization's site, and still a 403 for a write on the site.
    expect((await as(reader, 'POST', `/v1/orgs/someone-else/sites/${site.body.id}/search`, { query: 'install' })).status).toBe(404);
    const publish = await as(reader, 'POST', `/v1/orgs/${folio.organizationId}/sites/${site.body.id}/publish`, {});
    expect(publish.status).toBe(403);
    expect(publish.body.error.message).toContain('READ_ONLY_TOKEN');
  });

  it("another organization's tokens and token ids answer 404", async () => {
    const theirs = await folio.store.tokens.create('someone-else', { label: 'theirs' });
    expect((await folio.request('GET', '/v1/orgs/someone-else/tokens')).status).toBe(404);
    expect((await folio.request('POST', '/v1/orgs/someone-else/tokens', {})).status).toBe(404);
    expect((await folio.request('GET', `${tokensPath()}/${theirs.id}`)).status).toBe(404);
    const revoke = await folio.request('DELETE', `${tokensPath()}/${theirs.id}`);
    expect(revoke.status).toBe(404);
    expect(revoke.body).toEqual({ error: { code: 404, message: expect.any(String) } });
    expect((await folio.request('DELETE', `/v1/orgs/someone-else/tokens/${theirs.id}`)).status).toBe(404);
    expect(await folio.store.tokens.verify(theirs.token)).toMatchObject({ orgId: 'someone-else' });
  });

  it('workflows carry the organization, never the token: revoking the token that started one does not stop it', async () => {
    const created = await folio.request('POST', tokensPath(), { label: 'short-lived' });
    const secret = created.body.token as string;
    const space = await as(secret, 'POST', `/v1/orgs/${folio.organizationId}/spaces`, { title: 'Doomed' });
    expect(space.status).toBe(201);
    const spaceId = space.body.id as string;
    expect((await as(secret, 'DELETE', `/v1/spaces/${spaceId}`)).status).toBe(205);
    // The token is revoked while its purge waits out the window.
    expect((await folio.request('DELETE', `${tokensPath()}/${created.body.id}`)).status).toBe(204);
    expect((await as(secret, 'GET', `/v1/spaces/${spaceId}`)).status).toBe(401);
    const purge = folio.client.workflow.getHandle(workflowIds.purge(spaceId));
    expect(await purge.result()).toMatchObject({ outcome: 'purged' } satisfies Partial<PurgeSpaceResult>);

    for (const workflowId of [workflowIds.createSpace(spaceId), workflowIds.purge(spaceId)]) {
      const handle = folio.client.workflow.getHandle(workflowId);
      const description = await handle.describe();
      expect(description.searchAttributes.OrganizationId).toEqual([folio.organizationId]);
      const history = await handle.fetchHistory();
      // Payload bytes decoded, so that a token inside a JSON payload would show.
      const text = JSON.stringify([history, description.memo ?? null, description.searchAttributes], function (this: Record<string, unknown>, key, value) {
        const raw = this[key];
        return raw instanceof Uint8Array ? Buffer.from(raw).toString('utf8') : value;
      });
      expect(text).toContain(spaceId);
      for (const forbidden of [secret, sha256Hex(secret), folio.token]) expect(text).not.toContain(forbidden);
    }
  });
});
