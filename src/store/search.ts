import { ValidationError } from '../errors.js';
import { decodeCursor, encodeCursor } from './cursor.js';
import { searchConfigResolver } from './search-config.js';
import { buildSnippet, candidateWords, positiveLexemes, queryLexemes, tokenize } from './search-snippet.js';
import type { SearchIndexApply, SearchPageHit, SearchQuery, SearchStore, Sql, SqlParam } from './types/index.js';

/** Weights of D, C, B, A for `ts_rank_cd`: page title (A) far above headings (B) above body text (C). */
const WEIGHTS = '{0.05, 0.2, 0.5, 1.0}';
const ROWS_PER_INSERT = 500;
/** Sections whose words are compared with a misspelled word (the closest by word similarity). */
const SIMILAR_CANDIDATES = 10;

interface PageRow {
  space_id: string;
  page_id: string;
  title: string;
  description: string;
  path: string;
  ancestors: string[] | string;
  score: number | string;
}

/** A row of the search statement: a page shown, and one of its matching sections (none: all `section_` columns null). */
interface ResultRow extends PageRow {
  /** The page's own section (ord 0, before its first heading) matches: a page result, else a section result. */
  page_best: boolean;
  total: string | number;
  spaces: string | number;
  section_ord: number | null;
  section_score: number | string | null;
  section_anchor: string | null;
  section_title: string | null;
  body: string | null;
}

function checkQuery(q: SearchQuery): { limit: number; offset: number; text: string } {
  if (typeof q.query !== 'string' || q.query.trim() === '') throw new ValidationError('query must not be empty', { field: 'query' });
  // The query as src/search/ prepared it: CJK runs as phrases of bigrams, up to four times the 512 characters asked.
  if (q.query.length > 2048) throw new ValidationError('query must be at most 2048 characters', { field: 'query' });
  if (!Number.isInteger(q.limit) || q.limit < 1 || q.limit > 1000) throw new ValidationError('limit must be an integer from 1 to 1000', { limit: q.limit });
  const offset = decodeCursor('search', q.page) ?? 0;
  return { limit: q.limit, offset, text: q.query };
}

/** The spaces searched, each with its query parsed by its own configuration (as text: a constant of the queries below). */
const SPACES_SQL = `
SELECT st.space_id, st.config, websearch_to_tsquery(st.config::regconfig, $2)::text AS query
FROM search_index_state st JOIN spaces s ON s.id = st.space_id
WHERE s.organization_id = $1 AND s.deleted_at IS NULL AND ($3::text[] IS NULL OR st.space_id = ANY($3::text[]))`;

/** Spaces whose query parses the same (one configuration, usually): searched together. */
interface Scope {
  config: string;
  query: string;
  spaceIds: string[];
}

/** A `tsquery` finding any of `lexemes` (with `suffix`) in a section's prominent words (`dense`, migration 031); null when there is none. */
function anyOf(lexemes: string[], suffix: string): string | null {
  if (lexemes.length === 0) return null;
  return lexemes.map((l) => `'${(l + suffix).replace(/\\/g, '\\\\').replace(/'/g, "''")}'`).join(' | ');
}

/**
 * The matching sections of the scopes as one `UNION ALL` (columns space_id, page_id, ord, q: the scope's query),
 * and the sections of the scopes where a word of the query is prominent (columns space_id, page_id, ord, top: it is
 * very prominent). Each scope's query is a parameter: with a constant query the planner estimates its selectivity
 * from the statistics and takes the GIN indexes (`search_sections_document`, `search_sections_prominent`) when
 * the words are rare, instead of filtering every section of the spaces through the primary key. Parameters from
 * `$first`, four per scope. No section's `document` is read here (a query of words needs no recheck of the index's
 * matches) and no function runs on every match.
 */
