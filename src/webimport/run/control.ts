/**
 * What the runner of an import run's phase (the Temporal activity, activities/content-import.ts) gives the pipeline:
 * where its progress goes (heartbeats, the workflow's live progress) and how it learns it was cancelled. The
 * pipeline knows nothing of Temporal: `activities/progress.ts`'s reporter is one such control.
 */
import type { ContentImportProgress } from '../../temporal/contract/index.js';

export interface ImportRunControl {
  /** Merges `p` into the current progress and reports it (a heartbeat; a cancel is noticed by it). */
  update(p: Partial<ContentImportProgress>): void;
  /** The progress as last updated. */
  readonly current: ContentImportProgress;
  /** Aborted when the run is cancelled: every request and parse task of the phase passes it on. */
  readonly signal: AbortSignal | undefined;
  /** Throws (WEBIMPORT_CANCELLED) when this attempt must not change anything any more: right before storing. */
  assertNotCancelled(operation: string): Promise<void>;
  /** Sends the current progress now and waits for it to be sent. */
  flush(): Promise<void>;
}
