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

/** Words of a query that a misspelling can be corrected in: letters and digits, 3 characters or more, at most 6. */
function correctableWords(query: string): string[] {
  return [...new Set(query.toLowerCase().match(/[\p{L}\p{N}_]{3,64}/gu) ?? [])].slice(0, 6);
}

/**
 * `searchPages` with typo tolerance: when the query finds nothing, each of its words is replaced by the closest
 * indexed word (trigram similarity, `store.search.similarWord`) and the corrected query is searched;
 * `corrected` is that query when it found something. Web-search operators are dropped from a corrected query.
 * Not for CJK queries (bigrams already match partially).
 */
export async function searchPagesTolerant(
  store: Pick<Store, 'search'>,
  query: SearchQuery,
): Promise<CountedPage<PageHit> & { spaces: number; corrected?: string }> {
  const found = await searchPages(store, query);
  if (found.items.length > 0 || query.page !== undefined || hasCjk(query.query)) return found;
  const words = correctableWords(query.query);
  if (words.length === 0) return found;
  const scope = { organizationId: query.organizationId, ...(query.spaceIds ? { spaceIds: query.spaceIds } : {}) };
  const replaced = await Promise.all(words.map(async (word) => (await store.search.similarWord({ ...scope, word })) ?? word));
  if (replaced.every((w, i) => w === words[i])) return found;
  const corrected = replaced.join(' ');
  const second = await searchPages(store, { ...query, query: corrected });
  return second.items.length > 0 ? { ...second, corrected } : found;
}
