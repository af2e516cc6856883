/**
 * The one place that starts, signals and queries Folio's workflows. Callers (the API, OpenAPI processing)
 * pass contract types; this module owns the Temporal calls, the workflow ids, the task queue, the search
 * attributes and memo (`runOptions`) and the translation of Temporal's errors.
 */
import { ApplicationFailure } from '@temporalio/common';
import { WorkflowExecutionAlreadyStartedError, WorkflowFailedError, WorkflowNotFoundError, type Client } from '@temporalio/client';
import {
  initialGitQueueState,
  gitQueries,
  gitSignals,
  purgeQueries,
  purgeSignals,
  workflowIds,
  workflowTypes,
  type CreateSpaceInput,
  type CreateSpaceResult,
  type CreateSpaceWorkflow,
  type GitEnqueueRequest,
  type GitQueueView,
  type GitQueueWorkflow,
  type GitSyncRequest,
  type ProcessOpenApiSpecInput,
  type ProcessOpenApiSpecWorkflow,
  publishSignals,
  publishWorkflowId,
  type PublishSiteWorkflow,
  type PurgeSpaceWorkflow,
  type RestoreSpaceSignalArgs,
} from './contract/index.js';
import { runOptions } from './run-options.js';
import { WorkflowRunError } from './workflow-run-error.js';

/** Where workflows are started: the client and the task queue of Folio's workers. */
export interface WorkflowStarter {
  client: Client;
  taskQueue: string;
}

/**
 * Runs `space/<id>/create` and waits for its result. A typed failure of the workflow (`NOT_FOUND`,
 * `CONFLICT`, …) is a WorkflowRunError with that code; anything else is thrown as it came.
 */
export async function createSpace(starter: WorkflowStarter, input: CreateSpaceInput): Promise<CreateSpaceResult> {
  try {
    return await starter.client.workflow.execute<CreateSpaceWorkflow>(workflowTypes.createSpace, {
      workflowId: workflowIds.createSpace(input.spaceId),
      taskQueue: starter.taskQueue,
      args: [input],
      ...runOptions({ spaceId: input.spaceId, organizationId: input.organizationId, operation: 'create-space' }),
      staticSummary: `Create space ${input.spaceId} in ${input.organizationId}`,
      workflowExecutionTimeout: '2 minutes',
    });
  } catch (err) {
    const cause = err instanceof WorkflowFailedError ? err.cause : undefined;
    if (cause instanceof ApplicationFailure && cause.type) throw new WorkflowRunError(cause.type, cause.message, err);
    throw err;
  }
}

/** Queues a git request on the space's queue workflow `space/<id>/git` (signal-with-start). */
export async function enqueueGitRequest(starter: WorkflowStarter, { spaceId, organizationId, request }: GitEnqueueRequest): Promise<void> {
  await starter.client.workflow.signalWithStart<GitQueueWorkflow, [GitSyncRequest]>(workflowTypes.gitQueue, {
    workflowId: workflowIds.gitQueue(spaceId),
    taskQueue: starter.taskQueue,
    args: [initialGitQueueState(spaceId, organizationId)],
    signal: gitSignals.enqueue,
    signalArgs: [request],
    ...runOptions({ spaceId, organizationId, operation: 'git-queue' }),
    staticSummary: `Git sync queue of space ${spaceId}: imports and exports one at a time, in timestamp order`,
  });
}

/** The state of the space's git queue; null when no queue workflow runs. */
export async function queryGitQueue(client: Client, spaceId: string): Promise<GitQueueView | null> {
  try {
    return await client.workflow.getHandle(workflowIds.gitQueue(spaceId)).query<GitQueueView>(gitQueries.queueState);
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return null;
    throw err;
  }
}

/**
 * Starts `space/<id>/purge` for a deletion. The same deletion twice is a no-op; a run left over from an
 * earlier deletion (restored, still closing) is terminated and replaced.
 */
export async function startPurge(
  starter: WorkflowStarter,
  space: { id: string; organizationId: string },
  deletionId: string,
  purgeAfterMs: number,
): Promise<void> {
  const workflowId = workflowIds.purge(space.id);
  const start = () =>
    starter.client.workflow.start<PurgeSpaceWorkflow>(workflowTypes.purgeSpace, {
      workflowId,
      taskQueue: starter.taskQueue,
      args: [{ spaceId: space.id, deletionId, purgeAfterMs }],
      ...runOptions({ spaceId: space.id, organizationId: space.organizationId, operation: 'purge-space' }),
      staticSummary: `Purge space ${space.id} ${Math.round(purgeAfterMs / 1000)} s after its deletion unless restored`,
      workflowIdConflictPolicy: 'FAIL',
    });
  try {
    await start();
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
    const handle = starter.client.workflow.getHandle(workflowId);
    const running = await handle.query<string>(purgeQueries.deletionId).catch(() => undefined);
    if (running === deletionId) return;
    await handle.terminate(`superseded by deletion ${deletionId}`).catch((e: unknown) => {
      if (!(e instanceof WorkflowNotFoundError)) throw e;
    });
    await start();
  }
}

/** Tells the purge workflow its deletion was undone; nothing to do when it is not running. */
export async function signalRestore(client: Client, spaceId: string, deletionId: string): Promise<void> {
  try {
    await client.workflow.getHandle(workflowIds.purge(spaceId)).signal<[RestoreSpaceSignalArgs]>(purgeSignals.restore, { deletionId });
  } catch (err) {
    if (!(err instanceof WorkflowNotFoundError)) throw err;
  }
}

/** Starts `openapi/<specId>/process/<run>` for a run the caller numbered; returns the workflow id without waiting. */
export async function startOpenApiProcessing(starter: WorkflowStarter, input: ProcessOpenApiSpecInput & { run: number }, summary: string): Promise<string> {
  const workflowId = workflowIds.openapiProcess(input.specId, input.run);
  await starter.client.workflow.start<ProcessOpenApiSpecWorkflow>(workflowTypes.processOpenApiSpec, {
    workflowId,
    taskQueue: starter.taskQueue,
    args: [input],
    ...runOptions({ specId: input.specId, organizationId: input.organizationId, operation: 'openapi-process' }),
    staticSummary: summary,
    workflowExecutionTimeout: '1 hour',
  });
  return workflowId;
}

/**
 * Asks for a publish run of the site: signals-with-start `site/<siteId>/publish`, so one run per site goes at a
 * time and requests made during a run are coalesced into one more run.
 */
export async function requestSitePublish(starter: WorkflowStarter, input: { organizationId: string; siteId: string }): Promise<string> {
  const workflowId = publishWorkflowId(input.siteId);
  await starter.client.workflow.signalWithStart<PublishSiteWorkflow, []>(workflowTypes.publishSite, {
    workflowId,
    taskQueue: starter.taskQueue,
    args: [input],
    signal: publishSignals.request,
    signalArgs: [],
    ...runOptions({ organizationId: input.organizationId, operation: 'site-publish' }),
    staticSummary: `Publish site ${input.siteId} of ${input.organizationId}`,
  });
  return workflowId;
}
