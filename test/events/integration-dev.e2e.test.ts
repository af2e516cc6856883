/**
 * Issue 28: development mode and the integration lists, driven partly by GitBook's own client (`GitBookAPI`) with
 * every answer checked strictly against the official spec. `PUT …/dev` sends the integration's events to the tunnel
 * (with `all: false` only those of its installation on the owning organization; another organization's still go to
 * the webhook), `all: true` sends every installation's there, `DELETE …/dev` ends it; every request is signed
 * with the webhook's secret and the receivers verify it. `GET /v1/integrations` lists the public integrations and
 * the caller's own, never another organization's private one; the client lists an installation's events.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { GitBookAPI } from '@gitbook/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyWebhook } from '../../src/webhooks/signature.js';
import { startFolio, type TestFolio } from '../helpers/folio.js';
import { assertContract } from '../helpers/openapi-contract.js';

const secret = `whsec_${randomBytes(32).toString('base64')}`;
const OTHER = 'org-dev-other';

/** A receiver that verifies each request's signature and records the events it accepted. */
class Receiver {
  server!: http.Server;
  port = 0;
  events: Array<{ eventId: string; installationId: string; spaceId: string }> = [];
  bad = 0;
  async start(): Promise<void> {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks).toString('utf8');
        const headers = {
          id: String(req.headers['webhook-id']),
          timestamp: String(req.headers['webhook-timestamp']),
          signature: String(req.headers['webhook-signature']),
        };
        if (!verifyWebhook(secret, headers, body)) {
          this.bad++;
          return void res.writeHead(401).end();
        }
        this.events.push(JSON.parse(body) as Receiver['events'][number]);
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.port = (this.server.address() as AddressInfo).port;
  }
  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

let folio: TestFolio;
let otherAdmin: string;
const webhook = new Receiver();
const tunnel = new Receiver();

