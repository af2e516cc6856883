/**
 * A run's end: every page reassembled from the memory into the result space's new revision (same page tree and ids,
 * titles, descriptions, SUMMARY link titles), made primary, and the run's figures recorded; or the run recorded as
 * failed, with its code and reason (the last result revision stays).
 */
import { NotFoundError } from '../../errors.js';
import { loadRevisionModel } from '../../revision/records.js';
import { assemblePages, type Assembly } from './assemble.js';
import { glossaryTerms, languagePair, loadTranslation, type TranslationRunDeps, type TranslationRunRef } from './context.js';
import { writeResult } from './result.js';
import { reusableRun, runInputKey } from './reuse.js';

export interface FinishedRun {
  resultSpaceId: string;
  resultRevisionId: string;
  /** Segments kept in the source language because the engine lost their marks or links. */
  kept: number;
}

/** Warnings kept on a run. */
const MAX_RUN_WARNINGS = 100;

export async function finishRun(deps: TranslationRunDeps, input: TranslationRunRef & { sourceRevisionId: string }): Promise<FinishedRun> {
  const { store } = deps;
  const t = await loadTranslation(store, input);
  // Nothing new since the previous run (checked here, whatever the batches did): its result stays, unwritten.
  const previous = await reusableRun(store, t, input.run, await runInputKey(store, t, input.sourceRevisionId));
  if (previous?.resultRevisionId && t.resultSpaceId) {
    await store.translations.completeRun(t.id, input.run, { resultRevisionId: previous.resultRevisionId, warnings: [] });
    return { resultSpaceId: t.resultSpaceId, resultRevisionId: previous.resultRevisionId, kept: 0 };
  }
  const glossary = await glossaryTerms(store, t);
  const pool = deps.parsePool();
  const loaded = await loadRevisionModel(store, input.sourceRevisionId);
  if (!loaded) throw new NotFoundError('revision', input.sourceRevisionId);
  const assembly: Assembly = { deps, pool, t, sourceRevisionId: input.sourceRevisionId, glossary, pair: languagePair(t), warnings: [], kept: 0 };
  await assemblePages(assembly, loaded.model.pages);
  const { resultSpaceId, resultRevisionId } = await writeResult(store, t, input.run, loaded);
  await store.translations.completeRun(t.id, input.run, { resultRevisionId, warnings: assembly.warnings.slice(0, MAX_RUN_WARNINGS) });
  return { resultSpaceId, resultRevisionId, kept: assembly.kept };
}

/** Records the failure; `recorded: false` when the translation was deleted meanwhile (nothing left to record). */
export async function failRun(
  deps: TranslationRunDeps,
  input: { translationId: string; run: number; code: string; message: string },
): Promise<{ recorded: boolean }> {
  const failed = await deps.store.translations.failRun(input.translationId, input.run, { code: input.code, message: input.message });
  return { recorded: failed !== null };
}
