import type { CountedPage, JsonObject, PageOptions } from './common.js';

/** A translation run's status; `failed` carries `errorCode` and `errorMessage`. */
export type TranslationRunStatus = 'pending' | 'running' | 'completed' | 'failed';

export interface TranslationRecord {
  id: string;
  organizationId: string;
  sourceSpaceId: string;
  sourceLanguage: string;
  language: string;
  /** The GitBook JSON document of instructions (given to engines that take instructions). */
  instructions: JsonObject | null;
  /** Created by the first run. */
  resultSpaceId: string | null;
  resultRevisionId: string | null;
  status: TranslationRunStatus;
  /** Runs requested so far (the `n` of the latest requested run). */
  runsRequested: number;
  createdAt: Date;
  updatedAt: Date;
}

/** One run: its progress while it runs, its figures once done. */
export interface TranslationRunRecord {
  translationId: string;
  run: number;
  status: TranslationRunStatus;
  engine: string;
  sourceRevisionId: string | null;
  resultRevisionId: string | null;
  pagesTotal: number;
  pagesDone: number;
  segmentsTotal: number;
  segmentsDone: number;
  /** Segments sent to the engine (not found in the memory). */
  segmentsSent: number;
  segmentsFromMemory: number;
  /** Words of the segments sent to the engine. */
  words: number;
  /** Pages with at least one segment sent to the engine. */
  pagesTranslated: number;
  warnings: Array<{ code: string; message: string; pageId?: string }>;
  /** The key of what the run's result is made from (src/translate/run/reuse.ts); null before it is known. */
  inputKey: string | null;
  errorCode: string | null;
  errorMessage: string | null;
  startedAt: Date;
  finishedAt: Date | null;
}

export type TranslationRunProgress = Partial<
  Pick<
    TranslationRunRecord,
    | 'engine'
    | 'sourceRevisionId'
    | 'pagesTotal'
    | 'pagesDone'
    | 'segmentsTotal'
    | 'segmentsDone'
    | 'segmentsSent'
    | 'segmentsFromMemory'
    | 'words'
    | 'pagesTranslated'
    | 'inputKey'
  >
>;

/** Totals over every finished run of a translation (`stats` of the API object). */
export interface TranslationTotals {
  runs: number;
  totalWords: number;
  totalPages: number;
  totalDurationMs: number;
}

export interface GlossaryEntryRecord {
  id: string;
  organizationId: string;
  /** language code → term */
  translations: Record<string, string>;
  createdAt: Date;
  updatedAt: Date;
}

export type GlossaryOperation =
  | { type: 'insert'; translations: Record<string, string> }
  | { type: 'update'; id: string; translations: Record<string, string> }
  | { type: 'delete'; id: string };

/** One translation-memory entry: the target text of a source segment. */
export interface MemoryKey {
  segmentHash: string;
  /** `en:es` */
  languagePair: string;
  /** Fingerprint of the glossary terms found in the segment ('' when none). */
  glossaryVersion: string;
}

/** Translations, their runs, the organization's glossary and the translation memory (migration 009). */
export interface TranslationStore {
  /** NotFoundError for an unknown organization. */
  create(
    organizationId: string,
    input: { sourceSpaceId: string; sourceLanguage: string; language: string; instructions?: JsonObject | null },
  ): Promise<TranslationRecord>;
  get(organizationId: string, id: string): Promise<TranslationRecord | null>;
  /** Oldest first. */
  list(organizationId: string, options: PageOptions): Promise<CountedPage<TranslationRecord>>;
  /** NotFoundError when unknown. */
  setInstructions(organizationId: string, id: string, instructions: JsonObject | null): Promise<TranslationRecord>;
  /** Removes the translation and its runs (the result space stays). false when it did not exist. */
  delete(organizationId: string, id: string): Promise<boolean>;
  /** Counts a requested run and sets the status to `pending` unless a run is running. NotFoundError when unknown. */
  requestRun(organizationId: string, id: string): Promise<TranslationRecord>;
  /** Starts run `run` (idempotent): status `running`, a run row. Returns the row. */
  beginRun(id: string, run: number): Promise<TranslationRunRecord>;
  progress(id: string, run: number, progress: TranslationRunProgress): Promise<void>;
  /** Sets the result space (first run) when none is set yet, or always with `replace`; returns the one set. */
  setResultSpace(id: string, spaceId: string, options?: { replace?: boolean }): Promise<string>;
  /** Records the run as completed with its result revision; the translation points at it. */
  completeRun(id: string, run: number, result: { resultRevisionId: string; warnings: TranslationRunRecord['warnings'] }): Promise<TranslationRunRecord>;
  /** Records a failed run; null when the translation no longer exists (deleted while it ran). */
  failRun(id: string, run: number, error: { code: string; message: string }): Promise<TranslationRunRecord | null>;
  /** The newest completed run numbered below `run`, or null. */
  previousCompletedRun(id: string, run: number): Promise<TranslationRunRecord | null>;
  /** The newest run, or null before the first. */
  latestRun(id: string): Promise<TranslationRunRecord | null>;
  getRun(id: string, run: number): Promise<TranslationRunRecord | null>;
  totals(id: string): Promise<TranslationTotals>;
  glossary: {
    /** The organization's glossary version (0 before any change). */
    version(organizationId: string): Promise<number>;
    list(organizationId: string, options: PageOptions): Promise<CountedPage<GlossaryEntryRecord>>;
    /** Every entry (for a run). */
    all(organizationId: string): Promise<GlossaryEntryRecord[]>;
    get(organizationId: string, id: string): Promise<GlossaryEntryRecord | null>;
    /** All operations in one transaction; NotFoundError when an update or delete names an unknown entry. Bumps the version. */
    apply(organizationId: string, operations: readonly GlossaryOperation[]): Promise<{ version: number }>;
  };
  memory: {
    /** The stored targets of the keys found (key string `hash|pair|glossaryVersion` → target). */
    lookup(organizationId: string, keys: readonly MemoryKey[]): Promise<Map<string, string>>;
    /** Stores targets (idempotent: an existing entry is kept). */
    put(organizationId: string, entries: ReadonlyArray<MemoryKey & { target: string; engine: string }>): Promise<void>;
    /** Entries of the organization (tests and operators). */
    count(organizationId: string): Promise<number>;
  };
}
