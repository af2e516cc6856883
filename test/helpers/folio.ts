import type { AddressInfo } from 'node:net';
import type { Client } from '@temporalio/client';
import type { FastifyInstance } from 'fastify';
import { buildServer } from '../../src/api/server.js';
import { bootstrap } from '../../src/bootstrap.js';
import { loadConfig, type Config } from '../../src/config/config.js';
import type { Store } from '../../src/store/index.js';
import type { Logger } from '../../src/log.js';
import { testLogger } from './logger.js';
import { createTestStore } from './store.js';
import { startTestWorker, testClient, uniqueTaskQueue, type RunningWorker } from './temporal.js';

export interface TestFolio {
  baseUrl: string;
  token: string;
  organizationId: string;
  store: Store;
  client: Client;
  config: Config;
  worker: RunningWorker;
  app: FastifyInstance;
  /** fetch() against the API with the bearer token. */
  request(method: string, path: string, body?: unknown, headers?: Record<string, string>): Promise<{ status: number; body: any; headers: Headers }>;
  stop(): Promise<void>;
}

/**
 * A whole Folio in this test process: its own in-memory store, a worker on its own task queue of the shared
 * Temporal dev server, and the HTTP API on a free loopback port. `logger` (default: a quiet test logger) is
 * the one of the worker's activities and of the API, e.g. one writing to a stream the test keeps.
 */
export async function startFolio(options: { env?: Record<string, string>; store?: Store; logger?: Logger } = {}): Promise<TestFolio> {
  const logger = options.logger ?? testLogger('folio');
  const config: Config = { ...loadConfig({ ...options.env, FOLIO_TASK_QUEUE: uniqueTaskQueue('folio') }), port: 0 };
  const store = options.store ?? (await createTestStore());
  const boot = await bootstrap(store, { organizationId: 'test-org', token: `test-token-${Math.random().toString(36).slice(2)}` });
  const token = (await store.tokens.create('test-org', { label: 'test' })).token;
  const client = await testClient();
  const worker = await startTestWorker({ store, config, logger });
  const app = await buildServer({ store, temporal: client, config, logger });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const { port } = app.server.address() as AddressInfo;
  const baseUrl = `http://127.0.0.1:${port}`;
  return {
    baseUrl,
    token,
    organizationId: boot.organizationId,
    store,
    client,
    config,
    worker,
    app,
    async request(method, path, body, headers = {}) {
      const res = await fetch(baseUrl + path, {
        method,
        headers: {
          authorization: `Bearer ${token}`,
          ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          ...headers,
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.text();
      let parsed: unknown = text;
      try {
        parsed = text ? JSON.parse(text) : undefined;
      } catch {
        // not JSON
      }
      return { status: res.status, body: parsed, headers: res.headers };
    },
    async stop() {
      await app.close();
      await worker.stop();
      await client.connection.close();
      if (!options.store) await store.close();
    },
  };
}
