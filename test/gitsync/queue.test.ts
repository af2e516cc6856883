/**
 * The per-space git queue on the real dev server, with fake import/export activities: timestamp order,
 * stale requests dropped (unless force), duplicates run once, continue-as-new keeps history bounded.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@temporalio/client';
import { loadConfig } from '../../src/config/config.js';
import type { Store } from '../../src/store/index.js';
import { workflowIds } from '../../src/temporal/contract/index.js';
import type { GitQueueOutcome, GitQueueState, GitSyncRequest } from '../../src/temporal/contract/index.js';
import { enqueueGitRequestSignal, gitQueueStateQuery } from '../../workflows/git-definitions.js';
import { testLogger } from '../helpers/logger.js';
import { createTestStore } from '../helpers/store.js';
import { startTestWorker, testClient, uniqueTaskQueue, type RunningWorker } from '../helpers/temporal.js';

let client: Client;
let store: Store;
let worker: RunningWorker;
let taskQueue: string;
const ran: Array<{ spaceId: string; requestId: string; timestamp: string; direction: string }> = [];
const recorded: GitQueueOutcome[] = [];
const gates = new Map<string, Promise<void>>();

function initial(spaceId: string, extra: Partial<GitQueueState> = {}): GitQueueState {
  return { spaceId, organizationId: 'org', pending: [], lastApplied: {}, seen: [], recent: [], processed: 0, dropped: 0, runs: 1, ...extra };
}

function req(spaceId: string, n: number, extra: Partial<GitSyncRequest> = {}): GitSyncRequest {
  const timestamp = new Date(Date.UTC(2025, 0, 1, 0, 0, n)).toISOString();
  return {
    requestId: `r-${n}${extra.force ? '-f' : ''}`,
    direction: 'import',
    spaceId,
    organizationId: 'org',
    url: 'http://127.0.0.1:1/repo.git',
    ref: 'refs/heads/main',
    timestamp,
    force: false,
    standalone: false,
    projectDirectory: '',
    receivedAt: new Date().toISOString(),
    ...extra,
  };
}

async function send(spaceId: string, request: GitSyncRequest, state: Partial<GitQueueState> = {}) {
  await client.workflow.signalWithStart('gitQueueWorkflow', {
    workflowId: workflowIds.gitQueue(spaceId),
    taskQueue,
    args: [initial(spaceId, state)],
    signal: enqueueGitRequestSignal,
    signalArgs: [request],
  });
}

async function waitFor<T>(fn: () => Promise<T>, ok: (v: T) => boolean, timeoutMs = 60_000): Promise<T> {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await fn();
    if (ok(v)) return v;
    if (Date.now() > end) throw new Error(`timed out; last: ${JSON.stringify(v).slice(0, 500)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

beforeAll(async () => {
  client = await testClient();
  store = await createTestStore();
  taskQueue = uniqueTaskQueue('gitq');
  const op = async (request: GitSyncRequest) => {
    await gates.get(`${request.spaceId}/${request.requestId}`);
    ran.push({ spaceId: request.spaceId, requestId: request.requestId, timestamp: request.timestamp, direction: request.direction });
    return { requestId: request.requestId, direction: request.direction, outcome: 'applied' as const };
  };
  worker = await startTestWorker(
    { store, config: { ...loadConfig({}), taskQueue }, logger: testLogger('gitq') },
    {
      taskQueue,
      activities: {
        gitRecordOutcome: async (_spaceId: string, outcomes: GitQueueOutcome[]) => {
          recorded.push(...outcomes);
        },
        gitBeginOperation: async () => ({ stale: false }),
        gitFinishOperation: async () => undefined,
        gitImportActivity: op,
        gitExportActivity: op,
        gitImportOperation: op,
        gitExportOperation: op,
        gitForgetCredentials: async () => undefined,
      },
    },
  );
});

afterAll(async () => {
  await worker?.stop();
  await client?.connection.close();
  await store?.close();
});

describe('git queue workflow', () => {
  it('runs requests one at a time in timestamp order, drops stale ones, runs duplicates once, honours force', async () => {
    const spaceId = `q-${Date.now()}`;
    let release!: () => void;
    gates.set(`${spaceId}/r-5`, new Promise<void>((r) => (release = r)));
    await send(spaceId, req(spaceId, 5));
    const handle = client.workflow.getHandle(workflowIds.gitQueue(spaceId));
    // r-5 runs (held by its gate) before the others are sent: had they all arrived before the workflow's first task,
    // it would rightly have run them all in timestamp order from r-1 (as a whole run at load once did).
    await waitFor(
      () => handle.query(gitQueueStateQuery),
      (v) => v.running?.requestId === 'r-5',
    );
    // While r-5 runs: nine more in shuffled order, one duplicate, one forced old one.
    for (const n of [9, 2, 7, 1, 10, 3, 8, 6, 4]) await send(spaceId, req(spaceId, n));
    await send(spaceId, req(spaceId, 9));
    await send(spaceId, req(spaceId, 1, { force: true }));
    await send(spaceId, req(spaceId, 3, { direction: 'export', requestId: 'e-3' }));
    release();
    const view = await waitFor(
      () => handle.query(gitQueueStateQuery),
      (v) => v.pending.length === 0 && v.running === null && v.processed === 12,
    );
    const order = ran.filter((r) => r.spaceId === spaceId).map((r) => r.requestId);
    // r-5 first, then by timestamp: the forced r-1, export e-3 (its own direction), 6..10; 1,2,3,4 dropped.
    expect(order).toEqual(['r-5', 'r-1-f', 'e-3', 'r-6', 'r-7', 'r-8', 'r-9', 'r-10']);
    expect(view.lastApplied.import).toBe(req(spaceId, 10).timestamp);
    const statuses = Object.fromEntries(view.recent.map((o) => [`${o.requestId}:${o.status}`, o.code]));
    for (const n of [1, 2, 3, 4]) expect(statuses[`r-${n}:dropped-stale`]).toBe('STALE');
    expect(statuses['r-9:duplicate']).toBe('DUPLICATE');
    expect(view.dropped).toBe(5);
    // Operators see the drops in the request log activity too.
    await waitFor(
      async () => recorded.filter((o) => o.status === 'dropped-stale' && o.requestId === 'r-2').length,
      (n) => n === 1,
    );
  });

  it('continues as new with bounded history and loses no request across runs', async () => {
    const spaceId = `can-${Date.now()}`;
    const N = Number(process.env.GIT_QUEUE_REQUESTS ?? 1500);
    await send(spaceId, req(spaceId, 100_000), { maxHistoryEvents: 300 });
    const handle = client.workflow.getHandle(workflowIds.gitQueue(spaceId));
    await waitFor(
      () => handle.query(gitQueueStateQuery),
      (v) => v.processed === 1,
    );
    const sends: Promise<unknown>[] = [];
    for (let i = 0; i < N; i++) {
      sends.push(send(spaceId, req(spaceId, i)));
      if (sends.length >= 50) await Promise.all(sends.splice(0));
    }
    await Promise.all(sends);
    // And one newer request after all the stale ones: it must run.
    await send(spaceId, req(spaceId, 200_000));
    // `processed` counts a request when it leaves the queue; wait until it has also finished running.
    const view = await waitFor(
      () => handle.query(gitQueueStateQuery),
      (v) => v.processed === N + 2 && v.running === null && v.pending.length === 0,
      120_000,
    );
    expect(view.runs).toBeGreaterThan(1);
    expect(view.dropped).toBe(N);
    expect(ran.filter((r) => r.spaceId === spaceId).map((r) => r.requestId)).toEqual(['r-100000', 'r-200000']);
    const desc = await handle.describe();
    expect(desc.historyLength).toBeLessThan(1000);
  });

  it('keeps pending bounded: beyond maxPending the oldest superseded requests are dropped as QUEUE_FULL, the newest still run', async () => {
    const spaceId = `full-${Date.now()}`;
    let release!: () => void;
    gates.set(`${spaceId}/r-0`, new Promise<void>((r) => (release = r)));
    await send(spaceId, req(spaceId, 0), { maxPending: 5 });
    const handle = client.workflow.getHandle(workflowIds.gitQueue(spaceId));
    await waitFor(
      () => handle.query(gitQueueStateQuery),
      (v) => v.running !== null,
    );
    for (let n = 1; n <= 12; n++) await send(spaceId, req(spaceId, n));
    const full = await handle.query(gitQueueStateQuery);
    expect(full.pending.length).toBe(5);
    release();
    const view = await waitFor(
      () => handle.query(gitQueueStateQuery),
      (v) => v.processed === 13 && v.running === null && v.pending.length === 0,
    );
    expect(ran.filter((r) => r.spaceId === spaceId).map((r) => r.requestId)).toEqual(['r-0', 'r-8', 'r-9', 'r-10', 'r-11', 'r-12']);
    const overflow = view.recent.filter((o) => o.status === 'dropped-overflow');
    expect(overflow.map((o) => o.requestId).sort()).toEqual(['r-1', 'r-2', 'r-3', 'r-4', 'r-5', 'r-6', 'r-7'].sort());
    for (const o of overflow) expect(o.code).toBe('QUEUE_FULL');
  });
});
