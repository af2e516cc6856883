/**
 * The parse cache (`parse_cache`): decoded page summaries (JSON text) by organization, converter version and
 * content key. Written with ON CONFLICT DO NOTHING: two imports decoding the same text store one row.
 */
import { insertRows } from './sql-helpers.js';
import type { ParseCacheStore, Sql } from './types/index.js';

/** Keys per lookup statement (one array parameter). */
const LOOKUP_CHUNK = 2000;

export function createParseCacheStore(sql: Sql): ParseCacheStore {
  return {
    async get(organizationId, converterVersion, keys) {
      const out = new Map<string, string>();
      const unique = [...new Set(keys)];
      for (let start = 0; start < unique.length; start += LOOKUP_CHUNK) {
        const rows = await sql.query<{ content_key: string; summary: string }>(
          `SELECT content_key, summary FROM parse_cache WHERE organization_id = $1 AND converter_version = $2 AND content_key = ANY($3::text[])`,
          [organizationId, converterVersion, unique.slice(start, start + LOOKUP_CHUNK)],
        );
        for (const r of rows) out.set(r.content_key, r.summary);
      }
      return out;
    },
    async put(organizationId, converterVersion, entries) {
      await insertRows(
        sql,
        'parse_cache',
        ['organization_id', 'converter_version', 'content_key', 'summary'],
        entries.map((e) => [organizationId, converterVersion, e.key, e.summary]),
        { suffix: 'ON CONFLICT DO NOTHING' },
      );
    },
    async pruneOtherVersions(converterVersion) {
      const rows = await sql.query<{ n: number | string }>(
        `WITH gone AS (DELETE FROM parse_cache WHERE converter_version <> $1 RETURNING 1) SELECT count(*) AS n FROM gone`,
        [converterVersion],
      );
      return Number(rows[0]?.n ?? 0);
    },
  };
}
