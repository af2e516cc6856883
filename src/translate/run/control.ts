/**
 * What the runner of a translation batch (the Temporal activity, activities/translations.ts) gives the pipeline:
 * where its live progress goes and how it learns it was cancelled. The pipeline knows nothing of Temporal:
 * `activities/progress.ts`'s reporter is one such control.
 */
import type { TranslationProgress } from '../../temporal/contract/index.js';

export interface TranslationRunControl {
  /** Merges `p` into the current progress and reports it. */
  update(p: Partial<TranslationProgress>): void;
  /** Aborted when the run is cancelled: every request to the engine passes it on. */
  readonly signal: AbortSignal | undefined;
}
