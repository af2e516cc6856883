import { ActivityFailure, ApplicationFailure, ParentClosePolicy, executeChild, log, proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import {
  OPENAPI_PROCESS_CODES,
  searchAttributes,
  workflowIds,
  type OpenApiFailureDetails,
  type OpenApiProcessCode,
  type ProcessOpenApiSpecInput,
  type ProcessOpenApiSpecResult,
  type RefreshOpenApiSpecInput,
} from '../src/temporal/contract/index.js';
import { classifyFailure } from './failure.js';

const small = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds', maximumAttempts: 10, nonRetryableErrorTypes: ['NOT_FOUND'] },
});

function isNotFound(err: unknown): boolean {
  return err instanceof ActivityFailure && err.cause instanceof ApplicationFailure && err.cause.type === 'NOT_FOUND';
}

/** The spec's `lastProcessErrorCode` and errors for a failed processing activity. */
function failureOf(err: unknown, timeoutMs: number): { code: OpenApiProcessCode } & OpenApiFailureDetails {
  const f = classifyFailure(err);
  if (f.kind === 'application' && f.type && (OPENAPI_PROCESS_CODES as readonly string[]).includes(f.type)) {
    const details = f.details?.[0] as OpenApiFailureDetails | undefined;
    return {
      code: f.type as OpenApiProcessCode,
      errors: details?.errors ?? [{ location: '', message: f.message }],
      errorCount: details?.errorCount ?? 1,
    };
  }
  if (f.kind === 'timeout') {
    return { code: 'FETCH_TIMEOUT', errors: [{ location: '', message: `processing did not finish within ${Math.round(timeoutMs / 1000)} s` }], errorCount: 1 };
  }
  // Anything else (the store or the worker failing) still ends the run; FETCH_ERROR is the closest code.
  const message = f.kind === 'application' ? f.message : f.causeMessage;
  return { code: 'FETCH_ERROR', errors: [{ location: '', message: `processing failed: ${message}` }], errorCount: 1 };
}

/**
 * `openapi/<specId>/process/<n>`: fetches and validates the spec, stores a new version when its content
 * changed (all inside one activity: no content travels through Temporal), and records the outcome:
 * `pending` → `progress` → `complete`, with `lastProcessErrorCode` set from the typed failure (or an activity
 * timeout) and the last good version kept. Then pauses (or resumes) the refresh schedule. A failed run, once its
 * state is recorded, fails: a non-retryable ApplicationFailure typed with the code (FETCH_TIMEOUT, FETCH_ERROR,
 * PARSE_ERROR, SPEC_TOO_COMPLEX), the cause in its message, the run's result (`outcome: 'failed'`) in its details.
 */
export async function processOpenApiSpecWorkflow(input: ProcessOpenApiSpecInput): Promise<ProcessOpenApiSpecResult> {
  if (!input?.specId) throw ApplicationFailure.nonRetryable('specId is required', 'BAD_INPUT');
  const timeoutMs = Math.max(1_000, Number(input.processTimeoutMs) || 120_000);
  const { openapiProcess } = proxyActivities<Activities>({
    startToCloseTimeout: timeoutMs,
    // The activity beats every 2 s: a worker that dies mid-run is noticed in 10 s, not after the whole timeout.
    heartbeatTimeout: '10 seconds',
    retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumAttempts: 2, nonRetryableErrorTypes: ['PARSE_ERROR', 'SPEC_TOO_COMPLEX', 'NOT_FOUND'] },
  });

  const run = input.run;
  if (run === undefined) return await processNextRun(input);

  try {
    const done = await openapiProcess({ specId: input.specId, run });
    const schedule = await small.openapiUpdateSchedule({
      specId: input.specId,
      consecutiveFailures: 0,
      lastCode: null,
      pauseAfter: input.pauseScheduleAfterFailures,
    });
    return { outcome: 'processed', run, versionId: done.versionId, versionCreated: done.created, schedulePaused: schedule?.paused ?? false };
  } catch (err) {
    if (isNotFound(err)) return { outcome: 'gone', run };
    const failure = failureOf(err, timeoutMs);
    log.info('OpenAPI processing failed', { specId: input.specId, run, code: failure.code });
    let recorded;
    try {
      recorded = await small.openapiRecordFailure({ specId: input.specId, run, ...failure });
    } catch (recordErr) {
      if (isNotFound(recordErr)) return { outcome: 'gone', run };
      throw recordErr;
    }
    const schedule = await small.openapiUpdateSchedule({
      specId: input.specId,
      consecutiveFailures: recorded.consecutiveFailures,
      lastCode: failure.code,
      pauseAfter: input.pauseScheduleAfterFailures,
    });
    // The spec's failed state is recorded (and shown by the API): the run itself fails too, typed and not retried,
    // its cause in the message, so that a failed run is failed in Temporal as well.
    const result: ProcessOpenApiSpecResult = { outcome: 'failed', run, code: failure.code, schedulePaused: schedule?.paused ?? false };
    throw ApplicationFailure.create({
      type: failure.code,
      message: `${failure.code}: ${failure.errors[0]?.message ?? 'processing failed'}${failure.errorCount > 1 ? ` (and ${failure.errorCount - 1} more)` : ''}`,
      nonRetryable: true,
      details: [result],
    });
  }
}

/**
 * Numbers the next run of the spec in the store (state `pending`) and runs `openapi/<specId>/process/<n>` as
 * a child, waiting for it so that the schedule's overlap policy covers the whole run. A spec deleted in the
 * meantime ends as `gone`, and its leftover refresh schedule is removed.
 */
async function processNextRun(input: RefreshOpenApiSpecInput): Promise<ProcessOpenApiSpecResult> {
  let run: number;
  try {
    run = (await small.openapiStartRun({ specId: input.specId })).run;
  } catch (err) {
    if (!isNotFound(err)) throw err;
    await small.openapiDeleteSchedule({ specId: input.specId });
    return { outcome: 'gone' };
  }
  const childInput: ProcessOpenApiSpecInput = {
    specId: input.specId,
    organizationId: input.organizationId,
    run,
    trigger: 'schedule',
    processTimeoutMs: input.processTimeoutMs,
    pauseScheduleAfterFailures: input.pauseScheduleAfterFailures,
  };
  return await executeChild(processOpenApiSpecWorkflow, {
    workflowId: workflowIds.openapiProcess(input.specId, run),
    args: [childInput],
    parentClosePolicy: ParentClosePolicy.ABANDON,
    typedSearchAttributes: searchAttributes({ specId: input.specId, organizationId: input.organizationId, operation: 'openapi-process' }),
    staticSummary: `Process OpenAPI spec ${input.specId}, run ${run}, schedule`,
    workflowExecutionTimeout: '1 hour',
  });
}

/**
 * Started by the spec's refresh schedule (`openapi/<specId>/refresh`): numbers the next run and processes
 * the spec as `openapi/<specId>/process/<n>`, exactly like a run started by the API. The processing run
 * pauses the schedule with a note after repeated failures.
 */
export async function refreshOpenApiSpecWorkflow(input: RefreshOpenApiSpecInput): Promise<ProcessOpenApiSpecResult> {
  if (!input?.specId) throw ApplicationFailure.nonRetryable('specId is required', 'BAD_INPUT');
  return await processNextRun(input);
}
