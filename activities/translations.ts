/**
 * The activities of a translation run (workflows/translation-runs.ts):
 * - `translationBeginRun` (main queue): checks the translation and its source, numbers the pages, marks it running;
 * - `translationTranslatePages` (the translation task queue, so a slow provider never holds the main queue): the
 *   segments of a batch of pages, looked up in the translation memory; only those missing go to the engine, and
 *   each answer of the engine goes into the memory before the next request is sent (the memory is the run's
 *   checkpoint: a retry, or a run after a worker killed mid-batch, sends nothing the engine answered);
 * - `translationFinishRun` (main queue): every page reassembled from the memory into the result space's new
 *   revision (same page tree and ids, titles, descriptions, SUMMARY link titles), made primary; the run's figures;
 * - `translationFailRun`: the run failed, with its code and reason.
 * Content never goes through Temporal: activities pass ids, pages are read from the store.
 */
import { ApplicationFailure, Context, heartbeat } from '@temporalio/activity';
import { fieldsFingerprint, type PageModel } from '../src/format/index.js';
import { isFolioError, NotFoundError } from '../src/errors.js';
import { flattenPages, loadRevisionModel, modelToRevisionInput } from '../src/revision/records.js';
import type { ParsePool } from '../src/parse-threads/pool.js';
import { memoryKeyString, type MemoryKey, type PageRecord, type Store, type TranslationRecord } from '../src/store/index.js';
import { translationSignals, type TranslationBatchCounts, type TranslationProgress } from '../src/temporal/contract/index.js';
import { createEngine, engineNameFor, type TranslationEngine } from '../src/translate/engines/index.js';
import { termsForPair } from '../src/translate/glossary.js';
import { documentText } from '../src/translate/instructions.js';
import type { GlossaryTerm } from '../src/translate/markup.js';
import { textSegment, type Segment } from '../src/translate/segments.js';
import { sendMissing } from '../src/translate/send-missing.js';
import type { TranslationEngineName } from '../src/config/config.js';
import type { ActivityDeps } from './deps.js';
import { parsePoolOf } from './parse-pool.js';
import { progressReporter } from './progress.js';

/** Segments given to the engine in one call (it splits them into requests; each answer is stored as it comes). */
const ENGINE_CHUNK = 500;
const MAX_MESSAGE = 1000;

export interface TranslationRunRef {
  translationId: string;
  organizationId: string;
  run: number;
}

/** A failure of an activity: typed by the FolioError's code, retried only when it may pass. */
function failure(err: unknown): never {
  if (err instanceof ApplicationFailure) throw err;
  if (isFolioError(err)) {
    throw ApplicationFailure.create({ type: err.code, message: err.message.slice(0, MAX_MESSAGE), nonRetryable: !err.retryable });
  }
  throw err;
}

function pair(t: TranslationRecord): string {
  return `${t.sourceLanguage}:${t.language}`;
}

/** The segments of one page: its title (and table-of-contents title), then its markdown's. */
interface PageSegments {
  title: ReturnType<typeof textSegment>;
  tocTitle?: ReturnType<typeof textSegment>;
  body: Segment[] | null;
  markdown: string | null;
}

async function pageSegments(pool: ParsePool, store: Store, revisionId: string, page: PageRecord | PageModel, terms: GlossaryTerm[]): Promise<PageSegments> {
  const data = ('data' in page ? page.data : page) as { markdownNull?: boolean; tocTitle?: string; markdown?: string | null };
  let markdown: string | null = null;
  if ('data' in page) {
    if (page.kind === 'document' && data.markdownNull !== true) {
      const body = await store.revisions.pageBody(revisionId, page.id);
      markdown = body ? new TextDecoder('utf-8', { ignoreBOM: true }).decode(body) : null;
    }
  } else if (page.kind === 'document') markdown = page.markdown;
  const body = markdown !== null ? (await pool.run('translate.extract', markdown, terms)).segments : null;
  const tocTitle = typeof data.tocTitle === 'string' && data.tocTitle !== '' ? textSegment(data.tocTitle, terms) : undefined;
  return { title: textSegment(page.title, terms), ...(tocTitle ? { tocTitle } : {}), body, markdown };
}

function allSegments(p: PageSegments): Segment[] {
  return [p.title.segment, ...(p.tocTitle ? [p.tocTitle.segment] : []), ...(p.body ?? [])];
}

