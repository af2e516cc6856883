import { FolioError } from '../../errors.js';
import type { Config } from '../../config/config.js';
import type { TemporalClient } from './client.js';
import type { ProcessOpenApiSpecInput, RefreshOpenApiSpecInput } from '../contract/index.js';
import { deleteRefreshSchedule, ensureRefreshSchedule } from './openapi-schedule.js';
import { startOpenApiProcessing as startProcessingWorkflow } from './start.js';
import type { OpenApiSpecRecord, OpenApiStore } from '../../store/index.js';

/**
 * The workflow service (Temporal) refused or did not answer a call that starts or schedules processing.
 * The API answers 503: the request can be retried as is.
 */
export class WorkflowServiceUnavailableError extends FolioError {
  constructor(what: string, cause: unknown) {
    super('UNAVAILABLE', `the workflow service is unavailable (${what}); retry the request`, { cause, retryable: true });
  }
}

async function viaWorkflowService<T>(what: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw new WorkflowServiceUnavailableError(what, err);
  }
}

/** Consecutive failed runs after which the refresh schedule is paused (with a note). */
export const PAUSE_SCHEDULE_AFTER_FAILURES = 3;

/** The processing activity's deadline: every fetch may take the fetch timeout, plus validation time. */
export function processTimeoutMs(config: Pick<Config, 'openapiFetchTimeoutMs'>): number {
  return Math.max(60_000, config.openapiFetchTimeoutMs * 4 + 30_000);
}

/** The arguments of the spec's scheduled refreshes (each numbers its own run). */
export function refreshInput(spec: OpenApiSpecRecord, config: Pick<Config, 'openapiFetchTimeoutMs'>): RefreshOpenApiSpecInput {
  return {
    specId: spec.id,
    organizationId: spec.organizationId,
    processTimeoutMs: processTimeoutMs(config),
    pauseScheduleAfterFailures: PAUSE_SCHEDULE_AFTER_FAILURES,
  };
}

export function processInput(
  spec: OpenApiSpecRecord,
  config: Pick<Config, 'openapiFetchTimeoutMs'>,
  trigger: ProcessOpenApiSpecInput['trigger'],
  run?: number,
): ProcessOpenApiSpecInput {
  return {
    specId: spec.id,
    organizationId: spec.organizationId,
    ...(run !== undefined ? { run } : {}),
    trigger,
    processTimeoutMs: processTimeoutMs(config),
    pauseScheduleAfterFailures: PAUSE_SCHEDULE_AFTER_FAILURES,
  };
}

/**
 * Numbers a new run (state `pending`) and starts `openapi/<specId>/process/<run>`. Returns without waiting
 * for the result; callers read the outcome from the spec. When the workflow service does not take the run,
 * the run is abandoned (the spec does not stay `pending` for a run that never comes) and
 * WorkflowServiceUnavailableError is thrown.
 */
export async function startOpenApiProcessing(
  deps: { client: TemporalClient; config: Pick<Config, 'openapiFetchTimeoutMs' | 'taskQueue'>; repo: OpenApiStore },
  spec: OpenApiSpecRecord,
  trigger: ProcessOpenApiSpecInput['trigger'],
): Promise<{ spec: OpenApiSpecRecord; run: number; workflowId: string }> {
  const started = await deps.repo.startRun(spec.id);
  let workflowId: string;
  try {
    workflowId = await viaWorkflowService('starting the processing workflow', () =>
      startProcessingWorkflow(
        { client: deps.client, taskQueue: deps.config.taskQueue },
        { ...processInput(started.spec, deps.config, trigger), run: started.run },
        `Process OpenAPI spec ${spec.slug} (${spec.id}), run ${started.run}, ${trigger}`,
      ),
    );
  } catch (err) {
    await deps.repo.abandonRun(spec.id, started.run);
    throw err;
  }
  return { spec: started.spec, run: started.run, workflowId };
}

/** A URL spec has a refresh schedule, a text spec none. WorkflowServiceUnavailableError when Temporal fails. */
export async function syncRefreshSchedule(
  deps: { client: TemporalClient; config: Pick<Config, 'openapiFetchTimeoutMs' | 'taskQueue' | 'openapiRefreshInterval'> },
  spec: OpenApiSpecRecord,
): Promise<void> {
  if (spec.source.kind === 'url') {
    await viaWorkflowService('scheduling the refresh', () =>
      ensureRefreshSchedule(deps.client, {
        specId: spec.id,
        organizationId: spec.organizationId,
        taskQueue: deps.config.taskQueue,
        every: deps.config.openapiRefreshInterval,
        input: refreshInput(spec, deps.config),
      }),
    );
  } else {
    await viaWorkflowService('removing the refresh schedule', () => deleteRefreshSchedule(deps.client, spec.id));
  }
}
