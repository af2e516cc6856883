/**
 * The activities of a translation run (workflows/translation-runs.ts), adapters over src/translate/run/:
 * - `translationBeginRun` (main queue): checks the translation and its source, numbers the pages, marks it running;
 * - `translationTranslatePages` (the translation task queue, so a slow provider never holds the main queue): the
 *   segments of a batch of pages the translation memory lacks sent to the engine, each answer stored in the memory
 *   before the next request (the run's checkpoint);
 * - `translationFinishRun` (main queue): the result space's new revision, assembled from the memory, made primary;
 * - `translationFailRun`: the run failed, with its code and reason.
 * Content never goes through Temporal: activities pass ids, pages are read from the store.
 */
import { ApplicationFailure, heartbeat } from '@temporalio/activity';
import { isFolioError } from '../src/errors.js';
import { translationSignals, type TranslationBatchCounts, type TranslationProgress } from '../src/temporal/contract/index.js';
import { beginRun, type BegunRun } from '../src/translate/run/begin.js';
import { cachedEngines, ENGINE_CHUNK, type TranslationRunDeps, type TranslationRunRef } from '../src/translate/run/context.js';
import { failRun, finishRun, type FinishedRun } from '../src/translate/run/finish.js';
import { translatePages, type PagesBatch } from '../src/translate/run/translate-pages.js';
import type { ActivityDeps } from './deps.js';
import { parsePoolOf } from './parse-pool.js';
import { progressReporter } from './progress.js';

export type { TranslationRunRef } from '../src/translate/run/context.js';

const MAX_MESSAGE = 1000;

/** A failure of an activity: typed by the FolioError's code, retried only when it may pass. */
function failure(err: unknown): never {
  if (err instanceof ApplicationFailure) throw err;
  if (isFolioError(err)) {
    throw ApplicationFailure.create({ type: err.code, message: err.message.slice(0, MAX_MESSAGE), nonRetryable: !err.retryable });
  }
  throw err;
}

/** `work` with a heartbeat every 5 s (the phase's progress), its failure typed. */
async function beating<T>(progress: () => unknown, work: () => Promise<T>): Promise<T> {
  const beat = setInterval(() => heartbeat(progress()), 5000);
  try {
    return await work();
  } catch (err) {
    failure(err);
  } finally {
    clearInterval(beat);
  }
}

export function createTranslationActivities(deps: ActivityDeps) {
  const run: TranslationRunDeps = {
    store: deps.store,
    config: deps.config,
    logger: deps.logger,
    parsePool: () => parsePoolOf(deps),
    engine: cachedEngines(deps.config, deps.translationEngine),
    chunk: deps.translationChunk ?? ENGINE_CHUNK,
  };
  return {
    /** Marks the run running and lists the pages of the source's current revision (ids only). */
    async translationBeginRun(ref: TranslationRunRef): Promise<BegunRun> {
      try {
        heartbeat({ phase: 'starting' });
        return await beginRun(run, ref);
      } catch (err) {
        failure(err);
      }
    },

    /** Translates the segments of these pages that the memory lacks; idempotent (a retry finds them in the memory). */
    async translationTranslatePages(input: PagesBatch): Promise<TranslationBatchCounts> {
      const progress = progressReporter<TranslationProgress>('translating', { signal: translationSignals.progress });
      try {
        const counts = await beating(
          () => progress.current,
          () => translatePages(run, input, progress),
        );
        await progress.flush();
        return counts;
      } finally {
        progress.close();
      }
    },

    /** Builds the result revision from the memory, makes it the result space's primary one, records the run. */
    async translationFinishRun(input: TranslationRunRef & { sourceRevisionId: string }): Promise<FinishedRun> {
      return beating(
        () => ({ phase: 'assembling' }),
        () => finishRun(run, input),
      );
    },

    /** Records a failed run with its code and reason (the last result revision stays). */
    /** Records the failure; `recorded: false` when the translation was deleted meanwhile (nothing left to record). */
    async translationFailRun(input: { translationId: string; run: number; code: string; message: string }): Promise<{ recorded: boolean }> {
      return await failRun(run, input);
    },
  };
}