function scopeMatches(scopes: Scope[], first: number): { matches: string; prominent: string; params: SqlParam[] } {
  const params: SqlParam[] = [];
  const matches: string[] = [];
  const prominent: string[] = [];
  scopes.forEach((scope, i) => {
    const n = first + 4 * i;
    const lexemes = positiveLexemes(scope.query);
    params.push(scope.query, scope.spaceIds, anyOf(lexemes, ''), anyOf(lexemes, ' 2'));
    matches.push(`SELECT x.space_id, x.page_id, x.ord, $${n}::tsquery AS q
     FROM search_sections x WHERE x.document @@ $${n}::tsquery AND x.space_id = ANY($${n + 1}::text[])`);
    // No word to look for (only negated ones): a null query, no prominent section.
    prominent.push(`SELECT x.space_id, x.page_id, x.ord, x.dense @@ $${n + 3}::tsquery AS top
     FROM search_sections x WHERE x.dense @@ $${n + 2}::tsquery AND x.space_id = ANY($${n + 1}::text[])`);
  });
  const union = (parts: string[]) => parts.join('\n     UNION ALL\n     ');
  return { matches: union(matches), prominent: union(prominent), params };
}

/** Characters of a long section's text read for its snippet, from a little before its first word that could match (./search-snippet.ts). */
const SNIPPET_CHARS = 6000;
const SNIPPET_LEAD = 1000;

/**
 * A regular expression (PostgreSQL's, case-insensitive) finding the first word that could match the query in a
 * section's text (CJK: the first of its bigrams, anywhere); null when none can.
 */
function firstWordPattern(found: Scope[], cjk: boolean): string | null {
  const lexemes = found.flatMap((scope) => positiveLexemes(scope.query));
  const parts = new Set((cjk ? lexemes : lexemes.map((l) => l.slice(0, 2))).filter((p) => p !== ''));
  if (parts.size === 0) return null;
  const alternatives = [...parts].map((p) => p.replace(/[^\p{L}\p{N}]/gu, (c) => `\\${c}`)).join('|');
  return cjk ? `(${alternatives})` : `(^|[^[:alnum:]_])(${alternatives})`;
}

/** Pages ranked exactly (by `ts_rank_cd` over every matching section's `document`): at least this many, or all the pages up to the one asked. */
const RANKED_PAGES = 200;

/**
 * The ranked pages of the scopes (one more than `limit`, for the cursor), each with the count of all pages and of
 * their spaces, and, for the first `limit` of them, one row per matching section (best first) with its text (its
 * snippet is made from it: ./search-snippet.ts; CJK: src/search/query.ts). One statement, in two stages: the
 * matching sections and those where a word of the query is prominent come from the indexes alone; the pages with
 * the most very prominent, then prominent, then matching sections (`RANKED_PAGES` of them, or up to the page
 * asked) are ranked exactly, by `ts_rank_cd` over their matching sections' whole `document`, as every page was
 * before: the same order whenever fewer pages match; when more do, only a page whose words are nowhere prominent
 * can be left out of the ranking among many where they are (it is still counted). Only the sections of the pages
 * shown are read again, by primary key, for their text.
 */
function pagesStatement(found: Scope[], limit: number, offset: number, cjk: boolean): { text: string; params: SqlParam[] } {
  const stage = scopeMatches(found, 6);
  return {
    text: `WITH matches AS MATERIALIZED (
      ${stage.matches}
    ),
    prominent AS MATERIALIZED (
      ${stage.prominent}
    ),
    pages AS MATERIALIZED (
      SELECT m.space_id, m.page_id, count(*) AS n, count(p.ord) AS prominent, count(*) FILTER (WHERE p.top) AS top
      FROM matches m LEFT JOIN prominent p ON p.space_id = m.space_id AND p.page_id = m.page_id AND p.ord = m.ord
      GROUP BY m.space_id, m.page_id
    ),
    candidates AS (
      SELECT space_id, page_id FROM pages ORDER BY top DESC, prominent DESC, n DESC, space_id, page_id LIMIT $4
    ),
    hits AS MATERIALIZED (
      SELECT m.space_id, m.page_id, m.ord, ts_rank_cd('${WEIGHTS}', x.document, m.q) AS score
      FROM candidates c JOIN matches m ON m.space_id = c.space_id AND m.page_id = c.page_id
      JOIN search_sections x ON x.space_id = m.space_id AND x.page_id = m.page_id AND x.ord = m.ord
    ),
    ranked AS (
      SELECT space_id, page_id, bool_or(ord = 0) AS page_best,
             max(score) + 0.1 * ln(count(*)) AS score
      FROM hits GROUP BY space_id, page_id
    ),
    top AS (
      SELECT r.space_id, r.page_id, r.page_best, r.score, p.title, p.description, p.path, p.ancestors, p.ord AS page_ord,
             (SELECT count(*) FROM pages) AS total, (SELECT count(DISTINCT space_id) FROM pages) AS spaces,
             row_number() OVER (ORDER BY r.score DESC, r.space_id, p.ord) AS n
      FROM ranked r JOIN search_pages p ON p.space_id = r.space_id AND p.page_id = r.page_id
      ORDER BY n
      LIMIT $1 OFFSET $2
    )
    SELECT t.space_id, t.page_id, t.page_best, t.score, t.title, t.description, t.path, t.ancestors, t.total, t.spaces,
           h.ord AS section_ord, h.score AS section_score, x.anchor AS section_anchor, x.title AS section_title,
           CASE WHEN length(x.body) <= ${SNIPPET_CHARS} THEN x.body
                ELSE substr(x.body, greatest(1, regexp_instr(x.body, $5, 1, 1, 0, 'i') - ${SNIPPET_LEAD}), ${SNIPPET_CHARS}) END AS body
    FROM top t
    LEFT JOIN hits h ON t.n <= $3 AND h.space_id = t.space_id AND h.page_id = t.page_id
    LEFT JOIN search_sections x ON x.space_id = h.space_id AND x.page_id = h.page_id AND x.ord = h.ord
    ORDER BY t.n, h.score DESC, h.ord`,
    params: [limit + 1, offset, offset + limit, Math.max(RANKED_PAGES, offset + limit + 1), firstWordPattern(found, cjk), ...stage.params],
  };
}

