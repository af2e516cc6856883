/**
 * Issue 28, "done when": a real receiver on loopback gets every content event of several spaces, in order per
 * space, each event id accepted once, each request's signature verified with the documented algorithm (Standard
 * Webhooks: HMAC-SHA256 over `${webhook-id}.${webhook-timestamp}.${body}`, key = base64 after `whsec_`,
 * `webhook-signature: v1,<base64>`), although the receiver is killed for part of the run. A receiver that never
 * accepts gets its deliveries marked failed after the give-up time, visible in the API with their trace.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/index.js';
import { startFolio, type TestFolio } from '../helpers/folio.js';
import { assertContract } from '../helpers/openapi-contract.js';

const CHANGES = Number(process.env.WEBHOOK_E2E_CHANGES ?? 200);
const SPACES = 5;

interface Received {
  id: string;
  spaceId: string;
  type: string;
  revisionId: string;
}

/** A webhook receiver as an integration would write it: verifies, de-duplicates by webhook-id, records. */
class Receiver {
  server: http.Server | null = null;
  port = 0;
  accepted: Received[] = [];
  seen = new Set<string>();
  duplicates = 0;
  badSignatures = 0;
  requests = 0;
  constructor(private readonly secret: string) {}

  private verify(headers: http.IncomingHttpHeaders, body: string): boolean {
    const id = String(headers['webhook-id'] ?? '');
    const ts = String(headers['webhook-timestamp'] ?? '');
    const key = Buffer.from(this.secret.slice('whsec_'.length), 'base64');
    const expected = Buffer.from(`v1,${createHmac('sha256', key).update(`${id}.${ts}.${body}`).digest('base64')}`);
    const fresh = Math.abs(Date.now() / 1000 - Number(ts)) < 300;
    return (
      fresh &&
      String(headers['webhook-signature'] ?? '')
        .split(' ')
        .some((s) => s.length === expected.length && timingSafeEqual(Buffer.from(s), expected))
    );
  }

  async start(port = 0): Promise<void> {
    this.server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        this.requests++;
        const body = Buffer.concat(chunks).toString('utf8');
        if (!this.verify(req.headers, body)) {
          this.badSignatures++;
          res.writeHead(401).end();
          return;
        }
        const id = String(req.headers['webhook-id']);
        if (this.seen.has(id)) this.duplicates++;
        else {
          const payload = JSON.parse(body) as { eventId: string; spaceId: string; type: string; revisionId: string };
          expect(payload.eventId).toBe(id);
          this.seen.add(id);
          this.accepted.push({ id, spaceId: payload.spaceId, type: payload.type, revisionId: payload.revisionId });
        }
        res.writeHead(204).end();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(port, '127.0.0.1', resolve));
    this.port = (this.server!.address() as AddressInfo).port;
  }

  async kill(): Promise<void> {
    const server = this.server!;
    this.server = null;
    server.closeAllConnections();
    await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}

