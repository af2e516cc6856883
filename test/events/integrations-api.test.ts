/**
 * Issue 28, item 2: the integration routes' rules beyond their shapes (test/api/contract-coverage.test.ts): the
 * webhook secret sealed in the store and never answered; names owned by one organization; installs need the admin
 * role on the organization installed on; a space selection only of the installation's own spaces.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rawSql } from '../../src/store/raw-sql.js';
import { startFolio, type TestFolio } from '../helpers/folio.js';

let folio: TestFolio;
let other: string;
let otherAdmin: string;
const SECRET = 'whsec_c2VjcmV0LW9mLXRoZS1pbnRlZ3JhdGlvbi0xMjM0';
const URL_WITH_TOKEN = 'https://hooks.example.com/in?token=tok-123';
const as = (token: string) => ({ authorization: `Bearer ${token}` });
const publishBody = (organization: string, extra: Record<string, unknown> = {}) => ({
  organization,
  title: 'Feed',
  description: 'Content events',
  scopes: [],
  ...extra,
});

beforeAll(async () => {
  folio = await startFolio({ env: { FOLIO_VAULT_KEY: 'integrations-api' } });
  other = 'org-elsewhere';
  await folio.store.orgs.ensure({ id: other, title: 'Elsewhere' });
  otherAdmin = (await folio.store.tokens.create(other, { label: 'admin' })).token;
});
afterAll(async () => {
  await folio?.stop();
});

describe('integrations', () => {
  it('seal the webhook address and secret: the database holds neither in clear, no answer shows them', async () => {
    const res = await folio.request(
      'POST',
      '/v1/integrations/sealed',
      publishBody(folio.organizationId, { secrets: { WEBHOOK_URL: URL_WITH_TOKEN, WEBHOOK_SECRET: SECRET } }),
    );
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    expect(JSON.stringify(res.body)).not.toMatch(/tok-123|whsec_/);
    const rows = await rawSql(folio.store).query<{ webhook_url: Uint8Array; webhook_secret: Uint8Array }>(
      "SELECT webhook_url, webhook_secret FROM integrations WHERE name = 'sealed'",
    );
    const stored = Buffer.concat([Buffer.from(rows[0]!.webhook_url), Buffer.from(rows[0]!.webhook_secret)]).toString('latin1');
    expect(stored).not.toContain('tok-123');
    expect(stored).not.toContain('hooks.example.com');
    expect(stored).not.toContain(SECRET);
    // Publishing again without secrets keeps them; the version goes up.
    const again = await folio.request('POST', '/v1/integrations/sealed', publishBody(folio.organizationId, { title: 'Feed 2' }));
    expect(again.body).toMatchObject({ version: 2, title: 'Feed 2' });
    expect(await folio.store.integrations.webhook('sealed')).not.toBeNull();
  });

  it('refuse half a webhook, a non-http address, a script, and members the spec has that Folio does not keep', async () => {
    const cases: Array<[Record<string, unknown>, RegExp]> = [
      [{ secrets: { WEBHOOK_URL: 'https://a.example/' } }, /both WEBHOOK_URL and WEBHOOK_SECRET/],
      [{ secrets: { WEBHOOK_URL: 'file:///etc/passwd', WEBHOOK_SECRET: SECRET } }, /http or https/],
      [{ secrets: { OTHER: 'x' } }, /unknown member "OTHER"/],
      [{ script: 'export default {}' }, /body\.script/],
      [{ blocks: [] }, /unknown member "blocks"/],
    ];
    for (const [extra, message] of cases) {
      const res = await folio.request('POST', '/v1/integrations/refused', publishBody(folio.organizationId, extra));
      expect(res.status, JSON.stringify(extra)).toBe(400);
      expect(res.body.error.message).toMatch(message);
    }
    expect(await folio.store.integrations.get('refused')).toBeNull();
  });

  it('a name belongs to its organization: another one cannot publish over it (404, as an integration it cannot see)', async () => {
    await folio.request('POST', '/v1/integrations/owned', publishBody(folio.organizationId));
    const res = await folio.request('POST', '/v1/integrations/owned', publishBody(other, { title: 'Taken over' }), as(otherAdmin));
    expect(res.status).toBe(404);
    expect(res.body.error.message).toBe('integration not found: owned');
    expect((await folio.store.integrations.get('owned'))!.title).toBe('Feed');
  });

  it('a private integration is installed only by its organization; a public one by another organization’s admin, on its own spaces', async () => {
    await folio.request('POST', '/v1/integrations/private-one', publishBody(folio.organizationId));
    expect((await folio.request('POST', '/v1/integrations/private-one/installations', { organization: other }, as(otherAdmin))).status).toBe(404);
    await folio.request('POST', '/v1/integrations/public-one', publishBody(folio.organizationId, { visibility: 'public' }));
    // Installing on an organization the caller is not in: not found.
    expect((await folio.request('POST', '/v1/integrations/public-one/installations', { organization: other })).status).toBe(404);
    const installed = await folio.request('POST', '/v1/integrations/public-one/installations', { organization: other }, as(otherAdmin));
    expect(installed.status, JSON.stringify(installed.body)).toBe(201);
    expect(installed.body.target).toEqual({ organization: other });
    const mine = await folio.store.spaces.create(folio.organizationId, { title: 'Mine' });
    const theirs = await folio.store.spaces.create(other, { title: 'Theirs' });
    const path = `/v1/integrations/public-one/installations/${installed.body.id}`;
    const foreign = await folio.request('PATCH', path, { space_selection: 'selected', spaces: [mine.id] }, as(otherAdmin));
    expect(foreign.status).toBe(400);
    expect(foreign.body.error.message).toMatch(/space not found/);
    const own = await folio.request('PATCH', path, { space_selection: 'selected', spaces: [theirs.id] }, as(otherAdmin));
    expect(own.body).toMatchObject({ space_selection: 'selected', spaces: 1 });
    // The integration's owner sees the installation; it cannot change another organization's installation.
    expect((await folio.request('GET', path)).status).toBe(200);
    expect((await folio.request('PATCH', path, { status: 'paused' })).status).toBe(403);
    // Events of other spaces of that organization are not its to receive.
    const before = (await folio.store.integrations.pendingDeliveries(installed.body.id, 100)).length;
    await folio.store.changeRequests.create({
      spaceId: theirs.id,
      revisionId: (await folio.store.revisions.create({ spaceId: theirs.id, parents: [], type: 'edits', pages: [], files: [] })).id,
    });
    const other2 = await folio.store.spaces.create(other, { title: 'Not selected' });
    await folio.store.changeRequests.create({
      spaceId: other2.id,
      revisionId: (await folio.store.revisions.create({ spaceId: other2.id, parents: [], type: 'edits', pages: [], files: [] })).id,
    });
    const pending = await folio.store.integrations.pendingDeliveries(installed.body.id, 100);
    expect(pending.length - before).toBe(1);
    expect(pending.at(-1)!.event).toMatchObject({ type: 'change_request_opened', spaceId: theirs.id });
  });
});