const GIN_INDEXES = ['search_sections_document', 'search_sections_prominent', 'search_sections_body_trgm', 'search_sections_title_trgm'];

/** Rows written or removed since the last `ANALYZE` after which the next one runs: at least this, or a tenth of the table. */
const ANALYZE_AFTER_ROWS = 500;

/**
 * Vacuums the index tables and refreshes their statistics once enough rows changed (PGlite has no autovacuum): without
 * statistics the planner takes a freshly indexed space for a few hundred rows and filters it all instead of using the
 * GIN index. Bounded: not after every small change, one at a time; a failure is retried with the next change.
 * Counts the rows changed since the last `ANALYZE` of the index tables (this process's writes; a server's
 * autovacuum does the rest).
 */
function createStatisticsRefresher(sql: Sql): (rows: number) => Promise<void> {
  let changedRows = 0;
  let analyzing: Promise<void> | null = null;
  return async function analyzeIfChanged(rows: number): Promise<void> {
    changedRows += rows;
    if (analyzing || changedRows < ANALYZE_AFTER_ROWS) return;
    const [est] = await sql.query<{ n: number | string }>(`SELECT greatest(reltuples, 0)::bigint AS n FROM pg_class WHERE oid = 'search_sections'::regclass`);
    if (changedRows < Number(est?.n ?? 0) / 10) return;
    const counted = changedRows;
    analyzing = (async () => {
      // PGlite has no autovacuum: without a vacuum, every re-indexed page leaves its old rows behind and the
      // tables grow with each import. VACUUM also merges the GIN pending lists (below: already merged, at no cost).
      await sql.query('VACUUM (ANALYZE) search_sections, search_pages');
      // GIN indexes take new entries into a pending list that every search reads in full until it is merged
      // (by autovacuum on a server; PGlite has none): merged here.
      await sql.query(`SELECT gin_clean_pending_list(i::regclass) FROM unnest($1::text[]) AS i`, [GIN_INDEXES]);
      changedRows -= counted;
    })().finally(() => {
      analyzing = null;
    });
    await analyzing;
  };
}

/** The pages of one chunk of `upsert`. */
async function insertPages(tx: Sql, spaceId: string, chunk: SearchIndexApply['upsert']): Promise<void> {
  await tx.query(
    `INSERT INTO search_pages (space_id, page_id, content_key, ord, title, description, path, ancestors)
     SELECT $1, u.page_id, u.content_key, u.ord, u.title, u.description, u.path, u.ancestors::jsonb
     FROM unnest($2::text[], $3::text[], $4::int[], $5::text[], $6::text[], $7::text[], $8::text[]) AS u(page_id, content_key, ord, title, description, path, ancestors)`,
    [
      spaceId,
      chunk.map((p) => p.pageId),
      chunk.map((p) => p.contentKey),
      chunk.map((p) => p.ord),
      chunk.map((p) => p.title),
      chunk.map((p) => p.description),
      chunk.map((p) => p.path),
      chunk.map((p) => JSON.stringify(p.ancestors)),
    ],
  );
}

