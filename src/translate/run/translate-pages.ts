/**
 * A batch of a run's pages translated (the translation task queue's activity): the segments of each page, looked up
 * in the translation memory; only those missing go to the engine, and each answer of the engine goes into the memory
 * before the next request is sent (the memory is the run's checkpoint: a retry, or a run after a worker killed
 * mid-batch, sends nothing the engine answered). Returns what the batch adds to the run's figures.
 */
import type { TranslationEngineName } from '../../config/config.js';
import { isFolioError } from '../../errors.js';
import { memoryKeyString, type TranslationRecord } from '../../store/index.js';
import type { TranslationBatchCounts } from '../../temporal/contract/index.js';
import type { TranslationEngine } from '../engines/index.js';
import { documentText } from '../instructions.js';
import type { GlossaryTerm } from '../markup.js';
import { textSegment, type Segment } from '../segments.js';
import { sendMissing } from '../send-missing.js';
import type { TranslationRunControl } from './control.js';
import { glossaryTerms, keyOf, languagePair, loadTranslation, type TranslationRunDeps, type TranslationRunRef } from './context.js';
import { allSegments, pageSegments } from './segments.js';

export interface PagesBatch extends TranslationRunRef {
  sourceRevisionId: string;
  pageIds: string[];
  engine: TranslationEngineName;
  /** The run's figures before this batch. */
  before: TranslationBatchCounts;
  pagesTotal: number;
}

interface Batch {
  readonly deps: TranslationRunDeps;
  readonly input: PagesBatch;
  readonly t: TranslationRecord;
  readonly engine: TranslationEngine;
  readonly glossary: GlossaryTerm[];
  readonly pair: string;
  readonly control: TranslationRunControl;
  readonly counts: TranslationBatchCounts;
}

export async function translatePages(deps: TranslationRunDeps, input: PagesBatch, control: TranslationRunControl): Promise<TranslationBatchCounts> {
  const t = await loadTranslation(deps.store, input);
  const engine = deps.engine(input.engine);
  await engine.checkPair(t.sourceLanguage, t.language);
  const glossary = await glossaryTerms(deps.store, t);
  const counts: TranslationBatchCounts = { pages: 0, segments: 0, sent: 0, fromMemory: 0, words: 0, pagesTranslated: 0 };
  const batch: Batch = { deps, input, t, engine, glossary, pair: languagePair(t), control, counts };
  const perPage = await batchSegments(batch);
  const { missing, sentPages, segmentsHere } = await fromMemory(batch, perPage);
  await sendToEngine(batch, missing, segmentsHere);
  counts.segments = segmentsHere;
  counts.pages = perPage.length;
  counts.pagesTranslated = sentPages.size;
  await recordBatch(batch);
  return counts;
}

/** The live progress: the run's figures before the batch and the batch's so far. */
function report({ control, input, counts }: Batch, item?: string): void {
  control.update({
    phase: 'translating',
    ...(item ? { item } : {}),
    pagesDone: input.before.pages + counts.pages,
    pagesTotal: input.pagesTotal,
    segmentsDone: input.before.segments + counts.segments,
    segmentsSent: input.before.sent + counts.sent,
  });
}

/** The pages' translatable segments, in order. */
async function batchSegments({ deps, input, glossary }: Batch): Promise<Array<{ id: string; segments: Segment[] }>> {
  const { store } = deps;
  const pool = deps.parsePool();
  const perPage: Array<{ id: string; segments: Segment[] }> = [];
  for (const pageId of input.pageIds) {
    const page = await store.revisions.page(input.sourceRevisionId, pageId);
    if (!page) continue;
    const segs = await pageSegments(pool, store, input.sourceRevisionId, page, glossary).catch((err: unknown) => {
      // A page over the parse budget is not translated (its bytes are kept); its title still is.
      if (isFolioError(err) && err.code === 'PARSE_BUDGET_EXCEEDED') return null;
      throw err;
    });
    perPage.push({ id: page.id, segments: segs ? allSegments(segs).filter((s) => s.translatable) : [textSegment(page.title, glossary).segment] });
  }
  return perPage;
}

/** The memory's answer for all the segments at once: what is missing (once per distinct key) and which pages lack some. */
async function fromMemory(b: Batch, perPage: Array<{ id: string; segments: Segment[] }>) {
  const { store } = b.deps;
  const keys = perPage.flatMap((p) => p.segments.map((s) => keyOf(s, b.pair)));
  const known = await store.translations.memory.lookup(b.t.organizationId, keys);
  const missing = new Map<string, Segment>();
  const sentPages = new Set<string>();
  for (const p of perPage) {
    for (const s of p.segments) {
      const k = memoryKeyString(keyOf(s, b.pair));
      if (known.has(k)) continue;
      sentPages.add(p.id);
      if (!missing.has(k)) missing.set(k, s);
    }
  }
  const segmentsHere = perPage.reduce((n, p) => n + p.segments.length, 0);
  b.counts.fromMemory = segmentsHere - perPage.reduce((n, p) => n + p.segments.filter((s) => !known.has(memoryKeyString(keyOf(s, b.pair)))).length, 0);
  b.counts.segments = b.counts.fromMemory;
  report(b);
  return { missing: [...missing.values()], sentPages, segmentsHere };
}

/** Each part of the engine's answer goes into the memory before anything else is sent (../send-missing.ts). */
async function sendToEngine(b: Batch, missing: Segment[], segmentsHere: number): Promise<void> {
  const { deps, t, engine, input, counts } = b;
  const { store } = deps;
  const request = {
    source: t.sourceLanguage,
    target: t.language,
    glossary: b.glossary,
    instructions: t.instructions ? documentText(t.instructions) : undefined,
    signal: b.control.signal,
  };
  await sendMissing({
    engine,
    segments: missing,
    request,
    perCall: Math.max(1, deps.chunk),
    remember: async (segments, targets) => {
      await store.translations.memory.put(
        t.organizationId,
        segments.map((s, j) => ({ ...keyOf(s, b.pair), target: targets[j]!, engine: engine.name })),
      );
      counts.sent += segments.length;
      counts.words += segments.reduce((n, s) => n + s.words, 0);
      counts.segments = counts.fromMemory + Math.min(segmentsHere - counts.fromMemory, counts.sent);
      report(b);
      await store.translations.progress(t.id, input.run, {
        segmentsDone: input.before.segments + counts.segments,
        segmentsSent: input.before.sent + counts.sent,
        words: input.before.words + counts.words,
      });
    },
  });
}

/** The batch's figures added to the run's. */
async function recordBatch(b: Batch): Promise<void> {
  const { deps, t, input, counts } = b;
  report(b);
  await deps.store.translations.progress(t.id, input.run, {
    pagesDone: input.before.pages + counts.pages,
    segmentsTotal: input.before.segments + counts.segments,
    segmentsDone: input.before.segments + counts.segments,
    segmentsSent: input.before.sent + counts.sent,
    segmentsFromMemory: input.before.fromMemory + counts.fromMemory,
    words: input.before.words + counts.words,
    pagesTranslated: input.before.pagesTranslated + counts.pagesTranslated,
  });
  if (counts.sent > 0) deps.logger.info({ translationId: t.id, run: input.run, sent: counts.sent, fromMemory: counts.fromMemory }, 'segments translated');
}
