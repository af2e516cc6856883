import type { GlossaryEntryRecord, TranslationRecord, TranslationRunRecord, TranslationTotals } from '../../store/index.js';
import { iso, type UrlBuilder } from './urls.js';

const EMPTY_DOCUMENT = { object: 'document', data: {}, nodes: [] };

/** Whole seconds (the spec's durations). */
function seconds(ms: number): number {
  return Math.max(0, Math.round(ms / 1000));
}

/**
 * The `Translation` object of GitBook's spec. `status` is the spec's (`pending`, `running`, `completed`; a failed run
 * has ended, so it reads `completed`); Folio adds `run`: the latest run with its own status (`failed` with
 * `error: { code, message }`), engine, progress (pages and segments done of their totals, segments sent to the
 * engine and found in the translation memory) and words.
 */
export function translationObject(
  t: TranslationRecord,
  latest: TranslationRunRecord | null,
  totals: TranslationTotals,
  urls: UrlBuilder,
  canEdit: boolean,
): Record<string, unknown> {
  const duration = latest?.finishedAt ? latest.finishedAt.getTime() - latest.startedAt.getTime() : 0;
  const finished = latest?.finishedAt ? latest : null;
  return {
    object: 'translation',
    id: t.id,
    status: t.status === 'failed' ? 'completed' : t.status,
    source: { space: t.sourceSpaceId, language: t.sourceLanguage },
    language: t.language,
    instructions: t.instructions ?? EMPTY_DOCUMENT,
    ...(t.resultSpaceId && t.resultRevisionId ? { result: { space: t.resultSpaceId, revision: t.resultRevisionId, language: t.language } } : {}),
    createdAt: iso(t.createdAt),
    updatedAt: iso(t.updatedAt),
    stats: {
      runs: totals.runs,
      totalWords: totals.totalWords,
      totalPages: totals.totalPages,
      totalDuration: seconds(totals.totalDurationMs),
      latestRunDuration: seconds(finished ? duration : 0),
      latestPages: finished?.pagesTranslated ?? 0,
      latestWords: finished?.words ?? 0,
    },
    permissions: { view: true, edit: canEdit },
    urls: { location: urls.api(`/orgs/${t.organizationId}/translations/${t.id}`) },
    ...(latest ? { run: runObject(latest) } : {}),
  };
}

function runObject(r: TranslationRunRecord): Record<string, unknown> {
  return {
    number: r.run,
    status: r.status,
    engine: r.engine,
    ...(r.sourceRevisionId ? { sourceRevision: r.sourceRevisionId } : {}),
    ...(r.resultRevisionId ? { resultRevision: r.resultRevisionId } : {}),
    pages: { done: r.pagesDone, total: r.pagesTotal, translated: r.pagesTranslated },
    segments: { done: r.segmentsDone, total: r.segmentsTotal, sent: r.segmentsSent, fromMemory: r.segmentsFromMemory },
    words: r.words,
    warnings: r.warnings,
    ...(r.errorCode ? { error: { code: r.errorCode, message: r.errorMessage ?? '' } } : {}),
    startedAt: iso(r.startedAt),
    ...(r.finishedAt ? { finishedAt: iso(r.finishedAt) } : {}),
  };
}

export function glossaryEntryObject(e: GlossaryEntryRecord, urls: UrlBuilder): Record<string, unknown> {
  return {
    object: 'glossary-entry',
    id: e.id,
    translations: e.translations,
    createdAt: iso(e.createdAt),
    updatedAt: iso(e.updatedAt),
    urls: { location: urls.api(`/orgs/${e.organizationId}/translations-glossary/${e.id}`) },
  };
}
