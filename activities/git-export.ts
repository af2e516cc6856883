/** The export activity: runs one git export (src/gitsync/export/run.ts) with this activity's heartbeats and cancellation. */
import { GitCancelledError } from '../src/git/index.js';
import type { GitSyncContext } from '../src/gitsync/context.js';
import { runGitExport } from '../src/gitsync/export/run.js';
import { createGitRun } from '../src/gitsync/run.js';
import { gitSignals, type GitOperationResult, type GitProgress, type GitSyncRequest } from '../src/temporal/contract/index.js';
import { toFailure } from './git-failures.js';
import { progressReporter } from './progress.js';

export function createGitExportActivity(ctx: GitSyncContext) {
  return async function gitExportActivity(request: GitSyncRequest): Promise<GitOperationResult> {
    const progress = progressReporter<GitProgress>('fetching', { signal: gitSignals.progress, cancelled: (operation) => new GitCancelledError(operation) });
    const run = createGitRun(ctx, request, progress);
    try {
      return await runGitExport(run);
    } catch (err) {
      throw toFailure(err, run.secrets);
    } finally {
      progress.close();
    }
  };
}
