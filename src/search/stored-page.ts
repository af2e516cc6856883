import type { SearchPageInput, SearchSectionInput } from '../store/index.js';
import type { SearchSection } from './sections.js';
import { indexableText } from './text.js';

/** Longest text of one section that is indexed (a tsvector holds at most 1 MB). */
export const MAX_SECTION_CHARS = 200_000;

/** A page to index, before its sections are prepared for the store. */
export interface SearchPageDraft extends Omit<SearchPageInput, 'sections'> {
  sections: Array<Pick<SearchSection, 'anchor' | 'title' | 'body'>>;
}

/**
 * A page's rows as the store keeps them: the page's own section (its title, its description, the text before
 * its first heading) first and weighted A, B, C; every other section's heading weighted B and text C. CJK runs
 * are indexed as bigrams (./text.ts).
 */
export function storedPage(page: SearchPageDraft): SearchPageInput {
  const sections: SearchSectionInput[] = page.sections.map((s, ord) => {
    const body = s.body.slice(0, MAX_SECTION_CHARS);
    const own = ord === 0 && s.anchor === '';
    return {
      anchor: s.anchor,
      title: own ? page.title : s.title,
      body,
      indexed: { a: indexableText(own ? page.title : ''), b: indexableText(own ? page.description : s.title), c: indexableText(body) },
    };
  });
  return { ...page, sections };
}
