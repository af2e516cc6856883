import type { CountedPage } from './common.js';

/**
 * One heading section of a page (or, with `anchor` '', the page's text before its first heading), as stored:
 * src/search/ prepares it (the stored title and body, and the texts indexed with the weights A, B and C).
 */
export interface SearchSectionInput {
  anchor: string;
  title: string;
  body: string;
  indexed: { a: string; b: string; c: string };
}

/** A page to (re)index: its sections replace the ones indexed before. */
export interface SearchPageInput {
  pageId: string;
  /** What the page's rows were built from (body hash, title, path, ancestors…): unchanged key, rows kept. */
  contentKey: string;
  /** Position in the revision's page tree (depth first). */
  ord: number;
  title: string;
  description: string;
  path: string;
  /** Titles of the parent pages, top-level first. */
  ancestors: string[];
  sections: SearchSectionInput[];
}

/** What a space's index holds now. */
export interface SearchIndexState {
  revisionId: string;
  config: string;
  /** pageId → contentKey. */
  keys: Map<string, string>;
}

export interface SearchIndexApply {
  spaceId: string;
  organizationId: string;
  revisionId: string;
  config: string;
  /** Pages indexed before whose rows stay (their key is unchanged); `ord` may have moved. */
  keep: Array<{ pageId: string; ord: number }>;
  upsert: SearchPageInput[];
}

export interface SearchSectionHit {
  anchor: string;
  title: string;
  /** A snippet of the section's text; matched words between `<mark>` and `</mark>`, the rest HTML-escaped (null for a `cjk` query). */
  snippet: string | null;
  /** The section's text, for a `cjk` query (PostgreSQL's headline cannot mark bigrams): src/search/ makes the snippet. */
  text: string | null;
  score: number;
}

export interface SearchPageHit {
  spaceId: string;
  pageId: string;
  title: string;
  description: string;
  path: string;
  ancestors: string[];
  score: number;
  /** One-based position in the whole ranked result. */
  rank: number;
  /** `page`: the best match is the page's title, description or text before its first heading. */
  resultType: 'page' | 'section';
  /** The matching sections, best first. */
  sections: SearchSectionHit[];
}

export interface SearchQuery {
  organizationId: string;
  /** Only these spaces (of the organization); all of its spaces when absent. */
  spaceIds?: string[];
  /** Web-search syntax: words, "phrases", `or`, `-word` (CJK runs already as phrases of bigrams: src/search/text.ts). */
  query: string;
  /** The query has CJK runs: sections come back with their `text` instead of a snippet. */
  cjk?: boolean;
  limit: number;
  page?: string;
}

/** The search index of spaces' primary revisions; deleted spaces are never found, purged ones lose their rows. */
export interface SearchStore {
  /** `name` when the database has that text search configuration, else `simple`. */
  configFor(name: string): Promise<string>;
  /** null when the space was never indexed. */
  state(spaceId: string): Promise<SearchIndexState | null>;
  /**
   * Makes the space's index hold `revisionId`, in one transaction: pages absent from `keep` and `upsert` are
   * removed, `upsert` pages replace their rows. Refused (`applied: false`) when `revisionId` is no longer the
   * space's primary revision (a newer one will be indexed) or the space is gone or deleted.
   */
  apply(input: SearchIndexApply): Promise<{ applied: boolean; removed: number; written: number }>;
  /** Ranked pages with their matching sections and snippets. ValidationError for a bad cursor. */
  pages(query: SearchQuery): Promise<CountedPage<SearchPageHit> & { /** Spaces with a hit, over every page. */ spaces: number }>;
  /**
   * The indexed word closest to `word` (trigram similarity, `pg_trgm`) among the sections of the organization's
   * (or some of its spaces') indexes holding a word like it; null when none is close enough. Lower-cased.
   */
  similarWord(query: { organizationId: string; spaceIds?: string[]; word: string }): Promise<string | null>;
  /** The plan PostgreSQL makes for `pages` (`EXPLAIN`, text), for tests and operators; null when no space of the scope can match. */
  explain(query: SearchQuery): Promise<string | null>;
  /** The same pages found by a plain `ILIKE` scan of the indexed text, unranked (a benchmark's baseline). */
  scanPages(query: SearchQuery): Promise<Array<{ spaceId: string; pageId: string }>>;
}
