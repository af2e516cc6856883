/**
 * Issue 25, item 2: while the database is unreachable the API answered 500 (`GET /v1/orgs/{org}/spaces` among them).
 * The API here runs on the embedded database server (a pglite-server, as under `folio start`); the server goes
 * away, as when its process dies: every request that needs the store answers 503 with `Retry-After` and the
 * standard error body, `/healthz` reports the store as down, and once the server is back on the same data
 * directory the same requests succeed without restarting the API.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, startPgliteServer, type PgliteServer, type Store } from '../../src/store/index.js';
import { startFolio, type TestFolio } from '../helpers/folio.js';
import { testLogger } from '../helpers/logger.js';

let root: string;
let server: PgliteServer;
let store: Store;
let folio: TestFolio;

const startServer = () => startPgliteServer({ dataDir: path.join(root, 'pg'), socketDir: path.join(root, 'run') });

beforeAll(async () => {
  root = await mkdtemp(path.join(os.tmpdir(), 'folio-db-unavailable-'));
  server = await startServer();
  store = await openStore({ databaseUrl: server.url, poolSize: 4, logger: testLogger('store') });
  folio = await startFolio({ store });
});
afterAll(async () => {
  await folio?.stop();
  await store?.close();
  await server?.stop();
  await rm(root, { recursive: true, force: true });
});

describe('the API while the database is down', () => {
  it('answers 503 with Retry-After and the standard error body, never 500; /healthz says the store is down; all well once it is back', async () => {
    const org = folio.organizationId;
    const created = await folio.request('POST', `/v1/orgs/${org}/spaces`, { title: 'Before' });
    expect(created.status).toBe(201);
    const spaceId = created.body.id as string;
    expect((await folio.request('GET', `/v1/orgs/${org}/spaces`)).status).toBe(200);

    await server.stop();
    const requests: Array<[string, string, unknown?]> = [
      ['GET', `/v1/orgs/${org}/spaces`],
      ['GET', `/v1/spaces/${spaceId}`],
      ['GET', `/v1/spaces/${spaceId}/content`],
      ['POST', `/v1/orgs/${org}/spaces`, { title: 'During' }],
      ['PATCH', `/v1/spaces/${spaceId}`, { title: 'Renamed' }],
    ];
    for (const [method, url, body] of requests) {
      const res = await folio.request(method, url, body);
      expect(res.status, `${method} ${url}`).toBe(503);
      expect(res.headers.get('retry-after'), `${method} ${url}`).toMatch(/^[1-9]\d*$/);
      expect(res.body, `${method} ${url}`).toEqual({ error: { code: 503, message: expect.any(String) } });
      // Nothing of the connection (socket path, driver message) reaches the client.
      expect(JSON.stringify(res.body)).not.toContain(root);
    }
    const health = await fetch(`${folio.baseUrl}/healthz`);
    expect(health.status).toBe(503);
    expect(health.headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
    expect(await health.json()).toMatchObject({ status: 'unavailable', store: 'unavailable' });

    server = await startServer();
    const back = await folio.request('GET', `/v1/spaces/${spaceId}`);
    expect(back.status).toBe(200);
    expect(back.body).toMatchObject({ id: spaceId, title: 'Before' });
    expect((await fetch(`${folio.baseUrl}/healthz`)).status).toBe(200);
    expect((await folio.request('PATCH', `/v1/spaces/${spaceId}`, { title: 'Renamed' })).status).toBe(200);
  });
});
