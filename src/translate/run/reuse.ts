/**
 * A run with nothing new: when the source revision, the language pair and the glossary terms are those of the
 * previous completed run (its `inputKey`), that run left no warning (nothing missing, kept or over budget that a
 * later run could do better) and its result revision is still the result space's primary one (nobody edited it),
 * the new run would assemble the same pages from the same memory (entries are never changed): it reuses that result
 * instead of parsing every page and writing the result space again.
 */
import { sha256Hex, type Store, type TranslationRecord, type TranslationRunRecord } from '../../store/index.js';
import { glossaryTerms } from './context.js';

/** Bumped when the assembly changes, so that the next run writes its result again. */
const ASSEMBLY_VERSION = 1;

export async function runInputKey(store: Store, t: TranslationRecord, sourceRevisionId: string): Promise<string> {
  const terms = await glossaryTerms(store, t);
  return sha256Hex(JSON.stringify([ASSEMBLY_VERSION, sourceRevisionId, t.sourceLanguage, t.language, terms]));
}

/** The previous completed run whose result this run can keep, or null. */
export async function reusableRun(store: Store, t: TranslationRecord, run: number, inputKey: string): Promise<TranslationRunRecord | null> {
  if (!t.resultSpaceId || !t.resultRevisionId) return null;
  const previous = await store.translations.previousCompletedRun(t.id, run);
  if (!previous || previous.inputKey !== inputKey || previous.warnings.length > 0 || previous.resultRevisionId !== t.resultRevisionId) return null;
  const space = await store.spaces.get(t.resultSpaceId);
  if (!space || space.organizationId !== t.organizationId || space.revisionId !== t.resultRevisionId) return null;
  return previous;
}
