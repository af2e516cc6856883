/**
 * No request lost under concurrent load (issue 10): 10 concurrent imports into 10 spaces, then 10 concurrent
 * exports, run by two worker processes sharing one database — the embedded PGlite served over the wire
 * protocol by Folio's pglite-server (as `npm start` runs it), and a PostgreSQL server. Every run succeeds and
 * every space ends with exactly its one imported revision and an exported branch holding its files.
 * The full size (50 + 50) is bench/concurrency.ts.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Client } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openStore, startPgliteServer, type PgliteServer } from '../../src/store/index.js';
import { startGitServer, type GitServer } from '../helpers/git-server.js';
import { runConcurrentSync } from '../helpers/concurrent-sync.js';
import { testLogger } from '../helpers/logger.js';
import { postgresUnavailableReason, startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { testClient, uniqueTaskQueue } from '../helpers/temporal.js';

const N = 10;
let work: string;
let server: GitServer;
let client: Client;
const pg: TestPostgres | null = await startPostgres();

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'folio-concurrency-'));
  server = await startGitServer();
  client = await testClient();
});

afterAll(async () => {
  await client?.connection.close();
  await server?.stop();
  await pg?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

async function scenario(databaseUrl: string, name: string): Promise<void> {
  const store = await openStore({ databaseUrl, migrate: true, logger: testLogger('store'), poolSize: 2 });
  const dir = path.join(work, name);
  try {
    const result = await runConcurrentSync({
      n: N,
      databaseUrl,
      store,
      client,
      temporalAddress: inject('temporalAddress'),
      workflowBundlePath: inject('workflowBundlePath'),
      compiledWorkerProcess: inject('compiledWorkerProcess'),
      compiledParseThread: inject('compiledParseThread'),
      taskQueue: uniqueTaskQueue(`concurrency-${name}`),
      gitServer: server,
      work: dir,
    });
    expect(result.imports.filter((r) => !r.ok)).toEqual([]);
    expect(result.exports.filter((r) => !r.ok)).toEqual([]);
    expect(result.imports).toHaveLength(N);
    expect(result.exports).toHaveLength(N);
    expect(result.spaces.filter((s) => s.problems.length)).toEqual([]);
    expect(result.spaces).toHaveLength(N);
  } finally {
    await store.close();
  }
}

describe('concurrent git imports and exports, two worker processes', () => {
  it(
    `embedded database (pglite-server): ${N} imports + ${N} exports over ${N} spaces all succeed, each space exactly as expected`,
    { timeout: 600_000 },
    async () => {
      const db: PgliteServer = await startPgliteServer({ dataDir: path.join(work, 'pglite') });
      try {
        await scenario(db.url, 'embedded');
      } finally {
        await db.stop();
      }
    },
  );

  it.skipIf(!pg)(
    `PostgreSQL: ${N} imports + ${N} exports over ${N} spaces all succeed, each space exactly as expected${pg ? '' : ` (skipped: ${postgresUnavailableReason})`}`,
    { timeout: 600_000 },
    async () => {
      await scenario(pg!.url, 'postgres');
    },
  );
});
