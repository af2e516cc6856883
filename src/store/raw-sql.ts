/**
 * The store's SQL connection, for code inside src/store/ and for tests (fixtures such as an expired token).
 * The rest of Folio goes through the typed members of `Store`; `npm run lint` (dependency-cruiser rule
 * `sql-stays-in-the-store`) refuses an import of this file from outside src/store/.
 */
import type { Sql, Store } from './types/index.js';

const connections = new WeakMap<Store, Sql>();

/** Called once by openStore. */
export function attachSql(store: Store, sql: Sql): void {
  connections.set(store, sql);
}

export function rawSql(store: Store): Sql {
  const sql = connections.get(store);
  if (!sql) throw new Error('not a store opened by openStore');
  return sql;
}