async function until(what: string, probe: () => Promise<boolean> | boolean, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function change(spaceId: string, n: number): Promise<string> {
  const space = (await folio.store.spaces.get(spaceId))!;
  const { id } = await folio.store.revisions.create({
    spaceId,
    parents: space.revisionId ? [space.revisionId] : [],
    type: 'edits',
    pages: [{ id: 'p1', kind: 'document', title: 'Page', slug: 'page', path: 'page', body: new TextEncoder().encode(`change ${n}\n`) }],
    files: [],
  });
  await folio.store.spaces.setPrimaryRevision(spaceId, id, { expected: space.revisionId });
  const events = (await folio.store.events.list(space.organizationId, { limit: 1000, stream: spaceId })).items;
  return events[events.length - 1]!.id;
}

/** Where the event went: 'tunnel', 'webhook' (waits until one of them has it; never both). */
async function whereDelivered(eventId: string): Promise<'tunnel' | 'webhook'> {
  const has = (r: Receiver) => r.events.some((e) => e.eventId === eventId);
  await until(`event ${eventId} delivered`, () => has(tunnel) || has(webhook));
  expect(has(tunnel) && has(webhook)).toBe(false);
  return has(tunnel) ? 'tunnel' : 'webhook';
}

beforeAll(async () => {
  folio = await startFolio({ env: { FETCH_ALLOW_HOSTS: '127.0.0.1', FOLIO_VAULT_KEY: 'integration-dev', FOLIO_WEBHOOK_POLL_MS: '200' } });
  await folio.store.orgs.ensure({ id: OTHER, title: 'Other' });
  otherAdmin = (await folio.store.tokens.create(OTHER, { label: 'admin' })).token;
  await webhook.start();
  await tunnel.start();
});
afterAll(async () => {
  await webhook?.stop();
  await tunnel?.stop();
  await folio?.stop();
});

describe('development mode', () => {
  it('forwards the owner’s events to the tunnel (all: false), every installation’s (all: true), until it ends', async () => {
    const org = folio.organizationId;
    const api = new GitBookAPI({ authToken: folio.token, endpoint: folio.baseUrl });
    const asOther = { authorization: `Bearer ${otherAdmin}` };
    const published = await folio.request('POST', '/v1/integrations/dev-hook', {
      organization: org,
      title: 'Dev hook',
      description: 'In development',
      visibility: 'public',
      scopes: [],
      secrets: { WEBHOOK_URL: `http://127.0.0.1:${webhook.port}/hook`, WEBHOOK_SECRET: secret },
    });
    expect(published.status, JSON.stringify(published.body)).toBe(200);
    const own = await folio.request('POST', '/v1/integrations/dev-hook/installations', { organization: org });
    const theirs = await folio.request('POST', '/v1/integrations/dev-hook/installations', { organization: OTHER }, asOther);
    expect([own.status, theirs.status]).toEqual([201, 201]);
    const mine = await folio.store.spaces.create(org, { title: 'Mine' });
    const their = await folio.store.spaces.create(OTHER, { title: 'Theirs' });

    // Refused: not an http(s) tunnel, credentials in it; another organization's admin does not see it to set it.
    const tunnelUrl = `http://127.0.0.1:${tunnel.port}/tunnel`;
    expect((await folio.request('PUT', '/v1/integrations/dev-hook/dev', { tunnelUrl: 'file:///etc/passwd' })).status).toBe(400);
    expect((await folio.request('PUT', '/v1/integrations/dev-hook/dev', { tunnelUrl: `http://u:p@127.0.0.1:${tunnel.port}/` })).status).toBe(400);
    expect((await folio.request('PUT', '/v1/integrations/dev-hook/dev', { tunnelUrl }, asOther)).status).toBe(404);

    expect(await whereDelivered(await change(mine.id, 0))).toBe('webhook');
    await api.integrations.setIntegrationDevelopmentMode('dev-hook', { tunnelUrl, all: false });
    expect(await whereDelivered(await change(mine.id, 1))).toBe('tunnel');
    expect(await whereDelivered(await change(their.id, 2))).toBe('webhook');
    expect((await folio.request('PUT', '/v1/integrations/dev-hook/dev', { tunnelUrl, all: true })).status).toBe(204);
    expect(await whereDelivered(await change(their.id, 3))).toBe('tunnel');
    expect(await whereDelivered(await change(mine.id, 4))).toBe('tunnel');
    const ended = await folio.request('DELETE', '/v1/integrations/dev-hook/dev');
    expect(ended.status).toBe(205);
    expect(await whereDelivered(await change(mine.id, 5))).toBe('webhook');
    expect(webhook.bad + tunnel.bad).toBe(0);

    // The tunnel is never answered back; the trace says where an attempt went (the host only).
    const got = await folio.request('GET', '/v1/integrations/dev-hook');
    expect(JSON.stringify(got.body)).not.toContain(`${tunnel.port}/tunnel`);
    const toTunnel = tunnel.events.find((e) => e.installationId === own.body.id)!;
    await until('the deliveries listed', async () => (await folio.store.integrations.pendingDeliveries(own.body.id as string, 1)).length === 0);
    const delivery = (await folio.store.integrations.deliveries('dev-hook', { limit: 100 })).items.find(
      (d) => d.event.id === toTunnel.eventId && d.installationId === own.body.id,
    )!;
    const trace = await folio.request('GET', `/v1/integrations/dev-hook/events/${delivery.id}`);
    expect(trace.body.trace.logs.map((l: { message: string }) => l.message).join('\n')).toContain(`127.0.0.1:${tunnel.port} (development tunnel) answered 204`);
    expect(JSON.stringify(trace.body)).not.toContain('/tunnel');

    // The official client lists the installations and their events, each answer as the spec has it.
    const installations = await api.integrations.listIntegrationInstallations('dev-hook');
    assertContract('GET', '/v1/integrations/dev-hook/installations', 200, installations.data);
    const events = await api.integrations.listIntegrationEvents('dev-hook', { limit: 100 });
    assertContract('GET', '/v1/integrations/dev-hook/events', 200, events.data);
    const ofOwn = events.data.items.filter((e) => e.installationId === own.body.id);
    expect(ofOwn.length).toBeGreaterThanOrEqual(4);
    expect(ofOwn.every((e) => e.status === 'success' && e.integrationId === 'dev-hook')).toBe(true);
    const one = await api.integrations.getIntegrationEvent('dev-hook', ofOwn[0]!.id);
    assertContract('GET', `/v1/integrations/dev-hook/events/${ofOwn[0]!.id}`, 200, one.data);
  }, 300_000);
});

describe('the list of integrations', () => {
  it('shows the public ones and the caller’s own, never another organization’s private one; filters by owner and search', async () => {
    const org = folio.organizationId;
    const body = (organization: string, visibility: string, title: string) => ({ organization, title, description: 'd', visibility, scopes: [] });
    await folio.request('POST', '/v1/integrations/list-mine-private', body(org, 'private', 'Mine private'));
    await folio.request('POST', '/v1/integrations/list-theirs-private', body(OTHER, 'private', 'Theirs private'), { authorization: `Bearer ${otherAdmin}` });
    await folio.request('POST', '/v1/integrations/list-theirs-public', body(OTHER, 'public', 'Theirs public'), { authorization: `Bearer ${otherAdmin}` });
    const api = new GitBookAPI({ authToken: folio.token, endpoint: folio.baseUrl });
    const all = await api.integrations.listIntegrations({ limit: 100 });
    assertContract('GET', '/v1/integrations', 200, all.data);
    const names = all.data.items.map((i) => i.name);
    expect(names).toEqual(expect.arrayContaining(['list-mine-private', 'list-theirs-public', 'dev-hook']));
    expect(names).not.toContain('list-theirs-private');
    expect(names).toEqual([...names].sort());
    const theirs = await folio.request('GET', '/v1/integrations?limit=100', undefined, { authorization: `Bearer ${otherAdmin}` });
    expect(theirs.body.items.map((i: { name: string }) => i.name)).not.toContain('list-mine-private');
    expect(theirs.body.items.map((i: { name: string }) => i.name)).toContain('list-theirs-private');
    const owned = await folio.request('GET', `/v1/integrations?owner=${OTHER}`);
    expect(owned.body.items.map((i: { name: string }) => i.name)).toEqual(['list-theirs-public']);
    const searched = await folio.request('GET', '/v1/integrations?search=private');
    expect(searched.body.items.map((i: { name: string }) => i.name)).toEqual(['list-mine-private']);
    const paged = await folio.request('GET', '/v1/integrations?limit=1');
    expect(paged.body.items).toHaveLength(1);
    const next = await folio.request('GET', `/v1/integrations?limit=1&page=${paged.body.next.page}`);
    expect(next.body.items[0].name > paged.body.items[0].name).toBe(true);
    expect((await folio.request('GET', '/v1/integrations?page=bogus')).status).toBe(400);
  });
});
