/**
 * A worker killed with SIGKILL in the middle of an import: the worker runs in a child process
 * (./worker-process.ts) on its own task queue of the shared dev server, against a real PostgreSQL both
 * processes reach. The import is caught while it waits for the pack (a holding proxy in front of the git
 * server), the process is killed, a new worker process (own git cache) starts, the activity is retried after
 * its heartbeat timeout and the workflow completes with exactly one new revision, made primary.
 *
 * The second test kills the worker where a crash could duplicate or lose work: after the revision is stored but
 * before it is primary, then (next attempt) after it is primary but before the activity completes (hold points
 * of ./worker-process.ts, HOLD_AT).
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../src/store/index.js';
import { workflowIds } from '../../src/temporal/contract/index.js';
import type { GitOperationResult, GitSyncRequest } from '../../src/temporal/contract/index.js';
import { testLogger } from '../helpers/logger.js';
import { startPostgres, postgresUnavailableReason, type TestPostgres } from '../helpers/postgres.js';
import { startGitServer, type GitServer } from '../helpers/git-server.js';
import { killAll, startWorkerChild, type WorkerChild, type WorkerChildren } from '../helpers/worker-child.js';
import { testClient, uniqueTaskQueue } from '../helpers/temporal.js';
import { startHoldingProxy, type HoldingProxy } from './holding-proxy.js';

const PAGES = 12;
/**
 * The import activity's heartbeat timeout in this file: how long a killed worker's attempt stays unnoticed (three such
 * waits). An attempt held at the proxy does not heartbeat: the test kills its worker within this time (one query).
 */
const HEARTBEAT_TIMEOUT_MS = 5000;
const pg: TestPostgres | null = await startPostgres();
let store: Store;
let server: GitServer;
let proxy: HoldingProxy;
let work: string;
const children: WorkerChildren = [];

/** Starts ./worker-process.ts (with `env`, e.g. HOLD_AT) and resolves once it polls. */
function startWorkerProcess(taskQueue: string, dataDir: string, env: Record<string, string> = {}): Promise<WorkerChild> {
  return startWorkerChild(children, { databaseUrl: pg!.url, taskQueue, env: { DATA_DIR: dataDir, FOLIO_VAULT_KEY: 'crash-test-vault-key', ...env } });
}

beforeAll(async () => {
  if (!pg) return;
  work = await mkdtemp(path.join(tmpdir(), 'folio-gitsync-crash-'));
  store = await openStore({ databaseUrl: pg.url, migrate: true, logger: testLogger('store') });
  server = await startGitServer();
  proxy = await startHoldingProxy(server.port);
  const docs = path.join(work, 'docs');
  await mkdir(docs, { recursive: true });
  await writeFile(path.join(docs, 'README.md'), '# Home\n\nStart here.\n');
  for (let i = 1; i < PAGES; i++) await writeFile(path.join(docs, `page-${i}.md`), `# Page ${i}\n\nBody ${i}.\n`);
  await server.createBareRepo('docs', { fromDir: docs, branch: 'main', message: 'docs' });
});

