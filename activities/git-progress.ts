/**
 * Live progress of a long git activity: heartbeats (so a cancel reaches it and a dead worker is noticed) and,
 * at most every two seconds, a `gitProgress` signal to its own workflow, which shows it in the workflow's
 * current details and answers the `gitProgress` query.
 */
import { Context } from '@temporalio/activity';
import { GitCancelledError } from '../src/git/index.js';
import { gitSignals, type GitProgress } from '../src/temporal/contract/index.js';

/** temporal.api.enums.v1.PendingActivityState.PENDING_ACTIVITY_STATE_CANCEL_REQUESTED (@temporalio/proto is CommonJS: no named ESM import under plain Node). */
const PENDING_ACTIVITY_STATE_CANCEL_REQUESTED = 3;

export interface ProgressReporter {
  update(p: Partial<GitProgress>): void;
  readonly current: GitProgress;
  flush(): Promise<void>;
  readonly signal: AbortSignal | undefined;
  /**
   * Throws GitCancelledError when this attempt must not change anything any more: a cancel seen by a heartbeat,
   * or (asked of the server now, since heartbeats are throttled and a cancel may not have reached us yet) the
   * workflow closed or asked to cancel this activity, or this attempt was superseded by a retry. Call it right
   * before the point of no return (storing a revision, making it primary, pushing).
   */
  assertNotCancelled(operation: string): Promise<void>;
}

export function progressReporter(phase: string, intervalMs = 2000): ProgressReporter {
  let ctx: Context | undefined;
  try {
    ctx = Context.current();
  } catch {
    ctx = undefined;
  }
  const current: GitProgress = { phase };
  let lastSent = 0;
  let sending: Promise<void> = Promise.resolve();
  const send = () => {
    if (!ctx) return;
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
    sending = sending
      .then(() => client.workflow.getHandle(workflowId).signal(gitSignals.progress, snapshot))
      .catch(() => undefined);
  };
  return {
    current,
    signal: ctx?.cancellationSignal,
    update(p) {
      Object.assign(current, p);
      ctx?.heartbeat(current);
      if (Date.now() - lastSent >= intervalMs) send();
    },
    async assertNotCancelled(operation) {
      if (!ctx) return;
      if (ctx.cancellationSignal.aborted) throw new GitCancelledError(operation);
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
      if (description.status.name !== 'RUNNING') throw new GitCancelledError(operation);
      const pending = description.raw.pendingActivities?.find((a) => a.activityId === ctx.info.activityId);
      if (!pending || pending.state === PENDING_ACTIVITY_STATE_CANCEL_REQUESTED || (pending.attempt ?? 1) !== ctx.info.attempt) {
        throw new GitCancelledError(operation);
      }
    },
    async flush() {
      send();
      await sending;
    },
  };
}
