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
  type PublishSiteInput,
  type PublishTrigger,
  pdfExportWorkflowId,
  type PdfExportInput,
  type PdfExportWorkflow,
  publishWorkflowId,
  type PublishSiteWorkflow,
  type PurgeSpaceWorkflow,
  type RestoreSpaceSignalArgs,
  translationQueries,
  translationSignals,
  type TranslationProgress,
  type TranslationRunRequest,
  type TranslationRunsWorkflow,
  type TranslationRunView,
  type ApplyTemplateInput,
  type ApplyTemplateResult,
  type ApplyTemplateWorkflow,
  type SearchIndexInput,
  type SearchIndexWorkflow,
  searchIndexWorkflowId,
  type ContentImportInput,
  type ContentImportResult,
  type ContentImportWorkflow,
  subscriberOf,
  webhookSignals,
  webhookWorkflowIds,
  type WebhookSubscriberInput,
  type WebhookSubscriberWorkflow,
  type ChangeRequestMergeInput,
  type ChangeRequestMergeResult,
  type ChangeRequestMergeWorkflow,
  type DuplicateSpaceInput,
  type DuplicateSpaceResult,
  type DuplicateSpaceWorkflow,
} from '../contract/index.js';
import { runOptions } from './run-options.js';
import { WorkflowRunError } from './workflow-run-error.js';

/** Where workflows are started: the client and the task queue of Folio's workers. */
export interface WorkflowStarter {
  client: Client;
  taskQueue: string;
  /** FOLIO_GIT_RETRY_INITIAL_MS: put in each queued git request (`retryInitialIntervalMs`) when set. */
  gitRetryInitialMs?: number;
  /** FOLIO_GIT_HEARTBEAT_TIMEOUT_MS: put in each queued git request (`heartbeatTimeoutMs`) when set. */
  gitHeartbeatTimeoutMs?: number;
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
    signalArgs: [
      {
        ...request,
        ...(starter.gitRetryInitialMs !== undefined ? { retryInitialIntervalMs: starter.gitRetryInitialMs } : {}),
        ...(starter.gitHeartbeatTimeoutMs !== undefined ? { heartbeatTimeoutMs: starter.gitHeartbeatTimeoutMs } : {}),
      },
    ],
    ...runOptions({ spaceId, organizationId, operation: 'git-queue' }),
    staticSummary: `Git sync queue of space ${spaceId}: imports and exports one at a time, in timestamp order`,
  });
}

/**
 * How long a query of a git queue may take: a worker answers it, and when none does (the one that ran the workflow was
 * killed) the server alone waited 30 s and more, and `git/info` with it.
 */
export const GIT_QUEUE_QUERY_DEADLINE_MS = 10_000;

