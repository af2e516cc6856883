/**
 * `translation/<translationId>/runs`: the run queue of one translation. `POST …/run` signals it (signal-with-start)
 * with the run's number; it runs one translation run at a time, and a run requested while one runs waits for it
 * (several waiting requests become one run: the newest).
 */
export const translationSignals = {
  /** A run was requested (`TranslationRunRequest`). */
  request: 'translationRequestRun',
  /** Live progress of the translating activity (`TranslationProgress`). */
  progress: 'translationProgress',
} as const;

export const translationQueries = {
  /** `TranslationRunView`: the run in progress and the queue. */
  state: 'translationState',
  /** The latest `TranslationProgress` of the running activity, or null. */
  progress: 'translationProgress',
} as const;

export interface TranslationRunRequest {
  run: number;
}

export interface TranslationQueueInput {
  translationId: string;
  organizationId: string;
  /** Task queue of the translating activity (`FOLIO_TRANSLATION_TASK_QUEUE`): workers that call the engines. */
  engineTaskQueue: string;
  /** Pages per translating activity (default 25). */
  pagesPerBatch?: number;
  /**
   * Heartbeat timeout of the translating activity, ms (default 2 minutes: it heartbeats every 5 s). Tests that kill
   * an engine worker set it short, so the retry on another worker starts without waiting minutes.
   */
  engineHeartbeatTimeoutMs?: number;
  /** Runs requested and not run yet (continue-as-new carries them over). */
  pending?: number[];
}

/** What `translationState` answers. */
export interface TranslationRunView {
  running: number | null;
  queued: number[];
  lastCompleted: number | null;
  pagesTotal: number;
  pagesDone: number;
  segmentsTotal: number;
  segmentsDone: number;
  segmentsSent: number;
}

/** Progress of the translating activity (pages and segments done of their totals). */
export interface TranslationProgress {
  phase: string;
  item?: string;
  pagesDone: number;
  pagesTotal: number;
  segmentsDone: number;
  segmentsSent: number;
  [count: string]: string | number | undefined;
}

/** Counts a batch of pages adds to a run. */
export interface TranslationBatchCounts {
  pages: number;
  segments: number;
  sent: number;
  fromMemory: number;
  words: number;
  pagesTranslated: number;
}

/** Failure codes of a run (besides the engines' TRANSLATION_* codes). */
export const TRANSLATION_NON_RETRYABLE = [
  'NOT_FOUND',
  'TRANSLATION_PAIR_UNSUPPORTED',
  'TRANSLATION_ENGINE_AUTH',
  'TRANSLATION_ENGINE_NOT_CONFIGURED',
  'TRANSLATION_SOURCE_EMPTY',
] as const;