/** The sections of the pages of one chunk of `upsert`; returns how many were written. */
async function insertSections(tx: Sql, spaceId: string, config: string, chunk: SearchIndexApply['upsert']): Promise<number> {
  const rows: string[][] = [[], [], [], [], [], [], [], []];
  const ords: number[] = [];
  for (const page of chunk) {
    page.sections.forEach((s, ord) => {
      rows[0]!.push(page.pageId);
      ords.push(ord);
      rows[1]!.push(s.anchor);
      rows[2]!.push(s.title);
      rows[3]!.push(s.body);
      rows[4]!.push(s.indexed.a);
      rows[5]!.push(s.indexed.b);
      rows[6]!.push(s.indexed.c);
    });
  }
  for (let j = 0; j < ords.length; j += ROWS_PER_INSERT) {
    const slice = (a: string[]) => a.slice(j, j + ROWS_PER_INSERT);
    const params: SqlParam[] = [spaceId, config, ...rows.slice(0, 7).map(slice), ords.slice(j, j + ROWS_PER_INSERT)];
    await tx.query(
      `INSERT INTO search_sections (space_id, page_id, ord, anchor, title, body, document, dense)
       SELECT $1, u.page_id, u.ord, u.anchor, u.title, u.body, d.doc, search_prominent(d.doc)
       FROM unnest($3::text[], $10::int[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[], $9::text[]) AS u(page_id, ord, anchor, title, body, wa, wb, wc),
            LATERAL (SELECT setweight(to_tsvector($2::regconfig, u.wa), 'A') || setweight(to_tsvector($2::regconfig, u.wb), 'B') || setweight(to_tsvector($2::regconfig, u.wc), 'C') AS doc) d`,
      params,
    );
  }
  return ords.length;
}

/**
 * Writes the index of one space revision in one transaction: the state row, then the pages no longer there go,
 * the kept pages take their new order, and the new or changed pages and their sections are written.
 */
async function applyIndex(sql: Sql, input: SearchIndexApply): Promise<{ applied: boolean; removed: number; written: number; changed: number }> {
  return sql.transaction(async (tx) => {
    // The space row is locked so that the check below holds until commit: a newer primary revision waits.
    const [space] = await tx.query<{ revision_id: string | null; deleted_at: unknown; organization_id: string }>(
      'SELECT revision_id, deleted_at, organization_id FROM spaces WHERE id = $1 FOR UPDATE',
      [input.spaceId],
    );
    if (!space || space.deleted_at !== null || space.revision_id !== input.revisionId || space.organization_id !== input.organizationId)
      return { applied: false, removed: 0, written: 0, changed: 0 };
    await tx.query(
      `INSERT INTO search_index_state (space_id, organization_id, revision_id, config, page_count, indexed_at) VALUES ($1, $2, $3, $4, $5, now())
       ON CONFLICT (space_id) DO UPDATE SET revision_id = EXCLUDED.revision_id, config = EXCLUDED.config, page_count = EXCLUDED.page_count, indexed_at = now()`,
      [input.spaceId, input.organizationId, input.revisionId, input.config, input.keep.length + input.upsert.length],
    );
    const keepIds = input.keep.map((k) => k.pageId);
    const removed = await tx.query('DELETE FROM search_pages WHERE space_id = $1 AND NOT (page_id = ANY($2::text[])) RETURNING page_id', [
      input.spaceId,
      keepIds,
    ]);
    if (input.keep.length > 0)
      await tx.query(
        `UPDATE search_pages p SET ord = u.ord FROM unnest($2::text[], $3::int[]) AS u(page_id, ord)
         WHERE p.space_id = $1 AND p.page_id = u.page_id AND p.ord <> u.ord`,
        [input.spaceId, keepIds, input.keep.map((k) => k.ord)],
      );
    // Rows changed, for the statistics: removed pages (their sections went with them) and sections written.
    let changed = removed.length;
    for (let i = 0; i < input.upsert.length; i += ROWS_PER_INSERT) {
      const chunk = input.upsert.slice(i, i + ROWS_PER_INSERT);
      await insertPages(tx, input.spaceId, chunk);
      changed += await insertSections(tx, input.spaceId, input.config, chunk);
    }
    return { applied: true, removed: removed.length, written: input.upsert.length, changed };
  });
}

