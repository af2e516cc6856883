/**
 * Temporal unreachable (restarting, killed with the deployment, shedding load): a request that needs it answers 503
 * with `Retry-After`, as for the database, instead of a 500 "internal error" — the client sends it again, and a git
 * request sent twice runs once. Nothing is started: the client points at a loopback port nobody listens on, without
 * the SDK's retries, so the call fails at once with the real error the SDK gives.
 */
import net from 'node:net';
import { Client, Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildServer } from '../../src/api/server.js';
import { loadConfig } from '../../src/config/config.js';
import type { Store } from '../../src/store/index.js';
import { isTemporalUnavailable } from '../../src/temporal/client/unavailable.js';
import { testLogger } from '../helpers/logger.js';
import { createTestStore } from '../helpers/store.js';

let store: Store;
let connection: Connection;
let client: Client;

beforeAll(async () => {
  store = await createTestStore();
  const server = net.createServer();
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((r) => server.close(r));
  connection = Connection.lazy({ address: `127.0.0.1:${port}`, interceptors: [] });
  client = new Client({ connection });
});
afterAll(async () => {
  await connection?.close().catch(() => undefined);
  await store?.close();
});

describe('Temporal unavailable', () => {
  it('the SDK error of a refused connection is recognised, a plain error is not', async () => {
    const err = await client.workflow
      .getHandle('nobody')
      .describe()
      .catch((e: unknown) => e);
    expect(isTemporalUnavailable(err)).toBe(true);
    expect(isTemporalUnavailable(new Error('boom'))).toBe(false);
    expect(isTemporalUnavailable(Object.assign(new Error('invalid'), { code: 3, details: 'bad', metadata: {} }))).toBe(false);
  });

  it('a git request answers 503 with Retry-After and a message naming no internals', async () => {
    const org = await store.orgs.create({ title: 'unavailable' });
    const { token } = await store.tokens.create(org.id, { label: 'unavailable' });
    const space = await store.spaces.create(org.id, { title: 'unavailable' });
    const app = await buildServer({ store, temporal: client, config: { ...loadConfig({}), parseThreads: 1 }, logger: testLogger('unavailable') });
    try {
      const res = await app.inject({
        method: 'POST',
        url: `/v1/spaces/${space.id}/git/import`,
        headers: { authorization: `Bearer ${token}` },
        payload: { url: 'https://git.example.com/docs.git', ref: 'refs/heads/main' },
      });
      expect(res.statusCode).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.json()).toEqual({ error: { code: 503, message: 'the workflow service is unavailable or overloaded; retry later' } });
    } finally {
      await app.close();
    }
  });
});
