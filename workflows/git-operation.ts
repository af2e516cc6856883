/**
 * The shape shared by the import and export child workflows: mark the operation running in the store,
 * run the long activity (heartbeating, cancellable, network errors retried with backoff), record the
 * outcome (`success` / `failure` / `timeout`) and fail the run with the activity's typed error.
 */
import { ApplicationFailure, CancellationScope, isCancellation, patched, proxyActivities, proxyLocalActivities, upsertMemo } from '@temporalio/workflow';
import { setCurrentDetails } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import { NON_RETRYABLE_GIT_ERRORS, type GitOperationResult, type GitSyncRequest, type GitWarningReport } from '../src/temporal/contract/index.js';
import { classifyFailure } from './failure.js';
import { gitProgressQuery, gitProgressSignal } from './git-definitions.js';
import { trackProgress } from './progress.js';
import { startSearchIndexChild } from './search-index-start.js';

const bookkeepingOptions = {
  startToCloseTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds', maximumAttempts: 10 },
} as const;
const remoteBookkeeping = proxyActivities<Activities>(bookkeepingOptions);
/**
 * The two short store updates around the operation run as local activities: in the worker that runs the workflow
 * task, recorded as markers, with no activity task to dispatch and no workflow task of their own (a tiny import or
 * a no-op saved two round trips through the server each). Runs started before this change keep the activities they
 * recorded (`patched`).
 */
const localBookkeeping = proxyLocalActivities<Activities>(bookkeepingOptions);
const LOCAL_BOOKKEEPING_PATCH = 'git-bookkeeping-local-activities';

const heavy = proxyActivities<Activities>({
  startToCloseTimeout: '60 minutes',
  heartbeatTimeout: '60 seconds',
  retry: {
    initialInterval: '2 seconds',
    backoffCoefficient: 2,
    maximumInterval: '1 minute',
    maximumAttempts: 6,
    nonRetryableErrorTypes: [...NON_RETRYABLE_GIT_ERRORS],
  },
});

/** The warnings of a finished operation as Markdown for the run's current details (Temporal UI). */
function describeWarnings(report: GitWarningReport | undefined): string {
  if (!report || report.total === 0) return '';
  const counts = Object.entries(report.counts)
    .map(([code, n]) => `${code} ×${n}`)
    .join(', ');
  const lines = report.warnings.map((w) => `- ${w.severity === 'error' ? '**' + w.code + '**' : w.code}${w.path ? ` \`${w.path}\`` : ''}: ${w.message}`);
  const more = report.total > report.warnings.length ? [`- … ${report.total - report.warnings.length} more`] : [];
  return `\n\n**${report.total} warning${report.total === 1 ? '' : 's'}**: ${counts}\n${[...lines, ...more].join('\n')}`;
}

export async function runGitOperation(request: GitSyncRequest, work: 'gitImportActivity' | 'gitExportActivity'): Promise<GitOperationResult> {
  trackProgress(gitProgressSignal, gitProgressQuery);
  setCurrentDetails(`**queued** ${request.direction} ${request.ref}`);

  const bookkeeping = patched(LOCAL_BOOKKEEPING_PATCH) ? localBookkeeping : remoteBookkeeping;
  const started = await bookkeeping.gitBeginOperation(request);
  if (started.stale) {
    setCurrentDetails(`**dropped**: ${started.detail}`);
    return { requestId: request.requestId, direction: request.direction, outcome: 'stale', detail: started.detail };
  }
  try {
    const result = await heavy[work](request);
    await bookkeeping.gitFinishOperation(request, { state: 'success', result });
    upsertMemo({
      outcome: result.outcome,
      ...(result.commit ? { commit: result.commit } : {}),
      ...(result.revisionId ? { revisionId: result.revisionId } : {}),
      ...(result.warnings ? { warningCount: result.warnings.total, warningCodes: result.warnings.counts } : {}),
    });
    setCurrentDetails(`**${result.outcome}**${result.detail ? `: ${result.detail}` : ''}${describeWarnings(result.warnings)}`);
    if (work === 'gitImportActivity' && result.outcome === 'applied' && result.revisionId)
      await startSearchIndexChild({ spaceId: request.spaceId, organizationId: request.organizationId, revisionId: result.revisionId });
    return result;
  } catch (err) {
    const { code, message, state } = classify(err);
    await CancellationScope.nonCancellable(() => bookkeeping.gitFinishOperation(request, { state, error: { code, message } }));
    upsertMemo({ outcome: 'failure', errorCode: code });
    setCurrentDetails(`**${state}**: ${code}`);
    if (isCancellation(err)) throw err;
    throw ApplicationFailure.create({ type: code, message, nonRetryable: true });
  }
}

function classify(err: unknown): { code: string; message: string; state: 'failure' | 'timeout' } {
  const f = classifyFailure(err);
  if (f.kind === 'cancelled') return { code: 'CANCELLED', message: 'the operation was cancelled', state: 'failure' };
  if (f.kind === 'application') return { code: f.type ?? 'ERROR', message: f.message, state: 'failure' };
  if (f.kind === 'timeout') return { code: 'TIMEOUT', message: `the operation timed out (${f.timeoutType})`, state: 'timeout' };
  return { code: 'ERROR', message: f.causeMessage, state: 'failure' };
}
