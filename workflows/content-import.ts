/**
 * `org/<organizationId>/import/<runId>`: one content import run. Marks the run `in-progress`, crawls the site (one
 * long activity, heartbeating, checkpointed URL by URL in the store, so a retry after a dead worker fetches only what
 * is not done), builds the revision and applies it to the target (a second activity, idempotent by the run's key),
 * and records the outcome: `completed`, `failed` with the typed reason, or `cancelled` (the space unchanged).
 */
import { ApplicationFailure, CancellationScope, isCancellation, proxyActivities, setCurrentDetails, upsertMemo } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import { NON_RETRYABLE_IMPORT_ERRORS, type ContentImportInput, type ContentImportResult } from '../src/temporal/contract/index.js';
import { contentImportProgressQuery, contentImportProgressSignal } from './content-import-definitions.js';
import { classifyFailure } from './failure.js';
import { trackProgress } from './progress.js';
import { startSearchIndexChild } from './search-index-start.js';

const bookkeeping = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds', maximumAttempts: 10, nonRetryableErrorTypes: ['NOT_FOUND'] },
});

const heavyOptions = {
  startToCloseTimeout: '6 hours',
  heartbeatTimeout: '20 seconds',
  retry: {
    initialInterval: '2 seconds',
    backoffCoefficient: 2,
    maximumInterval: '1 minute',
    maximumAttempts: 8,
    nonRetryableErrorTypes: [...NON_RETRYABLE_IMPORT_ERRORS],
  },
} as const;

/** The crawl and build activities, with the input's heartbeat timeout and first retry interval when it sets them (tests that kill workers). */
function heavyFor(input: ContentImportInput) {
  return proxyActivities<Activities>({
    ...heavyOptions,
    heartbeatTimeout: input.heartbeatTimeoutMs ?? heavyOptions.heartbeatTimeout,
    retry: {
      ...heavyOptions.retry,
      nonRetryableErrorTypes: [...heavyOptions.retry.nonRetryableErrorTypes],
      initialInterval: input.retryInitialIntervalMs ?? heavyOptions.retry.initialInterval,
    },
  });
}

function failureOf(err: unknown): { code: string; reason: string } {
  const f = classifyFailure(err);
  if (f.kind === 'application') return { code: f.type ?? 'ERROR', reason: f.message };
  if (f.kind === 'timeout') return { code: 'TIMEOUT', reason: `the import timed out (${f.timeoutType})` };
  if (f.kind === 'cancelled') return { code: 'CANCELLED', reason: 'the import was cancelled' };
  return { code: 'ERROR', reason: f.causeMessage };
}

export async function contentImportWorkflow(input: ContentImportInput): Promise<ContentImportResult> {
  if (!input?.runId) throw ApplicationFailure.nonRetryable('runId is required', 'BAD_INPUT');
  const progress = trackProgress(contentImportProgressSignal, contentImportProgressQuery);
  const heavy = heavyFor(input);
  setCurrentDetails(`**pending** import run ${input.runId}`);
  const counts = () => ({
    importedResources: progress.current?.importedResources ?? 0,
    totalResources: progress.current?.totalResources ?? 0,
  });
  try {
    await bookkeeping.importMarkStarted({ runId: input.runId, organizationId: input.organizationId });
    const crawl = await heavy.importCrawl({ runId: input.runId, organizationId: input.organizationId });
    setCurrentDetails(`**converting** ${crawl.pages} pages, ${crawl.assets} files`);
    const built = await heavy.importBuild({ runId: input.runId, organizationId: input.organizationId });
    const result: ContentImportResult = {
      outcome: 'completed',
      revisionId: built.revisionId,
      importedResources: built.importedResources,
      totalResources: built.totalResources,
    };
    await bookkeeping.importFinish({ runId: input.runId, organizationId: input.organizationId, status: 'completed', ...result });
    upsertMemo({ outcome: 'completed', revisionId: built.revisionId });
    // The search index follows the new content (it writes only a space's primary revision; a detached run).
    await startSearchIndexChild({ spaceId: input.spaceId, organizationId: input.organizationId, revisionId: built.revisionId });
    setCurrentDetails(
      `**completed**: ${built.pages} pages, ${built.files} files, revision ${built.revisionId}${built.warnings ? ` · ${built.warnings} warnings` : ''}`,
    );
    return result;
  } catch (err) {
    if (isCancellation(err)) {
      await CancellationScope.nonCancellable(() =>
        bookkeeping.importFinish({ runId: input.runId, organizationId: input.organizationId, status: 'cancelled', ...counts() }),
      );
      upsertMemo({ outcome: 'cancelled' });
      setCurrentDetails('**cancelled**: the space is unchanged');
      throw err;
    }
    const { code, reason } = failureOf(err);
    await CancellationScope.nonCancellable(() =>
      bookkeeping.importFinish({ runId: input.runId, organizationId: input.organizationId, status: 'failed', code, reason, ...counts() }),
    );
    upsertMemo({ outcome: 'failed', errorCode: code });
    setCurrentDetails(`**failed**: ${code}: ${reason}`);
    throw ApplicationFailure.create({ type: code, message: reason, nonRetryable: true });
  }
}
