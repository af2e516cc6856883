/**
 * What the runner of a git operation (the Temporal activity, activities/git-import.ts and git-export.ts) gives the
 * pipeline: where its progress goes (heartbeats, the workflow's live progress) and how it learns it was cancelled.
 * The pipeline knows nothing of Temporal: `activities/progress.ts`'s reporter is one such control.
 */
import type { GitProgress } from '../temporal/contract/index.js';

export interface GitOperationControl {
  /** Merges `p` into the current progress and reports it (a heartbeat; a cancel is noticed by it). */
  update(p: Partial<GitProgress>): void;
  /** The progress as last updated (the result carries it). */
  readonly current: GitProgress;
  /** Aborted when the operation is cancelled: every request of the operation passes it on. */
  readonly signal: AbortSignal | undefined;
  /**
   * Throws when this attempt must not change anything any more (cancelled, its run closed, superseded by a retry),
   * asked now rather than waiting for a heartbeat's answer. Called right before a point of no return (storing a
   * revision, making it primary, pushing).
   */
  assertNotCancelled(operation: string): Promise<void>;
  /**
   * Reports the current progress again every `everyMs` until the returned function is called: for a step that makes
   * no update for a while but is bounded otherwise (parsing, within its budgets), so that heartbeats keep flowing and
   * a cancel still reaches the operation.
   */
  keepAlive(everyMs?: number): () => void;
}
