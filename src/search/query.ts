import { ValidationError } from '../errors.js';
import type { CountedPage, SearchPageHit, SearchQuery, Store } from '../store/index.js';
import { hasCjk, queryTerms, queryText } from './text.js';

/** A matching section as the API shows it: always a snippet. */
export interface SectionHit {
  anchor: string;
  title: string;
  /** Matched words between `<mark>` and `</mark>`, the rest HTML-escaped. */
  snippet: string;
  score: number;
}

export type PageHit = Omit<SearchPageHit, 'sections'> & { sections: SectionHit[] };

function escapeHtml(text: string): string {
  return text.replace(/[&<>"]/g, (c) => (c === '&' ? '&amp;' : c === '<' ? '&lt;' : c === '>' ? '&gt;' : '&quot;'));
}

/** The snippet PostgreSQL cannot make for CJK queries: a window around the first match, every match marked. */
export function cjkSnippet(body: string, terms: string[]): string {
  const lower = body.toLowerCase();
  const found = terms.map((t) => lower.indexOf(t.toLowerCase())).filter((i) => i >= 0);
  const first = found.length > 0 ? Math.min(...found) : 0;
  const start = Math.max(0, first - 40);
  const window = body.slice(start, start + 160);
  let out = escapeHtml(window);
  for (const term of [...terms].sort((a, b) => b.length - a.length)) {
    const escaped = escapeHtml(term).replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    out = out.replace(new RegExp(escaped, 'giu'), (m) => `<mark>${m}</mark>`);
  }
  return `${start > 0 ? '… ' : ''}${out}${start + 160 < body.length ? ' …' : ''}`;
}

/**
 * Ranked pages of an organization's (or some of its spaces') indexes, with their matching sections and snippets.
 * A query with Chinese, Japanese or Korean runs searches their bigrams as phrases (./text.ts) and is highlighted
 * here, since PostgreSQL's headline cannot mark bigrams.
 */
export async function searchPages(store: Pick<Store, 'search'>, query: SearchQuery): Promise<CountedPage<PageHit> & { spaces: number }> {
  if (typeof query.query !== 'string' || query.query.trim() === '') throw new ValidationError('query must not be empty', { field: 'query' });
  if (query.query.length > 512) throw new ValidationError('query must be at most 512 characters', { field: 'query' });
  const cjk = hasCjk(query.query);
  const found = await store.search.pages({ ...query, query: cjk ? queryText(query.query) : query.query, cjk });
  const terms = cjk ? queryTerms(query.query) : [];
  const items = found.items.map((hit): PageHit => ({
    ...hit,
    sections: hit.sections.map((s) => ({ anchor: s.anchor, title: s.title, snippet: s.snippet ?? cjkSnippet(s.text ?? '', terms), score: s.score })),
  }));
  return { ...found, items };
}
