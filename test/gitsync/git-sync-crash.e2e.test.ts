/**
 * A worker killed with SIGKILL in the middle of an import: the worker runs in a child process
 * (./worker-process.ts) on its own task queue of the shared dev server, against a real PostgreSQL both
 * processes reach. The import is caught while it waits for the pack (a holding proxy in front of the git
 * server), the process is killed, a new worker process (own git cache) starts, the activity is retried after
 * its heartbeat timeout and the workflow completes with exactly one new revision, made primary.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { openStore, type Store } from '../../src/store/index.js';
import { workflowIds } from '../../workflows/definitions.js';
import type { GitOperationResult, GitSyncRequest } from '../../workflows/git-definitions.js';
import { testLogger } from '../helpers/logger.js';
import { startPostgres, postgresUnavailableReason, type TestPostgres } from '../helpers/postgres.js';
import { startGitServer, type GitServer } from '../helpers/git-server.js';
import { testClient, uniqueTaskQueue } from '../helpers/temporal.js';
import { startHoldingProxy, type HoldingProxy } from './holding-proxy.js';

const PAGES = 12;
const pg: TestPostgres | null = await startPostgres();
let store: Store;
let server: GitServer;
let proxy: HoldingProxy;
let work: string;
const children: ChildProcess[] = [];

/** Starts ./worker-process.ts and resolves once it polls. */
async function startWorkerProcess(taskQueue: string, dataDir: string): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'worker-process.ts')], {
    cwd: path.resolve(import.meta.dirname, '../..'),
    env: {
      ...process.env,
      DATABASE_URL: pg!.url,
      TASK_QUEUE: taskQueue,
      TEMPORAL_ADDRESS: inject('temporalAddress'),
      WORKFLOW_BUNDLE: inject('workflowBundlePath'),
      DATA_DIR: dataDir,
      FOLIO_VAULT_KEY: 'crash-test-vault-key',
      LOG_LEVEL: 'error',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stderr = '';
  child.stderr!.on('data', (c: Buffer) => (stderr += String(c)));
  await new Promise<void>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (c: Buffer) => {
      out += String(c);
      if (out.includes('ready')) resolve();
    });
    child.once('exit', (code, signal) => reject(new Error(`worker process exited (${code ?? signal}) before ready: ${stderr.slice(-2000)}`)));
  });
  return child;
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
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
  await proxy?.stop();
  await server?.stop();
  await store?.close();
  await pg?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

describe.skipIf(!pg)(`git import survives a killed worker${pg ? '' : ` (skipped: ${postgresUnavailableReason})`}`, () => {
  it('SIGKILL mid-import, a new worker finishes it: exactly one new revision, primary', { timeout: 300_000 }, async () => {
    await store.orgs.ensure({ id: 'crash-org', title: 'Crash' });
    const space = await store.spaces.create('crash-org', { title: 'Crash' });
    const before = (await store.revisions.listForSpace(space.id, { limit: 100 })).items.map((r) => r.id);
    const primaryBefore = (await store.spaces.get(space.id))!.revisionId;
    const taskQueue = uniqueTaskQueue('crash');
    const first = await startWorkerProcess(taskQueue, path.join(work, 'data-1'));

    const request: GitSyncRequest = {
      requestId: 'crash-import-1',
      direction: 'import',
      spaceId: space.id,
      organizationId: 'crash-org',
      url: proxy.url('docs'),
      ref: 'refs/heads/main',
      timestamp: new Date().toISOString(),
      force: false,
      standalone: false,
      projectDirectory: '',
      receivedAt: new Date().toISOString(),
    };
    const client = await testClient();
    try {
      const held = proxy.holdNext();
      const handle = await client.workflow.start('gitImportWorkflow', { workflowId: workflowIds.gitImport(space.id, request.requestId), taskQueue, args: [request] });
      await held; // attempt 1 of the import activity is running in the first process
      expect((await store.gitSync.get(space.id)).operation).toMatchObject({ state: 'running', requestId: request.requestId });
      const exited = new Promise((r) => first.once('exit', r));
      first.kill('SIGKILL');
      await exited;
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
      const scheduled = (history.events ?? []).filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'gitImportActivity');
      expect(scheduled).toHaveLength(1);
      const started = (history.events ?? []).find((e) => e.activityTaskStartedEventAttributes && e.activityTaskStartedEventAttributes.scheduledEventId?.toString() === scheduled[0]!.eventId?.toString());
      expect(started?.activityTaskStartedEventAttributes?.attempt).toBeGreaterThanOrEqual(2);
      expect(started?.activityTaskStartedEventAttributes?.lastFailure?.timeoutFailureInfo).toBeTruthy();
    } finally {
      await client.connection.close();
    }
  });
});
