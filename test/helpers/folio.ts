import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Client } from '@temporalio/client';
import type { FastifyInstance } from 'fastify';
import { inject } from 'vitest';
import { buildServer } from '../../src/api/server.js';
import { bootstrap } from '../../src/bootstrap.js';
import { loadConfig, type Config } from '../../src/config/config.js';
import type { Store } from '../../src/store/index.js';
import type { Logger } from '../../src/log.js';
import { testLogger } from './logger.js';
import { LOOPBACK_ALLOW_HOSTS } from './loopback-policy.js';
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
    request: requester(baseUrl, token),
    async stop() {
      await app.close();
      await worker.stop();
      await client.connection.close();
      if (!options.store) await store.close();
    },
  };
}

const SHARED = Symbol.for('folio.test.sharedFolio');

/**
 * The Folio of this test process with the default configuration (what `startFolio()` starts), seen from an
 * organization of the calling file's own, with its own admin token: the e2e files of a fork run one after another
 * in the same process (test/vitest.config.ts) and share it instead of each starting a Folio (its store, worker and
 * API: about 2.3 s of CPU). Tenants are isolated, so a file sees nothing of another's organization. `loopback`: the
 * configuration of the files that import from servers on loopback (see `loopbackEnv`). A file that needs another
 * configuration, stops or restarts Folio's parts, or reads what is global to a Folio (every
 * organization, the metrics, the integrations' names) starts its own with `startFolio`. Started by the first file
 * that asks, it lives as long as the process; `stop()` leaves it running.
 */
export async function sharedFolio(options: { loopback?: boolean } = {}): Promise<TestFolio> {
  const g = globalThis as unknown as Record<symbol, Record<string, Promise<TestFolio>> | undefined>;
  const folios = (g[SHARED] ??= {});
  const key = options.loopback ? 'loopback' : 'default';
  const started = (folios[key] ??= startFolio(options.loopback ? { env: loopbackEnv() } : {}));
  let shared: TestFolio;
  try {
    shared = await started;
  } catch (err) {
    if (folios[key] === started) delete folios[key];
    throw err;
  }
  const organizationId = `org-${randomBytes(6).toString('hex')}`;
  await bootstrap(shared.store, { organizationId, title: 'Test organization', token: `test-token-${randomBytes(9).toString('hex')}` });
  const token = (await shared.store.tokens.create(organizationId, { label: 'test' })).token;
  return { ...shared, organizationId, token, request: requester(shared.baseUrl, token), async stop() {} };
}

/**
 * `sharedFolio({ loopback: true })`: git and site servers on loopback are reachable (FETCH_ALLOW_HOSTS), a vault key
 * is set (git credentials), the data directory (git caches) is one of this process in the run's directory.
 */
function loopbackEnv(): Record<string, string> {
  return {
    DATA_DIR: path.join(inject('runTmpDir'), `shared-folio-${process.pid}`),
    FOLIO_VAULT_KEY: 'shared-test-vault-key',
    FETCH_ALLOW_HOSTS: LOOPBACK_ALLOW_HOSTS,
    // No politeness delay between a website import's requests to the test's own site.
    WEBIMPORT_DELAY_MS: '0',
  };
}

function requester(baseUrl: string, token: string): TestFolio['request'] {
  return async (method, path, body, headers = {}) => {
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
  };
}
