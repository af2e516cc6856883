/**
 * Whether this activity attempt may still change anything: a cancel seen by a heartbeat, or (asked of the server now,
 * since heartbeats are throttled and a cancel may not have reached the attempt yet) the workflow closed or asked to
 * cancel this activity, or this attempt was superseded by a retry, throw `cancelled(operation)`.
 */
import type { Context } from '@temporalio/activity';

/** temporal.api.enums.v1.PendingActivityState.PENDING_ACTIVITY_STATE_CANCEL_REQUESTED (@temporalio/proto is CommonJS: no named ESM import under plain Node). */
const PENDING_ACTIVITY_STATE_CANCEL_REQUESTED = 3;

export async function assertAttemptCurrent(ctx: Context | undefined, operation: string, cancelled: (operation: string) => Error): Promise<void> {
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
}