function keyOf(s: Segment, languagePair: string): MemoryKey {
  return { segmentHash: s.hash, languagePair, glossaryVersion: s.glossaryVersion };
}

export function createTranslationActivities(deps: ActivityDeps) {
  const { store, config, logger } = deps;
  const engines = new Map<string, TranslationEngine>();
  const engineFor = (name: TranslationEngineName): TranslationEngine => {
    let engine = engines.get(name);
    if (!engine) {
      engine = deps.translationEngine?.(name) ?? createEngine(config, name);
      engines.set(name, engine);
    }
    return engine;
  };

  async function load(ref: { translationId: string; organizationId: string }): Promise<TranslationRecord> {
    const t = await store.translations.get(ref.organizationId, ref.translationId);
    if (!t) throw new NotFoundError('translation', ref.translationId);
    return t;
  }

  async function terms(t: TranslationRecord): Promise<GlossaryTerm[]> {
    return termsForPair(await store.translations.glossary.all(t.organizationId), t.sourceLanguage, t.language);
  }

  return {
    /** Marks the run running and lists the pages of the source's current revision (ids only). */
    async translationBeginRun(ref: TranslationRunRef): Promise<{ sourceRevisionId: string; pageIds: string[]; engine: TranslationEngineName }> {
      try {
        heartbeat({ phase: 'starting' });
        const t = await load(ref);
        const space = await store.spaces.get(t.sourceSpaceId);
        if (!space || space.organizationId !== t.organizationId) throw new NotFoundError('space', t.sourceSpaceId);
        if (!space.revisionId) throw ApplicationFailure.nonRetryable(`the source space ${space.id} has no content yet`, 'TRANSLATION_SOURCE_EMPTY');
        const pages = flattenRecords(await store.revisions.pages(space.revisionId));
        const engine = engineNameFor(config, t.organizationId);
        await store.translations.beginRun(t.id, ref.run);
        await store.translations.progress(t.id, ref.run, { engine, sourceRevisionId: space.revisionId, pagesTotal: pages.length });
        return { sourceRevisionId: space.revisionId, pageIds: pages.map((p) => p.id), engine };
      } catch (err) {
        failure(err);
      }
    },

    /**
     * Translates the segments of these pages that the memory does not have, and stores them there. Returns what
     * the batch adds to the run's figures. Idempotent: a retry finds in the memory what an earlier attempt stored.
     */
    async translationTranslatePages(
      input: TranslationRunRef & {
        sourceRevisionId: string;
        pageIds: string[];
        engine: TranslationEngineName;
        before: TranslationBatchCounts;
        pagesTotal: number;
      },
    ): Promise<TranslationBatchCounts> {
      const progress = progressReporter<TranslationProgress>('translating', { signal: translationSignals.progress });
      const beat = setInterval(() => heartbeat(progress.current), 5000);
      try {
        const t = await load(input);
        const engine = engineFor(input.engine);
        await engine.checkPair(t.sourceLanguage, t.language);
        const glossary = await terms(t);
        const languagePair = pair(t);
        const pool = parsePoolOf(deps);
        const counts: TranslationBatchCounts = { pages: 0, segments: 0, sent: 0, fromMemory: 0, words: 0, pagesTranslated: 0 };
        const report = (item?: string) => {
          progress.update({
            phase: 'translating',
            ...(item ? { item } : {}),
            pagesDone: input.before.pages + counts.pages,
            pagesTotal: input.pagesTotal,
            segmentsDone: input.before.segments + counts.segments,
            segmentsSent: input.before.sent + counts.sent,
          });
        };
        // The pages' segments, in order; the memory's answer for all of them at once.
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
        const keys = perPage.flatMap((p) => p.segments.map((s) => keyOf(s, languagePair)));
        const known = await store.translations.memory.lookup(t.organizationId, keys);
        // What is missing, once per distinct key.
        const missing = new Map<string, Segment>();
        const sentPages = new Set<string>();
        for (const p of perPage) {
          for (const s of p.segments) {
            const k = memoryKeyString(keyOf(s, languagePair));
            if (known.has(k)) continue;
            sentPages.add(p.id);
            if (!missing.has(k)) missing.set(k, s);
          }
        }
        const segmentsHere = perPage.reduce((n, p) => n + p.segments.length, 0);
        counts.fromMemory =
          segmentsHere - [...perPage].reduce((n, p) => n + p.segments.filter((s) => !known.has(memoryKeyString(keyOf(s, languagePair)))).length, 0);
        counts.segments = counts.fromMemory;
        report();
        const request = {
          source: t.sourceLanguage,
          target: t.language,
          glossary,
          instructions: t.instructions ? documentText(t.instructions) : undefined,
          signal: Context.current().cancellationSignal,
        };
        // Each part of the engine's answer goes into the memory before anything else is sent (src/translate/send-missing.ts).
        await sendMissing({
          engine,
          segments: [...missing.values()],
          request,
          perCall: Math.max(1, deps.translationChunk ?? ENGINE_CHUNK),
          remember: async (segments, targets) => {
            await store.translations.memory.put(
              t.organizationId,
              segments.map((s, j) => ({ ...keyOf(s, languagePair), target: targets[j]!, engine: engine.name })),
            );
            counts.sent += segments.length;
            counts.words += segments.reduce((n, s) => n + s.words, 0);
            counts.segments = counts.fromMemory + Math.min(segmentsHere - counts.fromMemory, counts.sent);
            report();
            await store.translations.progress(t.id, input.run, {
              segmentsDone: input.before.segments + counts.segments,
              segmentsSent: input.before.sent + counts.sent,
              words: input.before.words + counts.words,
            });
          },
        });
        counts.segments = segmentsHere;
        counts.pages = perPage.length;
        counts.pagesTranslated = sentPages.size;
        report();
        await store.translations.progress(t.id, input.run, {
          pagesDone: input.before.pages + counts.pages,
          segmentsTotal: input.before.segments + counts.segments,
          segmentsDone: input.before.segments + counts.segments,
          segmentsSent: input.before.sent + counts.sent,
          segmentsFromMemory: input.before.fromMemory + counts.fromMemory,
          words: input.before.words + counts.words,
          pagesTranslated: input.before.pagesTranslated + counts.pagesTranslated,
        });
        await progress.flush();
        if (counts.sent > 0) logger.info({ translationId: t.id, run: input.run, sent: counts.sent, fromMemory: counts.fromMemory }, 'segments translated');
        return counts;
      } catch (err) {
        failure(err);
      } finally {
        clearInterval(beat);
        progress.close();
      }
    },

    /** Builds the result revision from the memory, makes it the result space's primary one, records the run. */
    async translationFinishRun(
      input: TranslationRunRef & { sourceRevisionId: string },
    ): Promise<{ resultSpaceId: string; resultRevisionId: string; kept: number }> {
      const beat = setInterval(() => heartbeat({ phase: 'assembling' }), 5000);
      try {
        const t = await load(input);
        const glossary = await terms(t);
        const languagePair = pair(t);
        const pool = parsePoolOf(deps);
        const loaded = await loadRevisionModel(store, input.sourceRevisionId);
        if (!loaded) throw new NotFoundError('revision', input.sourceRevisionId);
        const { model } = loaded;
        const warnings: Array<{ code: string; message: string; pageId?: string }> = [];
        let kept = 0;
        for (const page of flattenPages(model.pages)) {
          const segs = await pageSegments(pool, store, input.sourceRevisionId, page, glossary).catch((err: unknown) => {
            if (isFolioError(err) && err.code === 'PARSE_BUDGET_EXCEEDED') {
              warnings.push({ code: 'TRANSLATION_PAGE_TOO_COMPLEX', message: `page ${page.id} is over the parse budget: kept untranslated`, pageId: page.id });
              return null;
            }
            throw err;
          });
          const all = segs ? allSegments(segs) : [];
          const known = await store.translations.memory.lookup(
            t.organizationId,
            all.filter((s) => s.translatable).map((s) => keyOf(s, languagePair)),
          );
          const target = (s: Segment): string | null => (s.translatable ? (known.get(memoryKeyString(keyOf(s, languagePair))) ?? null) : null);
          const missing = all.filter((s) => s.translatable && target(s) === null).length;
          if (missing > 0)
            warnings.push({
              code: 'TRANSLATION_SEGMENT_MISSING',
              message: `${missing} segment(s) of page ${page.id} have no translation: kept in the source language`,
              pageId: page.id,
            });
          if (!segs) continue;
          const titleTarget = target(segs.title.segment);
          const translatedTitle = titleTarget !== null ? segs.title.apply(titleTarget) : null;
          if (segs.tocTitle && page.kind === 'document') {
            const toc = target(segs.tocTitle.segment);
            const v = toc !== null ? segs.tocTitle.apply(toc) : null;
            if (v !== null) page.tocTitle = v;
          }
          if (page.kind === 'document' && segs.markdown !== null && segs.body) {
            const assembled = await pool.run('translate.assemble', segs.markdown, glossary, segs.body.map(target));
            if (assembled.kept > 0) {
              kept += assembled.kept;
              warnings.push({
                code: 'TRANSLATION_MARKUP_LOST',
                message: `${assembled.kept} segment(s) of page ${page.id} came back from the engine without their marks or links: kept in the source language`,
                pageId: page.id,
              });
            }
            const decoded = await pool.run('page.decode', assembled.markdown);
            const fields = decoded.fields;
            page.markdown = assembled.markdown;
            page.frontMatter = fields.frontMatter;
            if (fields.description !== undefined) page.description = fields.description;
            if (fields.title !== undefined && page.titleSource === 'heading') page.title = fields.title;
            else if (translatedTitle !== null) page.title = translatedTitle;
            page.derived = fieldsFingerprint(fields);
          } else if (translatedTitle !== null) {
            page.title = translatedTitle;
          }
        }

        const resultSpaceId = await resultSpace(store, t, input.run);
        const space = await store.spaces.get(resultSpaceId);
        const fileBytes = new Map<string, { hash: string }>();
        for (const [id, hash] of loaded.fileHashes) fileBytes.set(id, { hash });
        const rawPageBytes = new Map<string, { hash: string }>();
        for (const page of flattenPages(model.pages)) {
          if (page.kind === 'document' && page.markdown === null && page.git?.oid) {
            const hash = loaded.hashByGitOid.get(page.git.oid);
            if (hash) rawPageBytes.set(page.id, { hash });
          }
        }
        const { id: resultRevisionId } = await store.revisions.create(
          modelToRevisionInput(model, {
            spaceId: resultSpaceId,
            parents: space?.revisionId ? [space.revisionId] : [],
            type: 'translation',
            idempotencyKey: `translation/${t.id}/run/${input.run}`,
            fileBytes,
            rawPageBytes,
          }),
        );
        if (space?.revisionId !== resultRevisionId) {
          await store.spaces.setPrimaryRevision(resultSpaceId, resultRevisionId).catch(async (err: unknown) => {
            const now = await store.spaces.get(resultSpaceId);
            if (now?.revisionId !== resultRevisionId) throw err;
          });
        }
        await store.translations.completeRun(t.id, input.run, { resultRevisionId, warnings: warnings.slice(0, 100) });
        return { resultSpaceId, resultRevisionId, kept };
      } catch (err) {
        failure(err);
      } finally {
        clearInterval(beat);
      }
    },

    /** Records a failed run with its code and reason (the last result revision stays). */
    /** Records the failure; `recorded: false` when the translation was deleted meanwhile (nothing left to record). */
    async translationFailRun(input: { translationId: string; run: number; code: string; message: string }): Promise<{ recorded: boolean }> {
      const run = await store.translations.failRun(input.translationId, input.run, { code: input.code, message: input.message });
      return { recorded: run !== null };
    },
  };
}

