import {
  ScheduleAlreadyRunning,
  ScheduleNotFoundError,
  ScheduleOverlapPolicy,
  type Client,
  type ScheduleDescription,
  type ScheduleOptionsStartWorkflowAction,
} from '@temporalio/client';
import { parseRefreshInterval } from '../../refresh-interval.js';
import { refreshScheduleId, refreshWorkflowId, workflowTypes, type RefreshOpenApiSpecInput, type RefreshOpenApiSpecWorkflow } from '../contract/index.js';
import { runOptions } from './run-options.js';

/** Note left on a refresh schedule paused by Folio; only such a pause is lifted automatically by a success. */
export const AUTO_PAUSE_NOTE_PREFIX = 'folio: paused after';

export interface RefreshScheduleOptions {
  specId: string;
  organizationId: string;
  taskQueue: string;
  /** Interval such as `6h` (OPENAPI_REFRESH_INTERVAL). */
  every: string;
  input: RefreshOpenApiSpecInput;
}

function refreshAction(options: RefreshScheduleOptions): ScheduleOptionsStartWorkflowAction<RefreshOpenApiSpecWorkflow> {
  return {
    type: 'startWorkflow',
    workflowType: workflowTypes.refreshOpenApiSpec,
    workflowId: refreshWorkflowId(options.specId),
    taskQueue: options.taskQueue,
    args: [options.input],
    ...runOptions({ specId: options.specId, organizationId: options.organizationId, operation: 'openapi-refresh' }),
    staticSummary: `Refresh OpenAPI spec ${options.specId}`,
  };
}

/** JSON with sorted keys: compares decoded workflow arguments regardless of key order. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

/** Whether an existing schedule already does what `options` asks: same interval, workflow, queue and arguments. */
function scheduleMatches(d: ScheduleDescription, options: RefreshScheduleOptions, everyMs: number): boolean {
  const intervals = d.spec.intervals ?? [];
  const a = d.action;
  return (
    intervals.length === 1 &&
    intervals[0]!.every === everyMs &&
    (d.spec.calendars ?? []).length === 0 &&
    a.type === 'startWorkflow' &&
    a.workflowType === workflowTypes.refreshOpenApiSpec &&
    a.workflowId === refreshWorkflowId(options.specId) &&
    a.taskQueue === options.taskQueue &&
    canonical(a.args) === canonical([options.input])
  );
}

/**
 * Makes sure the schedule that re-processes a URL spec every `every` exists and matches the configuration:
 * created when missing, updated (interval, workflow, arguments) when it differs, left alone otherwise. An
 * update keeps the schedule's pause state and note.
 */
export async function ensureRefreshSchedule(client: Client, options: RefreshScheduleOptions): Promise<'created' | 'updated' | 'unchanged'> {
  const everyMs = parseRefreshInterval(options.every);
  try {
    await client.schedule.create({
      scheduleId: refreshScheduleId(options.specId),
      spec: { intervals: [{ every: everyMs }] },
      action: refreshAction(options),
      policies: { overlap: ScheduleOverlapPolicy.SKIP, catchupWindow: '1 minute' },
      state: { note: `refresh of OpenAPI spec ${options.specId} every ${options.every}` },
    });
    return 'created';
  } catch (err) {
    if (!(err instanceof ScheduleAlreadyRunning)) throw err;
  }
  const handle = client.schedule.getHandle(refreshScheduleId(options.specId));
  if (scheduleMatches(await handle.describe(), options, everyMs)) return 'unchanged';
  await handle.update<RefreshOpenApiSpecWorkflow>((previous) => ({
    ...previous,
    spec: { intervals: [{ every: everyMs }] },
    action: refreshAction(options),
  }));
  return 'updated';
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
    await handle.pause(
      `${AUTO_PAUSE_NOTE_PREFIX} ${outcome.consecutiveFailures} consecutive failures (last: ${outcome.lastCode ?? 'unknown'}); PUT the spec to retry`,
    );
    return { paused: true, changed: true };
  }
  return { paused: state.paused, changed: false };
}
