/**
 * Git sync activities: the bookkeeping (operation state, request log, vault cleanup: src/gitsync/operation.ts) and
 * the two long ones, import and export (./git-import.ts, ./git-export.ts), on one git sync context
 * (src/gitsync/context.ts).
 */
import { gitSyncContext } from '../src/gitsync/context.js';
import { GitBookkeeping, type OperationEnd } from '../src/gitsync/operation.js';
import type { GitOperationResult, GitQueueOutcome, GitSyncRequest } from '../src/temporal/contract/index.js';
import type { ActivityDeps } from './deps.js';
import { createGitExportActivity } from './git-export.js';
import { typedFailures } from './git-failures.js';
import { createGitImportActivity } from './git-import.js';
import { parsePoolOf } from './parse-pool.js';

export function createGitSyncActivities(deps: ActivityDeps) {
  const ctx = gitSyncContext({ store: deps.store, config: deps.config, logger: deps.logger, parsePool: () => parsePoolOf(deps) });
  const book = new GitBookkeeping(ctx);
  const gitImportActivity = createGitImportActivity(ctx);
  const gitExportActivity = createGitExportActivity(ctx);

  return {
    /**
     * Records queue outcomes (dropped, duplicate, failed, …) in the request log; deletes the credentials of
     * requests that will never run, and any expired ones (a request lost on the way).
     */
    gitRecordOutcome: (spaceId: string, outcomes: GitQueueOutcome[]): Promise<void> => book.recordOutcomes(spaceId, outcomes),

    /** Marks the operation running, unless the store says the request is stale. Idempotent. */
    gitBeginOperation: (request: GitSyncRequest): Promise<{ stale: boolean; detail?: string }> => typedFailures(book.beginOperation(request)),

    /** Records the end of the operation in `git/info` and the request log; forgets the credentials. */
    gitFinishOperation: (request: GitSyncRequest, end: OperationEnd): Promise<void> => book.finishOperation(request, end),

    /** Forgets the credentials of a request that completed (its end already recorded by the operation activity). */
    gitForgetCredentials: (credentialId: string): Promise<void> => book.forgetCredentials(credentialId),

    /**
     * The import, its begin and its success recorded in the one activity (the workflow code since the
     * `git-bookkeeping-in-operation-activity` patch); a failure is recorded by the workflow after the last attempt
     * (`gitFinishOperation`), the credentials forgotten after the activity completed (`gitForgetCredentials`).
     */
    gitImportOperation: (request: GitSyncRequest): Promise<GitOperationResult> => typedFailures(book.runOperation(request, gitImportActivity)),
    /** The export, its begin and its success recorded in the one activity (see `gitImportOperation`). */
    gitExportOperation: (request: GitSyncRequest): Promise<GitOperationResult> => typedFailures(book.runOperation(request, gitExportActivity)),

    gitImportActivity,
    gitExportActivity,
  };
}
