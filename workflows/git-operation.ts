/**
 * The shape shared by the import and export child workflows: one activity marks the operation running in the
 * store, does the work (heartbeating, cancellable, network errors retried with backoff) and records its success; the
 * workflow records a failure (`failure` / `timeout`) and fails the run with the activity's typed error. (Runs
 * recorded before kept the begin and the record as activities of their own around the work: `patched`.)
 */
import { ApplicationFailure, CancellationScope, isCancellation, log, patched, proxyActivities, proxyLocalActivities, upsertMemo } from '@temporalio/workflow';
import { setCurrentDetails, type ActivityOptions } from '@temporalio/workflow';
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

const heavyOptions: ActivityOptions = {
  startToCloseTimeout: '60 minutes',
  heartbeatTimeout: '60 seconds',
  retry: {
    initialInterval: '2 seconds',
    backoffCoefficient: 2,
    maximumInterval: '1 minute',
    maximumAttempts: 6,
    nonRetryableErrorTypes: [...NON_RETRYABLE_GIT_ERRORS],
  },
};

/**
 * The operation's activity, with the request's heartbeat timeout when it sets one (tests that kill workers) and its
 * first retry interval when it sets one (FOLIO_GIT_RETRY_INITIAL_MS).
 */
function heavyFor(request: GitSyncRequest) {
  const heartbeatTimeout = request.heartbeatTimeoutMs ?? heavyOptions.heartbeatTimeout;
  const retry = request.retryInitialIntervalMs === undefined ? heavyOptions.retry : { ...heavyOptions.retry, initialInterval: request.retryInitialIntervalMs };
  return proxyActivities<Activities>({ ...heavyOptions, heartbeatTimeout, retry });
}

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

/**
 * The begin, the work and the record of its success run in one activity (`gitImportOperation`, `gitExportOperation`):
 * a tiny import or a no-op waited for two local activities in workflow tasks of their own around its work. The
 * workflow records a failure (after the last attempt) and forgets the credentials. Runs started before keep the
 * path they recorded (`patched`).
 */
const IN_ACTIVITY_BOOKKEEPING_PATCH = 'git-bookkeeping-in-operation-activity';
const operationActivity = { gitImportActivity: 'gitImportOperation', gitExportActivity: 'gitExportOperation' } as const;

/** What the run shows and keeps of a completed operation; an applied import starts its search indexing. */
async function completed(request: GitSyncRequest, work: 'gitImportActivity' | 'gitExportActivity', result: GitOperationResult): Promise<void> {
  upsertMemo({
    outcome: result.outcome,
    ...(result.commit ? { commit: result.commit } : {}),
    ...(result.revisionId ? { revisionId: result.revisionId } : {}),
    ...(result.warnings ? { warningCount: result.warnings.total, warningCodes: result.warnings.counts } : {}),
  });
  setCurrentDetails(`**${result.outcome}**${result.detail ? `: ${result.detail}` : ''}${describeWarnings(result.warnings)}`);
  if (work === 'gitImportActivity' && result.outcome === 'applied' && result.revisionId)
    await startSearchIndexChild({ spaceId: request.spaceId, organizationId: request.organizationId, revisionId: result.revisionId });
}

/**
 * A cancel is recorded by an activity task, scheduled in the same workflow task completion as the request to cancel
 * the operation activity: the server has the cancel before git/info says CANCELLED. Recorded by a local activity,
 * CANCELLED showed while the server still had the operation activity running, and an attempt that went on (its
 * heartbeats throttled) and asked the server before storing was told to go on: it applied a cancelled import.
 */
const CANCEL_RECORDED_AFTER_SERVER_PATCH = 'git-cancel-recorded-after-the-server-has-it';

/** Records a failed (or cancelled, timed out) operation and fails the run with its typed error. */
async function failed(request: GitSyncRequest, err: unknown, bookkeeping: typeof localBookkeeping): Promise<never> {
  const { code, message, state } = classify(err);
  const recorder = isCancellation(err) && bookkeeping === localBookkeeping && patched(CANCEL_RECORDED_AFTER_SERVER_PATCH) ? remoteBookkeeping : bookkeeping;
  await CancellationScope.nonCancellable(() => recorder.gitFinishOperation(request, { state, error: { code, message } }));
  upsertMemo({ outcome: 'failure', errorCode: code });
  setCurrentDetails(`**${state}**: ${code}`);
  if (isCancellation(err)) throw err;
  throw ApplicationFailure.create({ type: code, message, nonRetryable: true });
}

export async function runGitOperation(request: GitSyncRequest, work: 'gitImportActivity' | 'gitExportActivity'): Promise<GitOperationResult> {
  const progress = trackProgress(gitProgressSignal, gitProgressQuery);
  setCurrentDetails(`**queued** ${request.direction} ${request.ref}`);

  if (patched(IN_ACTIVITY_BOOKKEEPING_PATCH)) {
    let result: GitOperationResult;
    try {
      result = await heavyFor(request)[operationActivity[work]](request);
    } catch (err) {
      return failed(request, err, localBookkeeping);
    }
    // The activity's final progress comes with its result (it no longer signals it at the end).
    progress.settle(result.progress);
    if (result.outcome === 'stale') {
      setCurrentDetails(`**dropped**: ${result.detail ?? 'stale'}`);
      return result;
    }
    if (request.credentialId) {
      const credentialId = request.credentialId;
      // Its end is recorded already: a failure to forget is logged, never turned into a failed operation.
      await localBookkeeping.gitForgetCredentials(credentialId).catch((err: unknown) => log.warn('credentials not forgotten', { error: String(err) }));
    }
    await completed(request, work, result);
    return result;
  }

  const bookkeeping = patched(LOCAL_BOOKKEEPING_PATCH) ? localBookkeeping : remoteBookkeeping;
  const started = await bookkeeping.gitBeginOperation(request);
  if (started.stale) {
    setCurrentDetails(`**dropped**: ${started.detail}`);
    return { requestId: request.requestId, direction: request.direction, outcome: 'stale', detail: started.detail };
  }
  try {
    const result = await heavyFor(request)[work](request);
    await bookkeeping.gitFinishOperation(request, { state: 'success', result });
    await completed(request, work, result);
    return result;
  } catch (err) {
    return failed(request, err, bookkeeping);
  }
}

function classify(err: unknown): { code: string; message: string; state: 'failure' | 'timeout' } {
  const f = classifyFailure(err);
  if (f.kind === 'cancelled') return { code: 'CANCELLED', message: 'the operation was cancelled', state: 'failure' };
  if (f.kind === 'application') return { code: f.type ?? 'ERROR', message: f.message, state: 'failure' };
  if (f.kind === 'timeout') return { code: 'TIMEOUT', message: `the operation timed out (${f.timeoutType})`, state: 'timeout' };
  return { code: 'ERROR', message: f.causeMessage, state: 'failure' };
}
