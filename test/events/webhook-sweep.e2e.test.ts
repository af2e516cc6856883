/**
 * Issue 28, delivery survives a lost subscriber: deliveries are written with their events, and the worker's start-up
 * sweep (src/temporal/client/webhook-subscribers.ts) signals-with-start every installation's subscriber. An
 * installation whose subscriber never started (the API died after recording the install) and one whose subscriber
 * was terminated both get their pending events once the sweep ran; sweeping again (twice at once) starts no second
 * subscriber and delivers nothing twice.
 */
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sweepWebhookSubscribers } from '../../src/temporal/client/webhook-subscribers.js';
import { verifyWebhook } from '../../src/webhooks/signature.js';
import { startFolio, type TestFolio } from '../helpers/folio.js';
import { testLogger } from '../helpers/logger.js';

let folio: TestFolio;
let server: http.Server;
let port = 0;
const secret = `whsec_${randomBytes(32).toString('base64')}`;
/** Accepted event ids with their installation, in arrival order; requests per installation and event id. */
const received: Array<{ id: string; installationId: string }> = [];
const requestsPerId = new Map<string, number>();

async function until(what: string, probe: () => Promise<boolean> | boolean, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await probe())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

async function change(spaceId: string, n: number): Promise<void> {
  const space = (await folio.store.spaces.get(spaceId))!;
  const { id } = await folio.store.revisions.create({
    spaceId,
    parents: space.revisionId ? [space.revisionId] : [],
    type: 'edits',
    pages: [{ id: 'p1', kind: 'document', title: 'Page', slug: 'page', path: 'page', body: new TextEncoder().encode(`change ${n}\n`) }],
    files: [],
  });
  await folio.store.spaces.setPrimaryRevision(spaceId, id, { expected: space.revisionId });
}

const sweep = () =>
  sweepWebhookSubscribers({
    connection: folio.client.connection,
    namespace: folio.config.temporalNamespace,
    taskQueue: folio.config.taskQueue,
    store: folio.store,
    config: folio.config,
    logger: testLogger('sweep'),
  });

beforeAll(async () => {
  folio = await startFolio({
    env: { FETCH_ALLOW_HOSTS: '127.0.0.1', FOLIO_VAULT_KEY: 'webhook-sweep', FOLIO_WEBHOOK_POLL_MS: '200', FOLIO_WEBHOOK_MAX_INTERVAL_MS: '500' },
  });
  server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString('utf8');
      const headers = {
        id: String(req.headers['webhook-id']),
        timestamp: String(req.headers['webhook-timestamp']),
        signature: String(req.headers['webhook-signature']),
      };
      if (!verifyWebhook(secret, headers, body)) return void res.writeHead(401).end();
      const payload = JSON.parse(body) as { eventId: string; installationId: string };
      const key = `${payload.installationId}/${headers.id}`;
      requestsPerId.set(key, (requestsPerId.get(key) ?? 0) + 1);
      if (requestsPerId.get(key) === 1) received.push({ id: payload.eventId, installationId: payload.installationId });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});
afterAll(async () => {
  server?.closeAllConnections();
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  await folio?.stop();
});

describe('the start-up sweep of webhook subscribers', () => {
  it('resumes a subscriber that never started and one that was terminated; sweeping again delivers nothing twice', async () => {
    const org = folio.organizationId;
    const publish = (name: string) =>
      folio.request('POST', `/v1/integrations/${name}`, {
        organization: org,
        title: name,
        description: 'Sweep',
        scopes: [],
        secrets: { WEBHOOK_URL: `http://127.0.0.1:${port}/${name}`, WEBHOOK_SECRET: secret },
      });
    expect((await publish('never-started')).status).toBe(200);
    expect((await publish('terminated')).status).toBe(200);
    // Recorded in the store, its subscriber never started (the API died between the two).
    const lost = (await folio.store.integrations.install('never-started', org)).installation;
    const installed = await folio.request('POST', '/v1/integrations/terminated/installations', { organization: org });
    expect(installed.status).toBe(201);
    const terminatedId = installed.body.id as string;
    await folio.client.workflow.getHandle(`integration/terminated/installation/${terminatedId}`).terminate('test: the subscriber is gone');

    const space = await folio.store.spaces.create(org, { title: 'Swept' });
    for (let n = 0; n < 6; n++) await change(space.id, n);
    const pendingOf = async (id: string) => (await folio.store.integrations.pendingDeliveries(id, 100)).length;
    expect(await pendingOf(lost.id)).toBeGreaterThanOrEqual(6);
    expect(await pendingOf(terminatedId)).toBeGreaterThanOrEqual(6);

    await sweep();
    await until('every pending delivery delivered', async () => (await pendingOf(lost.id)) === 0 && (await pendingOf(terminatedId)) === 0);
    await Promise.all([sweep(), sweep()]);
    for (let n = 6; n < 9; n++) await change(space.id, n);
    await until('the later events delivered', async () => (await pendingOf(lost.id)) === 0 && (await pendingOf(terminatedId)) === 0);

    const events = (await folio.store.events.list(org, { limit: 1000, stream: space.id })).items.map((e) => e.id);
    expect(events.length).toBeGreaterThanOrEqual(9);
    for (const installationId of [lost.id, terminatedId]) {
      // Every event, in recording order, each id accepted once.
      expect(received.filter((r) => r.installationId === installationId).map((r) => r.id)).toEqual(events);
    }
    const subscriber = await folio.client.workflow.getHandle(`integration/never-started/installation/${lost.id}`).describe();
    expect(subscriber.status.name).toBe('RUNNING');
  }, 300_000);
});