async function until(what: string, probe: () => Promise<boolean> | boolean, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function change(store: Store, spaceId: string, n: number): Promise<void> {
  const space = (await store.spaces.get(spaceId))!;
  const { id } = await store.revisions.create({
    spaceId,
    parents: space.revisionId ? [space.revisionId] : [],
    type: 'edits',
    pages: [{ id: 'p1', kind: 'document', title: 'Page', slug: 'page', path: 'page', body: new TextEncoder().encode(`# Page\n\nchange ${n}\n`) }],
    files: [],
  });
  await store.spaces.setPrimaryRevision(spaceId, id, { expected: space.revisionId });
}

const env = { FETCH_ALLOW_HOSTS: '127.0.0.1', FOLIO_VAULT_KEY: 'webhook-e2e', FOLIO_WEBHOOK_POLL_MS: '200', FOLIO_WEBHOOK_MAX_INTERVAL_MS: '1000' };

describe('webhook delivery to a receiver that goes down', () => {
  let folio: TestFolio;
  const secret = `whsec_${randomBytes(32).toString('base64')}`;
  const receiver = new Receiver(secret);

  beforeAll(async () => {
    folio = await startFolio({ env });
    await receiver.start();
  });
  afterAll(async () => {
    if (receiver.server) await receiver.kill();
    await folio?.stop();
  });

  it(`${CHANGES} content changes across ${SPACES} spaces: every event delivered once, in order per space, signed`, async () => {
    const org = folio.organizationId;
    const published = await folio.request('POST', '/v1/integrations/change-feed', {
      organization: org,
      title: 'Change feed',
      description: 'Receives content events',
      scopes: ['space:content:read'],
      secrets: { WEBHOOK_URL: `http://127.0.0.1:${receiver.port}/hook?token=abc`, WEBHOOK_SECRET: secret },
    });
    expect(published.status, JSON.stringify(published.body)).toBe(200);
    // The secret and the address are never answered back.
    expect(JSON.stringify(published.body)).not.toContain(secret);
    expect(JSON.stringify(published.body)).not.toContain('token=abc');
    const installed = await folio.request('POST', '/v1/integrations/change-feed/installations', { organization: org });
    expect(installed.status, JSON.stringify(installed.body)).toBe(201);
    const installationId = installed.body.id as string;

    const spaces = await Promise.all(Array.from({ length: SPACES }, (_, i) => folio.store.spaces.create(org, { title: `S${i}` })));
    const started = Date.now();
    for (let n = 0; n < CHANGES; n++) {
      if (n === Math.floor(CHANGES * 0.3)) await receiver.kill();
      if (n === Math.floor(CHANGES * 0.7)) {
        // Down long enough for deliveries to be refused and backed off.
        await until('a refused attempt', async () => ((await folio.store.integrations.pendingDeliveries(installationId, 1))[0]?.attempts ?? 0) > 1, 60_000);
        await receiver.start(receiver.port);
      }
      await change(folio.store, spaces[n % SPACES]!.id, n);
    }
    await until(`${CHANGES} deliveries`, () => receiver.accepted.length >= CHANGES, 600_000);
    const elapsedMs = Date.now() - started;

    const events = (await folio.store.events.list(org, { limit: 1000 })).items.filter((e) => e.type === 'space_content_updated');
    expect(events).toHaveLength(CHANGES);
    expect(new Set(receiver.accepted.map((r) => r.id))).toEqual(new Set(events.map((e) => e.id)));
    expect(receiver.accepted).toHaveLength(CHANGES);
    expect(receiver.badSignatures).toBe(0);
    for (const space of spaces) {
      const sent = events.filter((e) => e.spaceId === space.id).map((e) => e.id);
      expect(receiver.accepted.filter((r) => r.spaceId === space.id).map((r) => r.id)).toEqual(sent);
    }
    console.log(
      `webhook e2e: ${CHANGES} events, ${receiver.requests} requests (${receiver.duplicates} duplicates), delivered ${elapsedMs} ms after the first change`,
    );

    // Every delivery is listed as a success; one delivered after the outage shows its refused attempts.
    await until('deliveries finished', async () => (await folio.store.integrations.pendingDeliveries(installationId, 1)).length === 0, 30_000);
    const list = await folio.request('GET', '/v1/integrations/change-feed/events?limit=1000');
    expect(list.status).toBe(200);
    assertContract('GET', '/v1/integrations/change-feed/events', 200, list.body);
    expect(list.body.count).toBe(CHANGES);
    expect(list.body.items.every((e: { status: string }) => e.status === 'success')).toBe(true);
    const retried = (await folio.store.integrations.deliveries('change-feed', { limit: 1000 })).items.find((d) => d.attempts > 1)!;
    const one = await folio.request('GET', `/v1/integrations/change-feed/events/${retried.id}`);
    assertContract('GET', `/v1/integrations/change-feed/events/${retried.id}`, 200, one.body);
    expect(one.body.trace.logs.map((l: { message: string }) => l.message).join('\n')).toMatch(/not reached \(ECONNREFUSED\)[\s\S]*delivered on attempt/);
    expect(JSON.stringify(one.body)).not.toContain('token=abc');

    // Operators find each delivery in Temporal by its event type and subscriber.
    const first = events[0]!;
    const description = await folio.client.workflow.getHandle(`integration/change-feed/installation/${installationId}/event/${first.id}`).describe();
    expect(description.typedSearchAttributes.get({ name: 'EventType', type: 'KEYWORD' })).toBe('space_content_updated');
    expect(description.typedSearchAttributes.get({ name: 'Subscriber', type: 'KEYWORD' })).toBe(`change-feed/${installationId}`);
    expect(await description.memo).toMatchObject({ eventId: first.id, eventType: 'space_content_updated', integration: 'change-feed' });
    expect(JSON.stringify(await description.memo)).not.toContain(secret);
  }, 900_000);
});

describe('a receiver that never accepts', () => {
  let folio: TestFolio;
  let server: http.Server;
  let port: number;

  beforeAll(async () => {
    folio = await startFolio({ env: { ...env, FOLIO_WEBHOOK_GIVE_UP_MS: '3000', FOLIO_WEBHOOK_MAX_INTERVAL_MS: '500' } });
    server = http.createServer((_req, res) => res.writeHead(503).end());
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server?.closeAllConnections();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
    await folio?.stop();
  });

  it('gets its delivery marked failed after the give-up time, with every attempt in the trace', async () => {
    const org = folio.organizationId;
    const secret = `whsec_${randomBytes(24).toString('base64')}`;
    await folio.request('POST', '/v1/integrations/never', {
      organization: org,
      title: 'Never',
      description: 'Always 503',
      scopes: [],
      secrets: { WEBHOOK_URL: `http://127.0.0.1:${port}/`, WEBHOOK_SECRET: secret },
    });
    const installed = await folio.request('POST', '/v1/integrations/never/installations', { organization: org });
    const space = await folio.store.spaces.create(org, { title: 'Lonely' });
    await change(folio.store, space.id, 1);
    await until('the delivery failed', async () => (await folio.store.integrations.pendingDeliveries(installed.body.id, 1)).length === 0, 120_000);
    const list = await folio.request('GET', '/v1/integrations/never/events');
    assertContract('GET', '/v1/integrations/never/events', 200, list.body);
    expect(list.body.items.map((e: { status: string }) => e.status)).toEqual(['failed']);
    const one = await folio.request('GET', `/v1/integrations/never/events/${list.body.items[0].id}`);
    const messages = one.body.trace.logs.map((l: { message: string }) => l.message);
    expect(messages.filter((m: string) => /answered 503/.test(m)).length).toBeGreaterThan(1);
    expect(messages[messages.length - 1]).toMatch(/given up after 3 s/);
  }, 300_000);
});
