/**
 * One queue per space (`space/<spaceId>/git`): runs git imports and exports one at a time in `timestamp`
 * order, as child workflows. Started lazily by signal-with-start; continues-as-new carrying its (bounded)
 * state; completes after a while without requests (the next request starts it again).
 *
 * - A re-sent request (same request id) runs once: ids are remembered (bounded) and the child workflow id
 *   is rejected by Temporal when it already ran.
 * - A request older than the last applied one of its direction is dropped and recorded, unless `force`.
 *   The activity re-checks against the content store, so correctness never rests on this memory alone.
 */
import {
  condition,
  continueAsNew,
  executeChild,
  log,
  patched,
  proxyActivities,
  proxyLocalActivities,
  setHandler,
  workflowInfo,
  allHandlersFinished,
  WorkflowIdReusePolicy,
  ParentClosePolicy,
} from '@temporalio/workflow';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import type { Activities } from '../activities/index.js';
import {
  searchAttributes,
  workflowIds,
  MAX_PENDING,
  MAX_PENDING_BYTES,
  RECENT_OUTCOMES,
  SEEN_IDS,
  type GitOperationResult,
  type GitQueueOutcome,
  type GitQueueState,
  type GitSyncRequest,
} from '../src/temporal/contract/index.js';
import { classifyFailure } from './failure.js';
import { enqueueGitRequestSignal, gitQueueStateQuery } from './git-definitions.js';
import type { gitImportWorkflow } from './git-import.js';
import type { gitExportWorkflow } from './git-export.js';

const recorderOptions = {
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds', maximumAttempts: 5 },
} as const;
const remoteRecorder = proxyActivities<Activities>(recorderOptions);
/** Outcomes are recorded by a local activity (no activity task, no workflow task of its own); histories recorded before keep the activity (`patched`). */
const localRecorder = proxyLocalActivities<Activities>(recorderOptions);
const LOCAL_RECORDER_PATCH = 'git-queue-record-outcome-local-activity';

/** Pure ordering rule: earliest timestamp first, then arrival. */
export function compareRequests(a: GitSyncRequest, b: GitSyncRequest): number {
  const ta = Date.parse(a.timestamp);
  const tb = Date.parse(b.timestamp);
  if (ta !== tb) return ta - tb;
  return Date.parse(a.receivedAt) - Date.parse(b.receivedAt);
}

export function isStale(request: GitSyncRequest, lastApplied: GitQueueState['lastApplied']): boolean {
  if (request.force) return false;
  const last = lastApplied[request.direction];
  return last !== undefined && Date.parse(request.timestamp) < Date.parse(last);
}

/** A failed child's error (ChildWorkflowFailure → ApplicationFailure, or → ActivityFailure → ApplicationFailure / TimeoutFailure). */
function errorOf(err: unknown): { code: string; message: string } {
  const f = classifyFailure(err);
  if (f.kind === 'application') return { code: f.type ?? 'ERROR', message: f.message };
  if (f.kind === 'timeout') return { code: 'TIMEOUT', message: f.message };
  if (f.kind === 'cancelled') return { code: 'CANCELLED', message: 'cancelled' };
  return { code: 'ERROR', message: f.message };
}

function outcomeOf(r: GitSyncRequest, status: GitQueueOutcome['status'], extra: Partial<GitQueueOutcome> = {}): GitQueueOutcome {
  return {
    requestId: r.requestId,
    direction: r.direction,
    timestamp: r.timestamp,
    status,
    at: new Date().toISOString(),
    // A request that will not run hands its credentials to the recorder, which deletes them.
    ...((status === 'dropped-stale' || status === 'dropped-overflow' || status === 'duplicate') && r.credentialId ? { credentialId: r.credentialId } : {}),
    ...extra,
  };
}

const sizeOf = (r: GitSyncRequest) => JSON.stringify(r).length;

