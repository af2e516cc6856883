/**
 * The typed failures of a git sync operation itself (the git layer's own are `GitError`s, src/git/errors.ts): a
 * missing space, a locked space, a conflict, a sync base the branch lost, … Each has its run-facing code (`NOT_FOUND`,
 * `LOCKED`, `CONFLICT`, …), whether a retry may succeed, and the details the run's failure carries. The activity
 * adapter (activities/git-failures.ts) turns one into the run's typed failure as it is: the same code, message and
 * details.
 */
import { FolioError } from '../errors.js';

export class GitSyncError extends FolioError {
  /** What the run's failure carries besides its message (conflicting files, the synced commit). */
  readonly details: unknown[] | undefined;

  constructor(code: string, message: string, options: { retryable?: boolean; details?: unknown[] } = {}) {
    super(code, message, { retryable: options.retryable ?? false });
    this.details = options.details;
  }
}