function flattenRecords(pages: PageRecord[]): PageRecord[] {
  const out: PageRecord[] = [];
  const walk = (list: PageRecord[]) => {
    for (const p of list) {
      out.push(p);
      walk(p.children);
    }
  };
  walk(pages);
  return out;
}

/** The result space: created on the first run (its id derived from the translation's, so a retry finds it). */
async function resultSpace(store: Store, t: TranslationRecord, run: number): Promise<string> {
  if (t.resultSpaceId) {
    const existing = await store.spaces.get(t.resultSpaceId);
    if (existing && existing.organizationId === t.organizationId) return existing.id;
  }
  // None yet, or the user deleted it: a new one (a deleted one is never written to).
  const id = t.resultSpaceId ? `${t.id}-r${run}` : `${t.id}-result`;
  let space = await store.spaces.get(id, { includeDeleted: true });
  if (!space) {
    const source = await store.spaces.get(t.sourceSpaceId, { includeDeleted: true });
    space = await store.spaces
      .create(t.organizationId, { id, title: `${source?.title ?? 'Untitled'} (${t.language})`, language: t.language })
      .catch(async (err: unknown) => {
        const now = await store.spaces.get(id, { includeDeleted: true });
        if (!now) throw err;
        return now;
      });
  }
  return await store.translations.setResultSpace(t.id, space.id, { replace: t.resultSpaceId !== null });
}