/** The state of the space's git queue; null when no queue workflow runs; fails when no worker answers within `deadlineMs`. */
export async function queryGitQueue(client: Client, spaceId: string, deadlineMs = GIT_QUEUE_QUERY_DEADLINE_MS): Promise<GitQueueView | null> {
  try {
    const handle = client.workflow.getHandle(workflowIds.gitQueue(spaceId));
    return await client.connection.withDeadline(Date.now() + deadlineMs, () => handle.query<GitQueueView>(gitQueries.queueState));
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
 * Requests run `run` of a translation from its queue workflow `translation/<id>/runs` (signal-with-start): it runs
 * when the one running (if any) has finished. The engine activities go to `engineTaskQueue`.
 */
export async function requestTranslationRun(
  starter: WorkflowStarter,
  input: { translationId: string; organizationId: string; sourceSpaceId: string; run: number; engineTaskQueue: string; engineHeartbeatTimeoutMs?: number },
): Promise<void> {
  const { translationId, organizationId, engineTaskQueue, engineHeartbeatTimeoutMs } = input;
  await starter.client.workflow.signalWithStart<TranslationRunsWorkflow, [TranslationRunRequest]>(workflowTypes.translationRuns, {
    workflowId: workflowIds.translationRuns(input.translationId),
    taskQueue: starter.taskQueue,
    args: [{ translationId, organizationId, engineTaskQueue, ...(engineHeartbeatTimeoutMs ? { engineHeartbeatTimeoutMs } : {}) }],
    signal: translationSignals.request,
    signalArgs: [{ run: input.run }],
    ...runOptions({ spaceId: input.sourceSpaceId, organizationId: input.organizationId, operation: 'translation-run' }),
    staticSummary: `Translation ${input.translationId} of space ${input.sourceSpaceId}: runs one at a time`,
  });
}

/** The live state of a translation's runs (null when its queue workflow is not running). */
export async function queryTranslationRuns(
  client: Client,
  translationId: string,
): Promise<{ view: TranslationRunView; progress: TranslationProgress | null } | null> {
  try {
    const handle = client.workflow.getHandle(workflowIds.translationRuns(translationId));
    const [view, progress] = await Promise.all([
      handle.query<TranslationRunView>(translationQueries.state),
      handle.query<TranslationProgress | null>(translationQueries.progress),
    ]);
    return { view, progress };
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return null;
    // A queue that just finished answers no query: nothing live to show.
    if (err instanceof Error && /not running|completed|QueryFailed|closed/i.test(err.message)) return null;
    throw err;
  }
}

/**
 * Runs `space/<id>/template/<key>` and waits for its result. The same request (same key) while one runs joins that
 * run; after it ended, a new run finds the revision already published (`alreadyApplied`). A typed failure of the
 * workflow (NOT_FOUND, VALIDATION, CONFLICT, …) is a WorkflowRunError with that code.
 */
export async function applyTemplate(starter: WorkflowStarter, input: ApplyTemplateInput): Promise<ApplyTemplateResult> {
  const workflowId = workflowIds.applyTemplate(input.spaceId, input.requestKey);
  try {
    try {
      return await starter.client.workflow.execute<ApplyTemplateWorkflow>(workflowTypes.applyTemplate, {
        workflowId,
        taskQueue: starter.taskQueue,
        args: [input],
        ...runOptions({ spaceId: input.spaceId, organizationId: input.organizationId, operation: 'apply-template' }),
        staticSummary: `Apply template ${input.templateId} to space ${input.spaceId}${input.changeRequestId ? ` (change request ${input.changeRequestId})` : ''}`,
        workflowExecutionTimeout: '30 minutes',
      });
    } catch (err) {
      if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
      return (await starter.client.workflow.getHandle(workflowId).result()) as ApplyTemplateResult;
    }
  } catch (err) {
    const cause = err instanceof WorkflowFailedError ? err.cause : undefined;
    if (cause instanceof ApplicationFailure && cause.type) throw new WorkflowRunError(cause.type, cause.message, err);
    throw err;
  }
}

/** Starts `org/<organizationId>/import/<runId>` for a run the caller created in the store; returns the workflow id. */
export async function startContentImport(starter: WorkflowStarter, input: ContentImportInput, summary: string): Promise<string> {
  const workflowId = workflowIds.contentImport(input.organizationId, input.runId);
  await starter.client.workflow.start<ContentImportWorkflow>(workflowTypes.contentImport, {
    workflowId,
    taskQueue: starter.taskQueue,
    args: [input],
    ...runOptions({ spaceId: input.spaceId, organizationId: input.organizationId, operation: 'content-import' }),
    staticSummary: summary,
    workflowExecutionTimeout: '12 hours',
  });
  return workflowId;
}

/**
 * Waits for the import run's workflow to close: its result, or the WorkflowRunError of its typed failure (a
 * cancelled run is `CANCELLED`).
 */
export async function waitForContentImport(client: Client, organizationId: string, runId: string): Promise<ContentImportResult> {
  try {
    return await client.workflow.getHandle<ContentImportWorkflow>(workflowIds.contentImport(organizationId, runId)).result();
  } catch (err) {
    const cause = err instanceof WorkflowFailedError ? err.cause : undefined;
    if (cause instanceof ApplicationFailure && cause.type) throw new WorkflowRunError(cause.type, cause.message, err);
    if (err instanceof WorkflowFailedError) throw new WorkflowRunError('CANCELLED', 'the import run was cancelled', err);
    throw err;
  }
}

/**
 * Starts `space/<id>/search-index/<revisionId>` after the space's primary revision changed outside a workflow
 * (a change-request merge); the same revision twice starts one run.
 */
export async function startSearchIndex(starter: WorkflowStarter, input: SearchIndexInput): Promise<void> {
  try {
    await starter.client.workflow.start<SearchIndexWorkflow>(workflowTypes.searchIndex, {
      workflowId: searchIndexWorkflowId(input.spaceId, input.revisionId),
      taskQueue: starter.taskQueue,
      args: [input],
      ...runOptions({ spaceId: input.spaceId, organizationId: input.organizationId, operation: 'search-index' }),
      staticSummary: `Search index of space ${input.spaceId} at revision ${input.revisionId}`,
      workflowIdConflictPolicy: 'USE_EXISTING',
    });
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
}

/** Asks the import run's workflow to cancel; false when no such run is open. */
export async function cancelContentImport(client: Client, organizationId: string, runId: string): Promise<boolean> {
  try {
    await client.workflow.getHandle(workflowIds.contentImport(organizationId, runId)).cancel();
    return true;
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return false;
    throw err;
  }
}

/**
 * Asks for a publish run of the site: signals-with-start `site/<siteId>/publish`, so one run per site goes at a
 * time and requests made during a run are coalesced into one more run.
 */
export async function requestSitePublish(starter: WorkflowStarter, input: PublishSiteInput): Promise<string> {
  const workflowId = publishWorkflowId(input.siteId);
  await starter.client.workflow.signalWithStart<PublishSiteWorkflow, [PublishTrigger]>(workflowTypes.publishSite, {
    workflowId,
    taskQueue: starter.taskQueue,
    args: [input],
    signal: publishSignals.request,
    signalArgs: [input.trigger ?? { kind: 'request' }],
    ...runOptions({ organizationId: input.organizationId, operation: 'site-publish' }),
    staticSummary: `Publish site ${input.siteId} of ${input.organizationId}`,
  });
  return workflowId;
}

/**
 * Starts (or wakes) the webhook subscriber of an installation, `integration/<name>/installation/<id>`:
 * signals-with-start it, so there is one per installation and a running one looks for new events at once.
 */
export async function startWebhookSubscriber(starter: WorkflowStarter, input: WebhookSubscriberInput): Promise<string> {
  const workflowId = webhookWorkflowIds.subscriber(input.integrationName, input.installationId);
  await starter.client.workflow.signalWithStart<WebhookSubscriberWorkflow, []>(workflowTypes.webhookSubscriber, {
    workflowId,
    taskQueue: starter.taskQueue,
    args: [input],
    signal: webhookSignals.nudge,
    signalArgs: [],
    ...runOptions({
      organizationId: input.organizationId,
      operation: 'webhook-subscriber',
      subscriber: subscriberOf(input.integrationName, input.installationId),
    }),
    staticSummary: `Webhook deliveries of ${input.integrationName} to installation ${input.installationId} (organization ${input.organizationId})`,
  });
  return workflowId;
}

/**
 * Starts the print run of a PDF export, `space/<spaceId>/pdf/<exportId>/<attempt>`: once per attempt (a run of that
 * id, running or closed, is never started again; a failed export is printed again as its next attempt).
 */
export async function startPdfExport(starter: WorkflowStarter, input: PdfExportInput): Promise<string> {
  const workflowId = pdfExportWorkflowId(input.spaceId, input.exportId, input.attempt);
  try {
    await starter.client.workflow.start<PdfExportWorkflow>(workflowTypes.pdfExport, {
      workflowId,
      taskQueue: starter.taskQueue,
      args: [input],
      ...runOptions({ spaceId: input.spaceId, organizationId: input.organizationId, operation: 'pdf-export' }),
      staticSummary: `PDF export ${input.exportId} of space ${input.spaceId} (attempt ${input.attempt})`,
      workflowIdConflictPolicy: 'USE_EXISTING',
      workflowIdReusePolicy: 'REJECT_DUPLICATE',
    });
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
  }
  return workflowId;
}

/**
 * Runs `space/<id>/change-request/<crId>/<update|merge>` and waits for its result; a second request while one runs
 * joins it. A typed failure (CONFLICT with the conflicting pages and blocks, NOT_FOUND, VALIDATION, …) is a
 * WorkflowRunError with that code and the failure's details as its data.
 */
export async function runChangeRequestMerge(starter: WorkflowStarter, input: ChangeRequestMergeInput): Promise<ChangeRequestMergeResult> {
  const workflowId = workflowIds.changeRequestMerge(input.spaceId, input.changeRequestId, input.operation);
  try {
    try {
      return await starter.client.workflow.execute<ChangeRequestMergeWorkflow>(workflowTypes.changeRequestMerge, {
        workflowId,
        taskQueue: starter.taskQueue,
        args: [input],
        ...runOptions({ spaceId: input.spaceId, organizationId: input.organizationId, operation: `change-request-${input.operation}` }),
        staticSummary: `${input.operation === 'merge' ? 'Merge' : 'Update'} change request ${input.changeRequestId} of space ${input.spaceId}`,
        workflowExecutionTimeout: '30 minutes',
        workflowIdReusePolicy: 'ALLOW_DUPLICATE',
      });
    } catch (err) {
      if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
      return (await starter.client.workflow.getHandle(workflowId).result()) as ChangeRequestMergeResult;
    }
  } catch (err) {
    const cause = err instanceof WorkflowFailedError ? err.cause : undefined;
    if (cause instanceof ApplicationFailure && cause.type) {
      const data = cause.details?.[0];
      throw new WorkflowRunError(cause.type, cause.message, err, data && typeof data === 'object' ? (data as Record<string, unknown>) : {});
    }
    throw err;
  }
}

/** Runs `space/<sourceId>/duplicate/<newId>` and waits for the copy; a typed failure is a WorkflowRunError with its code. */
export async function duplicateSpace(starter: WorkflowStarter, input: DuplicateSpaceInput): Promise<DuplicateSpaceResult> {
  try {
    return await starter.client.workflow.execute<DuplicateSpaceWorkflow>(workflowTypes.duplicateSpace, {
      workflowId: workflowIds.duplicateSpace(input.sourceSpaceId, input.space.spaceId),
      taskQueue: starter.taskQueue,
      args: [input],
      ...runOptions({ spaceId: input.space.spaceId, organizationId: input.organizationId, operation: 'duplicate-space' }),
      staticSummary: `Duplicate space ${input.sourceSpaceId} as ${input.space.spaceId}`,
      workflowExecutionTimeout: '1 hour',
    });
  } catch (err) {
    const cause = err instanceof WorkflowFailedError ? err.cause : undefined;
    const failure = cause && 'cause' in cause && cause.cause instanceof ApplicationFailure ? cause.cause : cause;
    if (failure instanceof ApplicationFailure && failure.type) throw new WorkflowRunError(failure.type, failure.message, err);
    throw err;
  }
}
