/**
 * The git operation workflows (gitImportWorkflow, gitExportWorkflow: workflows/git-operation.ts) on the time-skipping
 * test server, with stub activities: what the workflow does with each outcome of its one operation activity (applied,
 * stale, a typed failure, a transient error, a worker that died, a cancel), with the production retry policy and
 * timeouts, in virtual time.
 */
import { Context } from '@temporalio/activity';
import { WorkflowFailedError } from '@temporalio/client';
import { ApplicationFailure, CancelledFailure } from '@temporalio/common';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { searchIndexWorkflowId, workflowIds } from '../../src/temporal/contract/index.js';
import type { GitOperationResult, GitSyncRequest, SearchIndexInput } from '../../src/temporal/contract/index.js';
import { createTimeSkippingEnv, startStubWorker, type StubWorker } from '../helpers/time-skipping.js';

type Operation = (request: GitSyncRequest, attempt: number) => Promise<GitOperationResult>;

/** What the stubs were asked, by request id. */
const finished = new Map<string, Array<{ state: string; error?: { code: string; message: string } }>>();
const forgotten: string[] = [];
const indexed: SearchIndexInput[] = [];
const attempts = new Map<string, number[]>();
/** The operation activity's pending state (temporal.api.enums.v1.PendingActivityState) when the end was recorded. */
const pendingAtFinish = new Map<string, number[]>();
/** The operation activity's behaviour, by request id. */
const operations = new Map<string, Operation>();

const operation = async (request: GitSyncRequest): Promise<GitOperationResult> => {
  const { attempt } = Context.current().info;
  attempts.set(request.requestId, [...(attempts.get(request.requestId) ?? []), attempt]);
  const op = operations.get(request.requestId);
  if (!op) throw new Error(`no behaviour for ${request.requestId}`);
  return op(request, attempt);
};

const activities = {
  gitImportOperation: operation,
  gitExportOperation: operation,
  async gitFinishOperation(request: GitSyncRequest, end: { state: string; error?: { code: string; message: string } }) {
    finished.set(request.requestId, [...(finished.get(request.requestId) ?? []), end]);
    // What the server says of the operation activity when the end is recorded (git/info shows it from now on).
    const described = await env.client.workflow.getHandle(idOf(request)).describe();
    const operationActivity = (described.raw.pendingActivities ?? []).filter(
      (a) => a.activityType?.name === 'gitImportOperation' || a.activityType?.name === 'gitExportOperation',
    );
    pendingAtFinish.set(
      request.requestId,
      operationActivity.map((a) => a.state ?? 0),
    );
  },
  async gitForgetCredentials(credentialId: string) {
    forgotten.push(credentialId);
  },
  async searchIndexSpace(input: SearchIndexInput) {
    indexed.push(input);
    return { outcome: 'indexed', revisionId: input.revisionId };
  },
  // The indexing workflow then asks which sites publish on a new revision of the space: none here.
  async sitesPublishingOnNewRevision() {
    return [];
  },
};

/** An attempt of a worker that died: it never heartbeats nor ends (until the test's worker stops). */
const diedAttempt = (): Promise<never> => {
  const ctx = Context.current();
  return new Promise<never>((_, reject) => ctx.cancellationSignal.addEventListener('abort', () => reject(new CancelledFailure('worker stopped'))));
};

let env: TestWorkflowEnvironment;
let worker: StubWorker;
let n = 0;

function request(direction: 'import' | 'export', extra: Partial<GitSyncRequest> = {}): GitSyncRequest {
  n++;
  const at = new Date(Date.UTC(2025, 0, 1, 0, 0, n)).toISOString();
  return {
    requestId: `req-${n}`,
    direction,
    spaceId: `space-${n}`,
    organizationId: 'org',
    url: 'http://127.0.0.1:9/docs.git',
    credentialId: `cred-${n}`,
    ref: 'refs/heads/main',
    timestamp: at,
    force: false,
    standalone: false,
    projectDirectory: '',
    receivedAt: at,
    ...extra,
  };
}

const idOf = (r: GitSyncRequest) => (r.direction === 'import' ? workflowIds.gitImport(r.spaceId, r.requestId) : workflowIds.gitExport(r.spaceId, r.requestId));

function start(r: GitSyncRequest, op: Operation) {
  operations.set(r.requestId, op);
  return env.client.workflow.start(r.direction === 'import' ? 'gitImportWorkflow' : 'gitExportWorkflow', {
    workflowId: idOf(r),
    taskQueue: worker.taskQueue,
    args: [r],
  });
}

/** The run's failure: the WorkflowFailedError's cause. */
async function failureOf(r: GitSyncRequest): Promise<unknown> {
  const err = await env.client.workflow
    .getHandle(idOf(r))
    .result()
    .then(
      () => null,
      (e: unknown) => e,
    );
  expect(err).toBeInstanceOf(WorkflowFailedError);
  return (err as WorkflowFailedError).cause;
}

/** The heartbeat timeouts (s) of the operation activity as scheduled in the run's history. */
async function scheduledHeartbeatTimeouts(r: GitSyncRequest): Promise<number[]> {
  const history = await env.client.workflow.getHandle(idOf(r)).fetchHistory();
  return (history.events ?? [])
    .map((e) => e.activityTaskScheduledEventAttributes)
    .filter((a) => a?.activityType?.name === (r.direction === 'import' ? 'gitImportOperation' : 'gitExportOperation'))
    .map((a) => Number(a!.heartbeatTimeout?.seconds ?? 0));
}

beforeAll(async () => {
  env = await createTimeSkippingEnv();
  worker = await startStubWorker(env, activities);
});

afterAll(async () => {
  await worker?.stop();
  await env?.teardown();
});

