/**
 * What the phases of a translation run share (src/translate/run/): the dependencies (the store, the parse pool, the
 * engines), the translation read from the store, its glossary terms and the translation memory's keys.
 */
import type { Config, TranslationEngineName } from '../../config/config.js';
import { NotFoundError } from '../../errors.js';
import type { Logger } from '../../log.js';
import type { ParsePool } from '../../parse-threads/pool.js';
import type { MemoryKey, Store, TranslationRecord } from '../../store/index.js';
import { createEngine, type TranslationEngine } from '../engines/index.js';
import { termsForPair } from '../glossary.js';
import type { GlossaryTerm } from '../markup.js';
import type { Segment } from '../segments.js';

/** What a translation run is given (the activities' dependencies). */
export interface TranslationRunDeps {
  store: Store;
  config: Config;
  logger: Logger;
  /** The parse pool, asked for on first use (its threads start then). */
  parsePool(): ParsePool;
  /** The engine of a name, made once (`cachedEngines`). */
  engine(name: TranslationEngineName): TranslationEngine;
  /** Segments given to the engine in one call (it splits them into requests; each answer is stored as it comes). */
  chunk: number;
}

export interface TranslationRunRef {
  translationId: string;
  organizationId: string;
  run: number;
}

/** Segments given to the engine in one call, unless told otherwise. */
export const ENGINE_CHUNK = 500;

/** The engines by name, each made on first use: `make` (tests wrap engines), or built from `config`. */
export function cachedEngines(config: Config, make?: (name: TranslationEngineName) => TranslationEngine): (name: TranslationEngineName) => TranslationEngine {
  const engines = new Map<string, TranslationEngine>();
  return (name) => {
    let engine = engines.get(name);
    if (!engine) {
      engine = make?.(name) ?? createEngine(config, name);
      engines.set(name, engine);
    }
    return engine;
  };
}

export async function loadTranslation(store: Store, ref: { translationId: string; organizationId: string }): Promise<TranslationRecord> {
  const t = await store.translations.get(ref.organizationId, ref.translationId);
  if (!t) throw new NotFoundError('translation', ref.translationId);
  return t;
}

/** The organization's glossary terms for the translation's language pair. */
export async function glossaryTerms(store: Store, t: TranslationRecord): Promise<GlossaryTerm[]> {
  return termsForPair(await store.translations.glossary.all(t.organizationId), t.sourceLanguage, t.language);
}

export function languagePair(t: TranslationRecord): string {
  return `${t.sourceLanguage}:${t.language}`;
}

export function keyOf(s: Segment, pair: string): MemoryKey {
  return { segmentHash: s.hash, languagePair: pair, glossaryVersion: s.glossaryVersion };
}
