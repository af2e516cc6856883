import { ScheduleAlreadyRunning, ScheduleNotFoundError, ScheduleOverlapPolicy, type Client } from '@temporalio/client';
import { OpenApiSpecIdAttribute, OperationAttribute, OrganizationIdAttribute } from '../../workflows/definitions.js';
import type { ProcessOpenApiSpecInput } from '../../workflows/openapi.js';

/** Note left on a refresh schedule paused by Folio; only such a pause is lifted automatically by a success. */
export const AUTO_PAUSE_NOTE_PREFIX = 'folio: paused after';

export function refreshScheduleId(specId: string): string {
  return `openapi/${specId}/refresh`;
}

/** Prefix of the ids of scheduled runs (Temporal appends the scheduled time). */
export function scheduledRunWorkflowId(specId: string): string {
  return `openapi/${specId}/process/scheduled`;
}

export interface RefreshScheduleOptions {
  specId: string;
  organizationId: string;
  taskQueue: string;
  /** Interval such as `6h` (OPENAPI_REFRESH_INTERVAL). */
  every: string;
  input: ProcessOpenApiSpecInput;
}

/** Creates the schedule that re-processes a URL spec every `every`. Idempotent (an existing one is kept). */
export async function ensureRefreshSchedule(client: Client, options: RefreshScheduleOptions): Promise<void> {
  try {
    await client.schedule.create({
      scheduleId: refreshScheduleId(options.specId),
      spec: { intervals: [{ every: options.every as '6h' }] },
      action: {
        type: 'startWorkflow',
        workflowType: 'processOpenApiSpecWorkflow',
        workflowId: scheduledRunWorkflowId(options.specId),
        taskQueue: options.taskQueue,
        args: [options.input],
        typedSearchAttributes: [
          { key: OpenApiSpecIdAttribute, value: options.specId },
          { key: OrganizationIdAttribute, value: options.organizationId },
          { key: OperationAttribute, value: 'openapi-refresh' },
        ],
        staticSummary: `Refresh OpenAPI spec ${options.specId}`,
      },
      policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '1 minute' },
      state: { note: `refresh of OpenAPI spec ${options.specId} every ${options.every}` },
    });
  } catch (err) {
    if (err instanceof ScheduleAlreadyRunning) return;
    throw err;
  }
}

/** Removes the schedule; false when there was none. */
export async function deleteRefreshSchedule(client: Client, specId: string): Promise<boolean> {
  try {
    await client.schedule.getHandle(refreshScheduleId(specId)).delete();
    return true;
  } catch (err) {
    if (err instanceof ScheduleNotFoundError) return false;
    throw err;
  }
}

export interface RefreshScheduleState {
  paused: boolean;
  note: string | undefined;
  every: string | undefined;
}

/** The schedule's state, or null when the spec has none. */
export async function describeRefreshSchedule(client: Client, specId: string): Promise<RefreshScheduleState | null> {
  try {
    const d = await client.schedule.getHandle(refreshScheduleId(specId)).describe();
    const interval = d.spec.intervals?.[0];
    return { paused: d.state.paused, note: d.state.note, every: interval ? String(interval.every) : undefined };
  } catch (err) {
    if (err instanceof ScheduleNotFoundError) return null;
    throw err;
  }
}

/**
 * After a run: pauses the schedule (with a note) once `consecutiveFailures` reaches `pauseAfter`, and
 * lifts a pause Folio made itself after a success. Returns the resulting pause state (null: no schedule).
 */
export async function updateRefreshScheduleAfterRun(
  client: Client,
  specId: string,
  outcome: { consecutiveFailures: number; lastCode: string | null; pauseAfter: number },
): Promise<{ paused: boolean; changed: boolean } | null> {
  const state = await describeRefreshSchedule(client, specId);
  if (!state) return null;
  const handle = client.schedule.getHandle(refreshScheduleId(specId));
  if (outcome.consecutiveFailures === 0) {
    if (state.paused && state.note?.startsWith(AUTO_PAUSE_NOTE_PREFIX)) {
      await handle.unpause('folio: resumed after a successful run');
      return { paused: false, changed: true };
    }
    return { paused: state.paused, changed: false };
  }
  if (outcome.pauseAfter > 0 && outcome.consecutiveFailures >= outcome.pauseAfter && !state.paused) {
    await handle.pause(`${AUTO_PAUSE_NOTE_PREFIX} ${outcome.consecutiveFailures} consecutive failures (last: ${outcome.lastCode ?? 'unknown'}); PUT the spec to retry`);
    return { paused: true, changed: true };
  }
  return { paused: state.paused, changed: false };
}