describe('git operation workflow (time-skipping, stub activities)', () => {
  it('an applied import: its result and memo, its credentials forgotten, the search indexing of its revision started', async () => {
    const r = request('import');
    const handle = await start(r, async (req) => ({
      requestId: req.requestId,
      direction: 'import',
      outcome: 'applied',
      commit: 'c0ffee',
      revisionId: 'rev-1',
    }));
    expect(await handle.result()).toMatchObject({ outcome: 'applied', revisionId: 'rev-1', commit: 'c0ffee' });
    expect((await handle.describe()).memo).toMatchObject({ outcome: 'applied', commit: 'c0ffee', revisionId: 'rev-1' });
    expect(forgotten).toContain(r.credentialId);
    // The operation activity recorded its success itself: the workflow records nothing more.
    expect(finished.get(r.requestId)).toBeUndefined();
    await env.client.workflow.getHandle(searchIndexWorkflowId(r.spaceId, 'rev-1')).result();
    expect(indexed).toContainEqual({ spaceId: r.spaceId, organizationId: 'org', revisionId: 'rev-1' });
    expect(await scheduledHeartbeatTimeouts(r)).toEqual([60]);
  });

  it("the request's heartbeatTimeoutMs replaces the 60 s heartbeat timeout (tests that kill workers set it)", async () => {
    const r = request('export', { heartbeatTimeoutMs: 7000 });
    const handle = await start(r, async (req) => ({ requestId: req.requestId, direction: 'export', outcome: 'noop' }));
    expect(await handle.result()).toMatchObject({ outcome: 'noop' });
    expect(await scheduledHeartbeatTimeouts(r)).toEqual([7]);
  });

  it('a stale request is dropped: nothing recorded, no credentials forgotten by the workflow, no indexing', async () => {
    const r = request('import');
    const handle = await start(r, async (req) => ({ requestId: req.requestId, direction: 'import', outcome: 'stale', detail: 'older than the last import' }));
    expect(await handle.result()).toMatchObject({ outcome: 'stale' });
    expect(finished.get(r.requestId)).toBeUndefined();
    expect(forgotten).not.toContain(r.credentialId);
    expect(indexed.map((i) => i.spaceId)).not.toContain(r.spaceId);
  });

  it('a typed failure runs once, is recorded with its code, and fails the run non-retryable with that code', async () => {
    const r = request('import');
    await start(r, async () => {
      throw ApplicationFailure.nonRetryable('authentication failed for the repository', 'AUTH_FAILED');
    });
    const cause = await failureOf(r);
    expect(cause).toBeInstanceOf(ApplicationFailure);
    expect(cause).toMatchObject({ type: 'AUTH_FAILED', nonRetryable: true, message: 'authentication failed for the repository' });
    expect(attempts.get(r.requestId)).toEqual([1]);
    expect(finished.get(r.requestId)).toEqual([{ state: 'failure', error: { code: 'AUTH_FAILED', message: 'authentication failed for the repository' } }]);
  });

  it('a transient error is retried with backoff (2 s, then 4 s) and the third attempt succeeds', async () => {
    const r = request('export');
    const handle = await start(r, async (req, attempt) => {
      if (attempt < 3) throw new Error('socket hang up');
      return { requestId: req.requestId, direction: 'export', outcome: 'applied', commit: 'beef' };
    });
    expect(await handle.result()).toMatchObject({ outcome: 'applied', commit: 'beef' });
    expect(attempts.get(r.requestId)).toEqual([1, 2, 3]);
    expect(finished.get(r.requestId)).toBeUndefined();
  });

  it('a worker that died mid-operation: its attempt times out on the heartbeat and the next one finishes', async () => {
    // The test server does not skip time while an activity runs: a short heartbeat timeout, as the crash tests use.
    const r = request('import', { heartbeatTimeoutMs: 1000 });
    let lastFailure: unknown;
    const handle = await start(r, async (req, attempt) => {
      if (attempt === 1) return diedAttempt();
      const described = await env.client.workflow.getHandle(idOf(req)).describe();
      lastFailure = described.raw.pendingActivities?.[0]?.lastFailure;
      return { requestId: req.requestId, direction: 'import', outcome: 'noop' };
    });
    expect(await handle.result()).toMatchObject({ outcome: 'noop' });
    expect(attempts.get(r.requestId)).toEqual([1, 2]);
    expect(lastFailure).toMatchObject({ timeoutFailureInfo: { timeoutType: 4 } }); // TIMEOUT_TYPE_HEARTBEAT
    expect(finished.get(r.requestId)).toBeUndefined();
  });

  it('a cancelled run records CANCELLED and ends cancelled', async () => {
    const r = request('import', { heartbeatTimeoutMs: 2000 });
    let running!: () => void;
    const isRunning = new Promise<void>((resolve) => (running = resolve));
    const handle = await start(r, async () => {
      running();
      const ctx = Context.current();
      for (;;) {
        ctx.heartbeat();
        await ctx.sleep(100);
      }
    });
    await isRunning;
    await handle.cancel();
    const cause = await failureOf(r);
    expect(cause).toBeInstanceOf(CancelledFailure);
    expect(finished.get(r.requestId)).toEqual([{ state: 'failure', error: { code: 'CANCELLED', message: 'the operation was cancelled' } }]);
    expect((await handle.describe()).memo).toMatchObject({ outcome: 'failure', errorCode: 'CANCELLED' });
    // The cancel reached the server before CANCELLED is recorded: an activity that goes on (its heartbeats are
    // throttled) and asks the server before it stores anything is told so, whenever git/info says CANCELLED.
    expect(pendingAtFinish.get(r.requestId)).toEqual([3]); // PENDING_ACTIVITY_STATE_CANCEL_REQUESTED
  });
});