/** Writing the index: the search configuration of a space, what is indexed, and applying a new revision. */
function createSearchIndexStore(sql: Sql): Pick<SearchStore, 'configFor' | 'state' | 'apply'> {
  const analyzeIfChanged = createStatisticsRefresher(sql);
  return {
    configFor: searchConfigResolver(sql),

    async state(spaceId) {
      const [state] = await sql.query<{ revision_id: string; config: string }>('SELECT revision_id, config FROM search_index_state WHERE space_id = $1', [
        spaceId,
      ]);
      if (!state) return null;
      const rows = await sql.query<{ page_id: string; content_key: string }>('SELECT page_id, content_key FROM search_pages WHERE space_id = $1', [spaceId]);
      return { revisionId: state.revision_id, config: state.config, keys: new Map(rows.map((r) => [r.page_id, r.content_key])) };
    },

    async apply(input) {
      const result = await applyIndex(sql, input);
      if (result.applied) await analyzeIfChanged(result.changed);
      return { applied: result.applied, removed: result.removed, written: result.written };
    },
  };
}

/** The spaces searched, grouped by their text search configuration and parsed query. */
async function scopes(sql: Sql, query: SearchQuery, text: string): Promise<Scope[]> {
  const rows = await sql.query<{ space_id: string; config: string; query: string }>(SPACES_SQL, [query.organizationId, text, query.spaceIds ?? null]);
  const byQuery = new Map<string, Scope>();
  // An empty query (only stop words) finds nothing in its spaces.
  for (const row of rows) {
    if (row.query === '') continue;
    const key = `${row.config}\u0000${row.query}`;
    const scope = byQuery.get(key) ?? { config: row.config, query: row.query, spaceIds: [] };
    scope.spaceIds.push(row.space_id);
    byQuery.set(key, scope);
  }
  return [...byQuery.values()];
}

/**
 * The snippets of the sections of the result rows (CJK queries: none, src/search/ marks their bigrams): the words of
 * their text that could match normalised by their space's configuration in one statement per configuration.
 */
async function snippets(sql: Sql, rows: ResultRow[], found: Scope[], cjk: boolean): Promise<Map<ResultRow, string>> {
  const out = new Map<ResultRow, string>();
  if (cjk) return out;
  const scopeOf = new Map(found.flatMap((scope) => scope.spaceIds.map((id) => [id, scope] as const)));
  const byConfig = new Map<string, { lexemes: Set<string>; rows: ResultRow[] }>();
  for (const row of rows) {
    const scope = scopeOf.get(row.space_id);
    if (row.body === null || !scope) continue;
    const group = byConfig.get(scope.config) ?? { lexemes: new Set<string>(), rows: [] };
    for (const lexeme of queryLexemes(scope.query)) group.lexemes.add(lexeme);
    group.rows.push(row);
    byConfig.set(scope.config, group);
  }
  for (const [config, group] of byConfig) {
    const lexemes = [...group.lexemes];
    const texts = group.rows.map((r) => tokenize(r.body!, lexemes));
    const words = candidateWords(texts, lexemes);
    const normalised = words.length
      ? await sql.query<{ w: string; lx: string[] }>(`SELECT w, tsvector_to_array(to_tsvector($1::regconfig, w)) AS lx FROM unnest($2::text[]) AS w`, [
          config,
          words,
        ])
      : [];
    const matched = new Map(normalised.map((r) => [r.w, r.lx.find((l) => group.lexemes.has(l)) ?? null]));
    group.rows.forEach((row, i) =>
      out.set(
        row,
        buildSnippet(texts[i]!, (w) => matched.get(w) ?? null),
      ),
    );
  }
  return out;
}

/** The pages of the result rows (one per matching section of a page shown, in order), with their sections. */
function pageHits(rows: ResultRow[], limit: number, offset: number, shown: Map<ResultRow, string>): SearchPageHit[] {
  const items: SearchPageHit[] = [];
  let last: SearchPageHit | undefined;
  for (const row of rows) {
    if (last?.spaceId !== row.space_id || last.pageId !== row.page_id) {
      if (items.length === limit) break;
      last = {
        spaceId: row.space_id,
        pageId: row.page_id,
        title: row.title,
        description: row.description,
        path: row.path,
        ancestors: typeof row.ancestors === 'string' ? (JSON.parse(row.ancestors) as string[]) : row.ancestors,
        score: Number(row.score),
        rank: offset + items.length + 1,
        resultType: row.page_best ? 'page' : 'section',
        sections: [],
      };
      items.push(last);
    }
    if (row.section_ord === null) continue;
    last.sections.push({
      anchor: row.section_anchor!,
      title: row.section_title!,
      snippet: shown.get(row) ?? null,
      text: shown.has(row) ? null : row.body,
      score: Number(row.section_score),
    });
  }
  return items;
}

