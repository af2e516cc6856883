/**
 * A worker killed with SIGKILL in the middle of a website import: the worker runs in a child process
 * (test/gitsync/worker-process.ts) on its own task queue of the shared dev server, against a real PostgreSQL both
 * processes reach. The crawl is caught while some pages are fetched and others wait on the site (held), the process
 * is killed, a new one starts, the crawl activity is retried after its heartbeat timeout and resumes from the run's
 * checkpoints: the import completes, and no page fetched before the kill is fetched again.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../src/store/index.js';
import { startContentImport, waitForContentImport } from '../../src/temporal/client/start.js';
import { testLogger } from '../helpers/logger.js';
import { killAll, startWorkerChild, type WorkerChild, type WorkerChildren } from '../helpers/worker-child.js';
import { startPostgres, postgresUnavailableReason, type TestPostgres } from '../helpers/postgres.js';
import { testClient, uniqueTaskQueue } from '../helpers/temporal.js';
import { smallSite, startDocSite, type DocSite } from './doc-site.js';

const pg: TestPostgres | null = await startPostgres();
let store: Store;
let site: DocSite;
let work: string;
const children: WorkerChildren = [];

function startWorkerProcess(taskQueue: string, dataDir: string): Promise<WorkerChild> {
  return startWorkerChild(children, { databaseUrl: pg!.url, taskQueue, env: { DATA_DIR: dataDir, WEBIMPORT_DELAY_MS: '0', WEBIMPORT_CONCURRENCY: '2' } });
}

beforeAll(async () => {
  if (!pg) return;
  work = await mkdtemp(path.join(tmpdir(), 'folio-webimport-crash-'));
  store = await openStore({ databaseUrl: pg.url, migrate: true, logger: testLogger('store') });
  site = await startDocSite({ k1: smallSite('k1') });
});

afterAll(async () => {
  killAll(children);
  await site?.stop();
  await store?.close();
  await pg?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

describe.skipIf(!pg)(`website import survives a killed worker${pg ? '' : ` (skipped: ${postgresUnavailableReason})`}`, () => {
  it('SIGKILL mid-crawl: a new worker completes the import without fetching a done page again', { timeout: 300_000 }, async () => {
    await store.orgs.ensure({ id: 'crash-org', title: 'Crash' });
    const space = await store.spaces.create('crash-org', { title: 'Crash' });
    const run = await store.imports.create({ organizationId: 'crash-org', spaceId: space.id, source: { type: 'website', url: `${site.base}/k1/` } });
    const taskQueue = uniqueTaskQueue('webimport-crash');
    const first = await startWorkerProcess(taskQueue, path.join(work, 'data-1'));
    const client = await testClient();
    try {
      site.hold(/^\/k1\/(alpha|flaky|broken)\.html$/);
      const held = site.held();
      // The killed attempt is noticed after 10 s (20 s in production; the crawl beats every 5 s) and retried 100 ms later.
      const input = { runId: run.id, organizationId: 'crash-org', spaceId: space.id, heartbeatTimeoutMs: 10_000, retryInitialIntervalMs: 100 };
      await startContentImport({ client, taskQueue }, input, 'crash test');
      await held;
      // Wait until the pages before the held ones are checkpointed, then kill the worker.
      const deadline = Date.now() + 60_000;
      let done: string[] = [];
      while (done.length < 3) {
        if (Date.now() > deadline) throw new Error('no page was checkpointed');
        done = (await store.imports.urls(run.id, { status: 'fetched', kind: 'page' })).map((u) => new URL(u.url).pathname);
        await new Promise((r) => setTimeout(r, 100));
      }
      await first.kill();
      const hitsAtKill = new Map(site.hits);
      expect((await store.imports.get('crash-org', run.id))?.status).toBe('in-progress');
      site.release();

      await startWorkerProcess(taskQueue, path.join(work, 'data-2'));
      const result = await waitForContentImport(client, 'crash-org', run.id);
      expect(result.outcome).toBe('completed');
      for (const p of done) expect(site.hits.get(p), `${p} fetched again after the kill`).toBe(hitsAtKill.get(p));
      expect(site.hits.get('/k1/alpha.html')).toBeGreaterThanOrEqual(1);

      const finished = await store.imports.get('crash-org', run.id);
      expect(finished).toMatchObject({ status: 'completed', revisionId: result.revisionId });
      expect((await store.spaces.get(space.id))!.revisionId).toBe(result.revisionId);
      const pages = await store.revisions.pages(result.revisionId!);
      const titles = (list: typeof pages): string[] => list.flatMap((p) => [p.title, ...titles(p.children)]);
      expect(titles(pages)).toEqual(['Welcome', 'Guide', 'Install', 'Zebra', 'Alpha', 'Flaky', 'Broken']);
    } finally {
      await client.connection.close();
    }
  });
});