/** The child workflow of a request: its id, search attributes, memo and summary (never credentials). */
function childOptions(request: GitSyncRequest) {
  const isImport = request.direction === 'import';
  const workflowId = isImport ? workflowIds.gitImport(request.spaceId, request.requestId) : workflowIds.gitExport(request.spaceId, request.requestId);
  return {
    workflowId,
    args: [request] as [GitSyncRequest],
    workflowIdReusePolicy: WorkflowIdReusePolicy.REJECT_DUPLICATE,
    parentClosePolicy: ParentClosePolicy.REQUEST_CANCEL,
    typedSearchAttributes: searchAttributes({
      spaceId: request.spaceId,
      organizationId: request.organizationId,
      operation: isImport ? 'git-import' : 'git-export',
    }),
    memo: {
      requestId: request.requestId,
      direction: request.direction,
      url: request.url,
      ref: request.ref,
      timestamp: request.timestamp,
      force: request.force,
      ...(request.projectDirectory ? { projectDirectory: request.projectDirectory } : {}),
    },
    staticSummary: `Git ${request.direction} of space ${request.spaceId} ${isImport ? 'from' : 'to'} ${request.url} ${request.ref} (event ${request.timestamp}${request.force ? ', force' : ''})`,
    workflowExecutionTimeout: '2 hours' as const,
  };
}

/** The queue's state within one run of the workflow, and what it does with it. */
class GitQueue {
  readonly state: GitQueueState;
  running: GitSyncRequest | null = null;
  /** Outcomes not handed to the recorder yet. */
  readonly unrecorded: GitQueueOutcome[] = [];
  private readonly maxEvents: number;
  private readonly maxPending: number;
  private readonly maxPendingBytes: number;
  private pendingBytes: number;

  constructor(initial: GitQueueState) {
    this.state = { ...initial, runs: initial.runs ?? 1 };
    this.maxEvents = this.state.maxHistoryEvents ?? 2000;
    this.maxPending = this.state.maxPending ?? MAX_PENDING;
    this.maxPendingBytes = this.state.maxPendingBytes ?? MAX_PENDING_BYTES;
    this.pendingBytes = this.state.pending.reduce((n, r) => n + sizeOf(r), 0);
  }

  private remember(id: string): void {
    const { state } = this;
    state.seen.push(id);
    if (state.seen.length > SEEN_IDS) state.seen.splice(0, state.seen.length - SEEN_IDS);
  }

  record(outcome: GitQueueOutcome): void {
    const { state } = this;
    state.recent.push(outcome);
    if (state.recent.length > RECENT_OUTCOMES) state.recent.splice(0, state.recent.length - RECENT_OUTCOMES);
    if (outcome.status === 'dropped-stale' || outcome.status === 'dropped-overflow' || outcome.status === 'duplicate') state.dropped++;
    this.unrecorded.push(outcome);
  }

  /**
   * Keeps `pending` within its bounds: drops the oldest request that a newer pending request of the same
   * direction supersedes (non-forced ones first), recorded as `dropped-overflow` / QUEUE_FULL for operators.
   * Nothing that decides the end state is lost: the newest request of each direction always stays.
   */
  private trimPending(): void {
    const { state, maxPending, maxPendingBytes } = this;
    while (state.pending.length > maxPending || (this.pendingBytes > maxPendingBytes && state.pending.length > 2)) {
      const superseded = (i: number) => state.pending.slice(i + 1).some((later) => later.direction === state.pending[i]!.direction);
      let victim = state.pending.findIndex((r, i) => !r.force && superseded(i));
      if (victim < 0) victim = state.pending.findIndex((_, i) => superseded(i));
      if (victim < 0) break;
      const [dropped] = state.pending.splice(victim, 1);
      this.pendingBytes -= sizeOf(dropped!);
      state.processed++;
      this.record(
        outcomeOf(dropped!, 'dropped-overflow', {
          code: 'QUEUE_FULL',
          message: `the queue held more than ${maxPending} requests or ${maxPendingBytes} bytes; a newer ${dropped!.direction} supersedes this one`,
        }),
      );
    }
  }

  /** The signal: queues a request in order, once. */
  enqueue(request: GitSyncRequest): void {
    const { state } = this;
    if (state.seen.includes(request.requestId)) {
      this.record(outcomeOf(request, 'duplicate', { code: 'DUPLICATE', message: 'the same request was already queued or run' }));
      return;
    }
    this.remember(request.requestId);
    state.pending.push(request);
    state.pending.sort(compareRequests);
    this.pendingBytes += sizeOf(request);
    this.trimPending();
  }

