/**
 * One import run's build (the crawl, its first phase, is `./crawl.ts`): the target checked, the run's source converted
 * in the parse pool and through the git converter, the revision stored and made the target's, the warnings recorded.
 * The phases run in this order on one context (`./context.ts`), each extending the one before.
 */
import type { ImportRunControl } from './control.js';
import { loadRun, type ImportRunDeps, type ImportRunRef } from './context.js';
import { convertSource } from './convert.js';
import { runProgress } from './progress.js';
import { storeBuild, type BuildOutcome } from './store.js';
import { findTarget } from './target.js';

export async function runImportBuild(deps: ImportRunDeps, ref: ImportRunRef, control: ImportRunControl): Promise<BuildOutcome> {
  const run = await loadRun(deps.store, ref);
  const progress = runProgress(deps.store, run.id, control);
  try {
    const targeted = await findTarget({ deps, run, progress });
    return await storeBuild(await convertSource(targeted));
  } finally {
    await progress.stop();
  }
}
