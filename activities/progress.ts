/**
 * Live progress of a long activity, for every pipeline: heartbeats (so a cancel reaches it and a dead worker is
 * noticed) carrying the current Progress, and, at most every two seconds, a signal to its own workflow, which
 * answers a query with it and shows it in the run's current details (workflows/progress.ts). The first signal goes
 * `firstAfterMs` after the first update, by a timer (a step that holds, such as a fetch waiting for its first byte,
 * still shows live progress): an activity done sooner (a tiny import, a no-op) signals only its final progress
 * (`flush`), instead of waking its workflow for a workflow task while it runs; the git activities return their final
 * progress with their result instead (no signal at all).
 *
 *   const progress = progressReporter<GitProgress>('fetching', { signal: gitSignals.progress, cancelled: (op) => new GitCancelledError(op) });
 *   progress.update({ phase: 'parsing', filesRead: 3 });
 */
import { ApplicationFailure, Context } from '@temporalio/activity';
import type { Progress } from '../src/temporal/contract/index.js';

/** temporal.api.enums.v1.PendingActivityState.PENDING_ACTIVITY_STATE_CANCEL_REQUESTED (@temporalio/proto is CommonJS: no named ESM import under plain Node). */
const PENDING_ACTIVITY_STATE_CANCEL_REQUESTED = 3;

export interface ProgressReporter<P extends Progress = Progress> {
  update(p: Partial<P>): void;
  readonly current: P;
  /** Sends the current progress now and waits for the signals sent. */
  flush(): Promise<void>;
  /** The activity is over (whatever its outcome): a first signal not sent yet is not sent any more; keep-alives stop. */
  close(): void;
  /**
   * Sends the current progress again every `everyMs` until the returned function (or `close`) is called: for a step
   * that makes no update for a while but is bounded otherwise (parsing, within its budgets), so that heartbeats keep
   * flowing (the heartbeat timeout does not end a working attempt) and a cancel still reaches the activity.
   */
  keepAlive(everyMs?: number): () => void;
  readonly signal: AbortSignal | undefined;
  /**
   * Throws (`options.cancelled`) when this attempt must not change anything any more: a cancel seen by a heartbeat,
   * or (asked of the server now, since heartbeats are throttled and a cancel may not have reached us yet) the
   * workflow closed or asked to cancel this activity, or this attempt was superseded by a retry. Call it right
   * before the point of no return (storing a revision, making it primary, pushing).
   */
  assertNotCancelled(operation: string): Promise<void>;
}

export interface ProgressOptions {
  /** Name of the workflow's progress signal (from the contract, e.g. `gitSignals.progress`). */
  signal: string;
  /** Least time between two signals (heartbeats are throttled by the SDK). Default 2000 ms. */
  intervalMs?: number;
  /** Time from the first update to the first signal. Default 300 ms. */
  firstAfterMs?: number;
  /** The error `assertNotCancelled` throws. Default: a non-retryable `CANCELLED` ApplicationFailure. */
  cancelled?: (operation: string) => Error;
}

function cancelledFailure(operation: string): Error {
  return ApplicationFailure.create({ type: 'CANCELLED', message: `${operation} cancelled`, nonRetryable: true });
}

export function progressReporter<P extends Progress = Progress>(phase: string, options: ProgressOptions): ProgressReporter<P> {
  const intervalMs = options.intervalMs ?? 2000;
  const cancelled = options.cancelled ?? cancelledFailure;
  let ctx: Context | undefined;
  try {
    ctx = Context.current();
  } catch {
    ctx = undefined;
  }
  const current = { phase } as P;
  const firstAfterMs = options.firstAfterMs ?? 300;
  let lastSent = 0;
  let sending: Promise<void> = Promise.resolve();
  let first: ReturnType<typeof setTimeout> | undefined;
  let flushed = false;
  const keepAlives = new Set<NodeJS.Timeout>();
  const send = () => {
    if (!ctx) return;
    if (first !== undefined) clearTimeout(first);
    first = undefined;
    lastSent = Date.now();
    const snapshot = { ...current };
    const workflowId = ctx.info.workflowExecution?.workflowId;
    if (!workflowId) return;
    let client;
    try {
      client = ctx.client;
    } catch {
      return;
    }
    sending = sending.then(() => client.workflow.getHandle(workflowId).signal(options.signal, snapshot)).catch(() => undefined);
  };
  const reporter: ProgressReporter<P> = {
    current,
    signal: ctx?.cancellationSignal,
    update(p) {
      Object.assign(current, p);
      ctx?.heartbeat(current);
      if (!ctx || flushed) return;
      if (lastSent === 0) {
        // The first signal, by a timer: what is current when it fires (unless the activity finished first).
        if (first === undefined) {
          first = setTimeout(() => {
            first = undefined;
            if (!flushed && !ctx?.cancellationSignal.aborted) send();
          }, firstAfterMs);
          first.unref?.();
        }
        return;
      }
      if (Date.now() - lastSent >= intervalMs) send();
    },
    async assertNotCancelled(operation) {
      if (!ctx) return;
      if (ctx.cancellationSignal.aborted) throw cancelled(operation);
      const execution = ctx.info.workflowExecution;
      if (!execution) return;
      const { workflowId, runId } = execution;
      let client;
      try {
        client = ctx.client;
      } catch {
        return; // a worker without a client (unit tests): heartbeats are the only channel
      }
      const description = await client.workflow.getHandle(workflowId, runId).describe();
      if (description.status.name !== 'RUNNING') throw cancelled(operation);
      const pending = description.raw.pendingActivities?.find((a) => a.activityId === ctx.info.activityId);
      if (!pending || pending.state === PENDING_ACTIVITY_STATE_CANCEL_REQUESTED || (pending.attempt ?? 1) !== ctx.info.attempt) {
        throw cancelled(operation);
      }
    },
    close() {
      flushed = true;
      if (first !== undefined) clearTimeout(first);
      first = undefined;
      for (const t of keepAlives) clearInterval(t);
      keepAlives.clear();
    },
    keepAlive(everyMs = 5000) {
      if (!ctx) return () => undefined;
      const timer = setInterval(() => reporter.update({}), everyMs);
      timer.unref();
      keepAlives.add(timer);
      return () => {
        clearInterval(timer);
        keepAlives.delete(timer);
      };
    },
    async flush() {
      flushed = true;
      send();
      await sending;
    },
  };
  return reporter;
}