async function searchPages(sql: Sql, query: SearchQuery): ReturnType<SearchStore['pages']> {
  const { limit, offset, text } = checkQuery(query);
  const found = await scopes(sql, query, text);
  if (found.length === 0) return { items: [], total: 0, spaces: 0 };
  const statement = pagesStatement(found, limit, offset, query.cjk === true);
  const rows = await sql.query<ResultRow>(statement.text, statement.params);
  const items = pageHits(rows, limit, offset, await snippets(sql, rows, found, query.cjk === true));
  const more = new Set(rows.map((r) => `${r.space_id}\u0000${r.page_id}`)).size > limit;
  // Over every page (window and subquery run before LIMIT); a page past the end (the index changed) counts nothing.
  const total = Number(rows[0]?.total ?? 0);
  const spaces = Number(rows[0]?.spaces ?? 0);
  return more ? { items, next: { page: encodeCursor('search', offset + limit) }, total, spaces } : { items, total, spaces };
}

/** Reading the index: ranked pages, the plan of that query, a word like a misspelled one, and a plain substring scan. */
function createSearchQueryStore(sql: Sql): Pick<SearchStore, 'pages' | 'explain' | 'similarWord' | 'scanPages'> {
  return {
    pages: (query) => searchPages(sql, query),

    async explain(query) {
      const { limit, offset, text } = checkQuery(query);
      const found = await scopes(sql, query, text);
      if (found.length === 0) return null;
      const statement = pagesStatement(found, limit, offset, query.cjk === true);
      const rows = await sql.query<Record<string, string>>(`EXPLAIN ${statement.text}`, statement.params);
      return rows.map((row) => Object.values(row).join(' ')).join('\n');
    },

    async similarWord(query) {
      const word = query.word.trim().toLowerCase();
      if (word.length < 3 || word.length > 64) return null;
      // Sections holding a word like it (trigram indexes), then the closest of their words.
      const [row] = await sql.query<{ w: string }>(
        `WITH cand AS (
           SELECT x.title, x.body FROM search_sections x JOIN spaces s ON s.id = x.space_id
           WHERE s.organization_id = $1 AND s.deleted_at IS NULL AND ($2::text[] IS NULL OR x.space_id = ANY($2::text[]))
             AND ($3 <% x.body OR $3 <% x.title)
           ORDER BY greatest(word_similarity($3, x.title), word_similarity($3, x.body)) DESC
           LIMIT ${SIMILAR_CANDIDATES}
         ),
         words AS (
           SELECT DISTINCT w FROM cand, regexp_split_to_table(lower(cand.title || ' ' || cand.body), '[^[:alnum:]_]+') AS w
           WHERE length(w) >= 3 AND length(w) <= 64
         )
         SELECT w FROM words WHERE w % $3 ORDER BY similarity(w, $3) DESC, w LIMIT 1`,
        [query.organizationId, query.spaceIds ?? null, word],
      );
      return row?.w ?? null;
    },

    async scanPages(query) {
      checkQuery(query);
      const pattern = `%${query.query.trim().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
      return (
        await sql.query<{ space_id: string; page_id: string }>(
          `SELECT DISTINCT x.space_id, x.page_id
           FROM search_sections x JOIN spaces s ON s.id = x.space_id
           WHERE s.organization_id = $1 AND s.deleted_at IS NULL AND ($2::text[] IS NULL OR x.space_id = ANY($2::text[]))
             AND (x.title ILIKE $3 OR x.body ILIKE $3)`,
          [query.organizationId, query.spaceIds ?? null, pattern],
        )
      ).map((r) => ({ spaceId: r.space_id, pageId: r.page_id }));
    },
  };
}

export function createSearchStore(sql: Sql): SearchStore {
  return { ...createSearchIndexStore(sql), ...createSearchQueryStore(sql) };
}