  /** The query. */
  snapshot() {
    const { state, running } = this;
    return {
      spaceId: state.spaceId,
      running: running ? { requestId: running.requestId, direction: running.direction, timestamp: running.timestamp } : null,
      pending: state.pending.map((r) => ({ requestId: r.requestId, direction: r.direction, timestamp: r.timestamp })),
      lastApplied: state.lastApplied,
      recent: state.recent,
      processed: state.processed,
      dropped: state.dropped,
      runs: state.runs,
    };
  }

  async flushOutcomes(): Promise<void> {
    while (this.unrecorded.length > 0) {
      const batch = this.unrecorded.splice(0, this.unrecorded.length);
      await (patched(LOCAL_RECORDER_PATCH) ? localRecorder : remoteRecorder).gitRecordOutcome(this.state.spaceId, batch);
    }
  }

  shouldContinueAsNew(): boolean {
    return workflowInfo().continueAsNewSuggested || workflowInfo().historyLength >= this.maxEvents;
  }

  /** Runs the pending requests in order (stale ones dropped), until none is left or the history is long enough. */
  async runPending(): Promise<void> {
    const { state } = this;
    while (state.pending.length > 0) {
      const request = state.pending.shift()!;
      this.pendingBytes -= sizeOf(request);
      state.processed++;
      if (isStale(request, state.lastApplied)) {
        this.record(
          outcomeOf(request, 'dropped-stale', {
            code: 'STALE',
            message: `older than the last applied ${request.direction} (${state.lastApplied[request.direction]})`,
          }),
        );
        log.info('git request dropped: stale', { requestId: request.requestId, direction: request.direction, timestamp: request.timestamp });
        continue;
      }
      // Shown as running from now on: a query during the flush must not see an idle queue with work left.
      this.running = request;
      if (this.unrecorded.length > 0) await this.flushOutcomes();
      await this.runOne(request);
      this.running = null;
      if (this.shouldContinueAsNew()) break;
    }
  }

  /** One request as a child workflow; its outcome is recorded (a failure too: the queue goes on). */
  private async runOne(request: GitSyncRequest): Promise<void> {
    const options = childOptions(request);
    try {
      const result: GitOperationResult =
        request.direction === 'import'
          ? await executeChild<typeof gitImportWorkflow>('gitImportWorkflow', options)
          : await executeChild<typeof gitExportWorkflow>('gitExportWorkflow', options);
      if (result.outcome === 'stale') {
        this.record(outcomeOf(request, 'dropped-stale', { code: 'STALE', message: result.detail ?? 'older than the last applied operation' }));
        return;
      }
      const prev = this.state.lastApplied[request.direction];
      if (prev === undefined || Date.parse(request.timestamp) > Date.parse(prev)) this.state.lastApplied[request.direction] = request.timestamp;
      this.record(outcomeOf(request, result.outcome === 'noop' ? 'noop' : 'succeeded', result.detail ? { message: result.detail } : {}));
    } catch (err) {
      if (err instanceof WorkflowExecutionAlreadyStartedError) {
        this.record(outcomeOf(request, 'duplicate', { code: 'DUPLICATE', message: 'this request already ran' }));
        return;
      }
      const { code, message } = errorOf(err);
      log.warn('git operation failed', { requestId: request.requestId, direction: request.direction, code });
      this.record(outcomeOf(request, 'failed', { code, message }));
    }
  }
}

export async function gitQueueWorkflow(initial: GitQueueState): Promise<void> {
  const queue = new GitQueue(initial);
  const { state, unrecorded } = queue;
  const idleTimeoutMs = state.idleTimeoutMs ?? 10 * 60 * 1000;
  setHandler(enqueueGitRequestSignal, (request) => queue.enqueue(request));
  setHandler(gitQueueStateQuery, () => queue.snapshot());

  for (;;) {
    const gotWork = await condition(() => state.pending.length > 0 || unrecorded.length > 0, idleTimeoutMs);
    await queue.runPending();
    if (unrecorded.length > 0) await queue.flushOutcomes();
    if (queue.shouldContinueAsNew()) {
      await condition(allHandlersFinished);
      if (unrecorded.length > 0) await queue.flushOutcomes();
      await continueAsNew<typeof gitQueueWorkflow>({ ...state, runs: state.runs + 1 });
    }
    if (!gotWork && state.pending.length === 0) {
      await condition(allHandlersFinished);
      if (state.pending.length === 0 && unrecorded.length === 0) return;
    }
  }
}
