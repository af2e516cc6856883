/**
 * The PostgreSQL text search configuration of a space's language: ISO 639-1 code (or a tag such as `en-US`,
 * `pt_BR`) to the snowball configuration of that language when the database has it, `simple` (no stemming,
 * no stop words) otherwise — Chinese, Japanese and Korean included (see ./search-text.ts).
 */
import type { Sql } from './types/index.js';

const BY_CODE: Record<string, string> = {
  ar: 'arabic',
  hy: 'armenian',
  eu: 'basque',
  ca: 'catalan',
  da: 'danish',
  nl: 'dutch',
  en: 'english',
  et: 'estonian',
  fi: 'finnish',
  fr: 'french',
  de: 'german',
  el: 'greek',
  hi: 'hindi',
  hu: 'hungarian',
  id: 'indonesian',
  ga: 'irish',
  it: 'italian',
  lt: 'lithuanian',
  ne: 'nepali',
  no: 'norwegian',
  nb: 'norwegian',
  nn: 'norwegian',
  pt: 'portuguese',
  ro: 'romanian',
  ru: 'russian',
  sr: 'serbian',
  es: 'spanish',
  sv: 'swedish',
  ta: 'tamil',
  tr: 'turkish',
  yi: 'yiddish',
};

/** The configurations the database has (read once per store). */
export function searchConfigResolver(sql: Sql): (language: string | null) => Promise<string> {
  let available: Promise<Set<string>> | null = null;
  return async (language) => {
    const code = (language ?? '').trim().toLowerCase().split(/[-_]/)[0] ?? '';
    const wanted = BY_CODE[code];
    if (!wanted) return 'simple';
    available ??= sql
      .query<{ cfgname: string }>('SELECT cfgname FROM pg_catalog.pg_ts_config')
      .then((rows) => new Set(rows.map((r) => r.cfgname)))
      .catch((err: unknown) => {
        available = null;
        throw err;
      });
    return (await available).has(wanted) ? wanted : 'simple';
  };
}
