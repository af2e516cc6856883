/** A value that may be passed as a query parameter. Objects must be JSON.stringify'd and cast (`$1::jsonb`). */
export type SqlParam = string | number | boolean | null | Date | Uint8Array | string[] | number[];

export interface Sql {
  /** Which adapter runs the queries. */
  readonly dialect: 'pglite' | 'pg';
  /** Runs one parameterised statement and returns its rows (column names as written in SQL). */
  query<T = Record<string, unknown>>(text: string, params?: readonly SqlParam[]): Promise<T[]>;
  /** Runs a script of several statements without parameters (migrations). */
  exec(text: string): Promise<void>;
  /**
   * Runs `fn` in a transaction on one connection: committed when it resolves, rolled back when it throws.
   * Inside a transaction, `tx.transaction(fn)` runs `fn` in the same transaction (no savepoint).
   * Inside `fn`, use only `tx`: a query on the root `Sql` waits for the transaction to end on PGlite
   * (one session) and through a pglite-server, so it would never return.
   */
  transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T>;
  /** Closes the pool / the embedded database. Only on the root `Sql`. */
  close(): Promise<void>;
}

/** One numbered migration: `id` like `001_core` (ordered by id), `sql` a script run in one transaction. */
export interface Migration {
  id: string;
  sql: string;
}
