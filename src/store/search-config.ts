import type { Sql } from './types/index.js';

/** `name` when the database has that text search configuration, else `simple` (the configurations are read once per store). */
export function searchConfigResolver(sql: Sql): (name: string) => Promise<string> {
  let available: Promise<Set<string>> | null = null;
  return async (name) => {
    if (name === 'simple') return name;
    available ??= sql
      .query<{ cfgname: string }>('SELECT cfgname FROM pg_catalog.pg_ts_config')
      .then((rows) => new Set(rows.map((r) => r.cfgname)))
      .catch((err: unknown) => {
        available = null;
        throw err;
      });
    return (await available).has(name) ? name : 'simple';
  };
}
