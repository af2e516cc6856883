/**
 * The segments of one page (the run's extraction phase): its title (and table-of-contents title), then its
 * markdown's, extracted in the parse pool. A page of the store (its body read from the revision) or of a loaded
 * revision model (its markdown in memory).
 */
import type { PageModel } from '../../format/index.js';
import type { ParsePool } from '../../parse-threads/pool.js';
import type { PageRecord, Store } from '../../store/index.js';
import type { GlossaryTerm } from '../markup.js';
import { textSegment, type Segment } from '../segments.js';

export interface PageSegments {
  title: ReturnType<typeof textSegment>;
  tocTitle?: ReturnType<typeof textSegment>;
  body: Segment[] | null;
  markdown: string | null;
}

export async function pageSegments(
  pool: ParsePool,
  store: Store,
  revisionId: string,
  page: PageRecord | PageModel,
  terms: GlossaryTerm[],
): Promise<PageSegments> {
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

export function allSegments(p: PageSegments): Segment[] {
  return [p.title.segment, ...(p.tocTitle ? [p.tocTitle.segment] : []), ...(p.body ?? [])];
}
