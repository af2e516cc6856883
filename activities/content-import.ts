/**
 * The activities of a content import run (`workflows/content-import.ts`), adapters over src/webimport/run/: the
 * bookkeeping of the run's status, the crawl (discovery and fetching, checkpointed URL by URL in the store) and the
 * build (conversion, the revision, the target), with this activity's heartbeats, live progress and cancellation.
 * Each is idempotent: a retry reads the run's checkpoints, and the revision is keyed by the run.
 */
import type { ImportRunStatus } from '../src/store/index.js';
import { contentImportSignals, type ContentImportProgress } from '../src/temporal/contract/index.js';
import { ImportRunNotFoundError, WebImportCancelledError } from '../src/webimport/errors.js';
import { finishRun, markStarted, type ImportRunOutcome } from '../src/webimport/run/bookkeeping.js';
import type { ImportRunDeps, ImportRunRef } from '../src/webimport/run/context.js';
import { runImportCrawl, type CrawlOutcome } from '../src/webimport/run/crawl.js';
import { runImportBuild } from '../src/webimport/run/run.js';
import type { BuildOutcome } from '../src/webimport/run/store.js';
import type { ActivityDeps } from './deps.js';
import { toImportFailure } from './content-import-failures.js';
import { parsePoolOf } from './parse-pool.js';
import { progressReporter } from './progress.js';

export type { ImportRunRef } from '../src/webimport/run/context.js';

/** This activity's heartbeats and live progress (a signal to the workflow), from `phase` on. */
function control(phase: string) {
  return progressReporter<ContentImportProgress>(phase, { signal: contentImportSignals.progress, cancelled: (op) => new WebImportCancelledError(op) });
}

/** `work`'s outcome, what it throws as the run's typed failure. */
async function typed<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    throw toImportFailure(err);
  }
}

export function createContentImportActivities(deps: ActivityDeps) {
  const run: ImportRunDeps = { store: deps.store, config: deps.config, parsePool: () => parsePoolOf(deps) };
  return {
    async importMarkStarted(ref: ImportRunRef): Promise<{ status: ImportRunStatus }> {
      try {
        return await markStarted(deps.store, ref);
      } catch (err) {
        throw err instanceof ImportRunNotFoundError ? toImportFailure(err) : err;
      }
    },

    async importFinish(input: ImportRunOutcome): Promise<{ status: ImportRunStatus }> {
      return finishRun(deps.store, input);
    },

    async importCrawl(ref: ImportRunRef): Promise<CrawlOutcome> {
      return typed(runImportCrawl(run, ref, control('fetching')));
    },

    async importBuild(ref: ImportRunRef): Promise<BuildOutcome> {
      return typed(runImportBuild(run, ref, control('converting')));
    },
  };
}