afterAll(async () => {
  killAll(children);
  await proxy?.stop();
  await server?.stop();
  await store?.close();
  await pg?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

/** An import request of `main` from `url` into the space (what the git queue would hand the child workflow). */
function importRequest(spaceId: string, requestId: string, url: string): GitSyncRequest {
  const now = new Date().toISOString();
  return {
    requestId,
    direction: 'import',
    spaceId,
    organizationId: 'crash-org',
    url,
    ref: 'refs/heads/main',
    timestamp: now,
    force: false,
    standalone: false,
    projectDirectory: '',
    receivedAt: now,
    // A killed worker's attempt is retried after this heartbeat timeout (60 s in production).
    heartbeatTimeoutMs: HEARTBEAT_TIMEOUT_MS,
    // The retry after a timed-out attempt starts 100 ms later (FOLIO_GIT_RETRY_INITIAL_MS), not 2 s, then 4 s.
    retryInitialIntervalMs: 100,
  };
}

describe.skipIf(!pg)(`git import survives a killed worker${pg ? '' : ` (skipped: ${postgresUnavailableReason})`}`, () => {
  it('SIGKILL mid-import, a new worker finishes it: exactly one new revision, primary', { timeout: 300_000 }, async () => {
    await store.orgs.ensure({ id: 'crash-org', title: 'Crash' });
    const space = await store.spaces.create('crash-org', { title: 'Crash' });
    const before = (await store.revisions.listForSpace(space.id, { limit: 100 })).items.map((r) => r.id);
    const primaryBefore = (await store.spaces.get(space.id))!.revisionId;
    const taskQueue = uniqueTaskQueue('crash');
    const first = await startWorkerProcess(taskQueue, path.join(work, 'data-1'));

    const request = importRequest(space.id, 'crash-import-1', proxy.url('docs'));
    const client = await testClient();
    try {
      const held = proxy.holdNext();
      const handle = await client.workflow.start('gitImportWorkflow', {
        workflowId: workflowIds.gitImport(space.id, request.requestId),
        taskQueue,
        args: [request],
      });
      await held; // attempt 1 of the import activity is running in the first process
      expect((await store.gitSync.get(space.id)).operation).toMatchObject({ state: 'running', requestId: request.requestId });
      await first.kill();
      proxy.release('destroy');
      expect((await store.revisions.listForSpace(space.id, { limit: 100 })).items.map((r) => r.id)).toEqual(before);
      expect((await store.spaces.get(space.id))!.revisionId).toBe(primaryBefore);

      await startWorkerProcess(taskQueue, path.join(work, 'data-2'));
      const result = (await handle.result()) as GitOperationResult;
      expect(result.outcome).toBe('applied');

      const revisions = (await store.revisions.listForSpace(space.id, { limit: 100 })).items.filter((r) => !before.includes(r.id));
      expect(revisions).toHaveLength(1);
      expect(revisions[0]!.id).toBe(result.revisionId);
      expect(revisions[0]!.type).toBe('git-import');
      expect(revisions[0]!.pageCount).toBe(PAGES);
      expect((await store.spaces.get(space.id))!.revisionId).toBe(result.revisionId);
      expect((await store.gitSync.get(space.id)).operation).toMatchObject({ state: 'success', requestId: request.requestId });

      // The import activity really ran twice: the killed attempt timed out (heartbeat) and attempt 2 completed.
      const history = await handle.fetchHistory();
      const scheduled = (history.events ?? []).filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'gitImportOperation');
      expect(scheduled).toHaveLength(1);
      const started = (history.events ?? []).find(
        (e) => e.activityTaskStartedEventAttributes && e.activityTaskStartedEventAttributes.scheduledEventId?.toString() === scheduled[0]!.eventId?.toString(),
      );
      expect(started?.activityTaskStartedEventAttributes?.attempt).toBeGreaterThanOrEqual(2);
      expect(started?.activityTaskStartedEventAttributes?.lastFailure?.timeoutFailureInfo).toBeTruthy();
    } finally {
      await client.connection.close();
    }
  });

  it(
    'SIGKILL after the revision is stored (before it is primary), again after it is primary (before the activity completes): exactly one new revision',
    { timeout: 400_000 },
    async () => {
      const space = await store.spaces.create('crash-org', { title: 'Crash after store' });
      const before = (await store.revisions.listForSpace(space.id, { limit: 100 })).items.map((r) => r.id);
      const primaryBefore = (await store.spaces.get(space.id))!.revisionId;
      const newRevisions = async () => (await store.revisions.listForSpace(space.id, { limit: 100 })).items.filter((r) => !before.includes(r.id));
      const taskQueue = uniqueTaskQueue('crash2');
      const request = importRequest(space.id, 'crash-import-2', server.url('docs'));
      const client = await testClient();
      try {
        const first = await startWorkerProcess(taskQueue, path.join(work, 'data-3'), { HOLD_AT: 'before-primary' });
        const heldBefore = first.printed('held before-primary');
        const handle = await client.workflow.start('gitImportWorkflow', {
          workflowId: workflowIds.gitImport(space.id, request.requestId),
          taskQueue,
          args: [request],
        });
        await heldBefore;
        const stored = await newRevisions();
        expect(stored).toHaveLength(1);
        expect((await store.spaces.get(space.id))!.revisionId).toBe(primaryBefore);
        await first.kill();

        // Attempt 2 (after the heartbeat timeout) on a new worker: reuses the stored revision, makes it primary, dies.
        const second = await startWorkerProcess(taskQueue, path.join(work, 'data-4'), { HOLD_AT: 'after-primary' });
        await second.printed('held after-primary');
        expect((await newRevisions()).map((r) => r.id)).toEqual([stored[0]!.id]);
        expect((await store.spaces.get(space.id))!.revisionId).toBe(stored[0]!.id);
        await second.kill();

        // Attempt 3 completes the import without a second revision and reports it as applied.
        await startWorkerProcess(taskQueue, path.join(work, 'data-5'));
        const result = (await handle.result()) as GitOperationResult;
        expect(result).toMatchObject({ outcome: 'applied', revisionId: stored[0]!.id });
        expect((await newRevisions()).map((r) => r.id)).toEqual([stored[0]!.id]);
        expect((await store.spaces.get(space.id))!.revisionId).toBe(stored[0]!.id);
        const sync = await store.gitSync.get(space.id);
        expect(sync.lastImport).toMatchObject({ requestId: request.requestId, revisionId: stored[0]!.id });
        expect(sync.operation).toMatchObject({ state: 'success', requestId: request.requestId });
        const history = await handle.fetchHistory();
        const started = (history.events ?? []).find((e) => e.activityTaskStartedEventAttributes && (e.activityTaskStartedEventAttributes.attempt ?? 1) >= 3);
        expect(started?.activityTaskStartedEventAttributes?.lastFailure?.timeoutFailureInfo).toBeTruthy();
      } finally {
        await client.connection.close();
      }
    },
  );
});
