import type { Client } from '@temporalio/client';
import type { Config } from '../config.js';
import { OpenApiSpecIdAttribute, OperationAttribute, OrganizationIdAttribute, workflowIds } from '../../workflows/definitions.js';
import type { ProcessOpenApiSpecInput, processOpenApiSpecWorkflow } from '../../workflows/openapi.js';
import type { OpenApiRepository, OpenApiSpecRecord } from './repository.js';
import { deleteRefreshSchedule, ensureRefreshSchedule } from './schedule.js';

/** Consecutive failed runs after which the refresh schedule is paused (with a note). */
export const PAUSE_SCHEDULE_AFTER_FAILURES = 3;

/** The processing activity's deadline: every fetch may take the fetch timeout, plus validation time. */
export function processTimeoutMs(config: Pick<Config, 'openapiFetchTimeoutMs'>): number {
  return Math.max(60_000, config.openapiFetchTimeoutMs * 4 + 30_000);
}

export function processInput(spec: OpenApiSpecRecord, config: Pick<Config, 'openapiFetchTimeoutMs'>, trigger: ProcessOpenApiSpecInput['trigger'], run?: number): ProcessOpenApiSpecInput {
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
 * for the result; callers read the outcome from the spec.
 */
export async function startOpenApiProcessing(
  deps: { client: Client; config: Pick<Config, 'openapiFetchTimeoutMs' | 'taskQueue'>; repo: OpenApiRepository },
  spec: OpenApiSpecRecord,
  trigger: ProcessOpenApiSpecInput['trigger'],
): Promise<{ spec: OpenApiSpecRecord; run: number; workflowId: string }> {
  const started = await deps.repo.startRun(spec.id);
  const workflowId = workflowIds.openapiProcess(spec.id, started.run);
  await deps.client.workflow.start<typeof processOpenApiSpecWorkflow>('processOpenApiSpecWorkflow', {
    workflowId,
    taskQueue: deps.config.taskQueue,
    args: [processInput(started.spec, deps.config, trigger, started.run)],
    typedSearchAttributes: [
      { key: OpenApiSpecIdAttribute, value: spec.id },
      { key: OrganizationIdAttribute, value: spec.organizationId },
      { key: OperationAttribute, value: 'openapi-process' },
    ],
    staticSummary: `Process OpenAPI spec ${spec.slug} (${spec.id}), run ${started.run}, ${trigger}`,
    workflowExecutionTimeout: '1 hour',
  });
  return { spec: started.spec, run: started.run, workflowId };
}

/** A URL spec has a refresh schedule, a text spec none. */
export async function syncRefreshSchedule(
  deps: { client: Client; config: Pick<Config, 'openapiFetchTimeoutMs' | 'taskQueue' | 'openapiRefreshInterval'> },
  spec: OpenApiSpecRecord,
): Promise<void> {
  if (spec.source.kind === 'url') {
    await ensureRefreshSchedule(deps.client, {
      specId: spec.id,
      organizationId: spec.organizationId,
      taskQueue: deps.config.taskQueue,
      every: deps.config.openapiRefreshInterval,
      input: processInput(spec, deps.config, 'schedule'),
    });
  } else {
    await deleteRefreshSchedule(deps.client, spec.id);
  }
}
