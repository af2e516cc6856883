/**
 * The run's assembly: every page of the source revision's model reassembled from the translation memory (titles,
 * descriptions, table-of-contents titles, markdown through the parse pool), in place. What cannot be translated is
 * kept in the source language, with a warning.
 */
import { fieldsFingerprint, type PageModel } from '../../format/index.js';
import { isFolioError } from '../../errors.js';
import type { ParsePool } from '../../parse-threads/pool.js';
import { flattenPages } from '../../revision/records.js';
import { memoryKeyString, type TranslationRecord } from '../../store/index.js';
import type { GlossaryTerm } from '../markup.js';
import type { Segment } from '../segments.js';
import { keyOf, type TranslationRunDeps } from './context.js';
import { allSegments, pageSegments, type PageSegments } from './segments.js';

export interface RunWarning {
  code: string;
  message: string;
  pageId?: string;
}

export interface Assembly {
  readonly deps: TranslationRunDeps;
  readonly pool: ParsePool;
  readonly t: TranslationRecord;
  readonly sourceRevisionId: string;
  readonly glossary: GlossaryTerm[];
  readonly pair: string;
  readonly warnings: RunWarning[];
  /** Segments the engine answered without their marks or links (kept in the source language). */
  kept: number;
}

/** Each page of `pages` (flattened) translated in place. */
export async function assemblePages(a: Assembly, pages: PageModel[]): Promise<void> {
  for (const page of flattenPages(pages)) {
    const segs = await pageSegments(a.pool, a.deps.store, a.sourceRevisionId, page, a.glossary).catch((err: unknown) => {
      if (isFolioError(err) && err.code === 'PARSE_BUDGET_EXCEEDED') {
        a.warnings.push({ code: 'TRANSLATION_PAGE_TOO_COMPLEX', message: `page ${page.id} is over the parse budget: kept untranslated`, pageId: page.id });
        return null;
      }
      throw err;
    });
    const target = await memoryTargets(a, page, segs);
    if (segs) await translatePage(a, page, segs, target);
  }
}

/** The memory's translation of each segment of the page (null: none, or not translatable); warns of those missing. */
async function memoryTargets(a: Assembly, page: PageModel, segs: PageSegments | null): Promise<(s: Segment) => string | null> {
  const all = segs ? allSegments(segs) : [];
  const known = await a.deps.store.translations.memory.lookup(
    a.t.organizationId,
    all.filter((s) => s.translatable).map((s) => keyOf(s, a.pair)),
  );
  const target = (s: Segment): string | null => (s.translatable ? (known.get(memoryKeyString(keyOf(s, a.pair))) ?? null) : null);
  const missing = all.filter((s) => s.translatable && target(s) === null).length;
  if (missing > 0)
    a.warnings.push({
      code: 'TRANSLATION_SEGMENT_MISSING',
      message: `${missing} segment(s) of page ${page.id} have no translation: kept in the source language`,
      pageId: page.id,
    });
  return target;
}

async function translatePage(a: Assembly, page: PageModel, segs: PageSegments, target: (s: Segment) => string | null): Promise<void> {
  const titleTarget = target(segs.title.segment);
  const translatedTitle = titleTarget !== null ? segs.title.apply(titleTarget) : null;
  if (segs.tocTitle && page.kind === 'document') {
    const toc = target(segs.tocTitle.segment);
    const v = toc !== null ? segs.tocTitle.apply(toc) : null;
    if (v !== null) page.tocTitle = v;
  }
  if (page.kind === 'document' && segs.markdown !== null && segs.body) {
    const assembled = await a.pool.run('translate.assemble', segs.markdown, a.glossary, segs.body.map(target));
    if (assembled.kept > 0) {
      a.kept += assembled.kept;
      a.warnings.push({
        code: 'TRANSLATION_MARKUP_LOST',
        message: `${assembled.kept} segment(s) of page ${page.id} came back from the engine without their marks or links: kept in the source language`,
        pageId: page.id,
      });
    }
    const decoded = await a.pool.run('page.decode', assembled.markdown);
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
