import { PGlite, type Transaction } from '@electric-sql/pglite';
import type { Sql, SqlParam } from './types.js';

type Queryable = Pick<PGlite, 'query' | 'exec'> | Transaction;

function wrap(db: Queryable, transaction: <T>(fn: (tx: Sql) => Promise<T>) => Promise<T>, close: () => Promise<void>): Sql {
  return {
    dialect: 'pglite',
    async query<T>(text: string, params: readonly SqlParam[] = []): Promise<T[]> {
      const result = await db.query<T>(text, params as unknown[]);
      return result.rows;
    },
    async exec(text: string): Promise<void> {
      await db.exec(text);
    },
    transaction,
    close,
  };
}

/** The in-process adapter: one PGlite database (a data directory, or `memory://`). */
export async function openPgliteSql(dataDir: string, options: { loadDataDir?: Blob } = {}): Promise<Sql & { db: PGlite }> {
  const db = options.loadDataDir ? await PGlite.create(dataDir, { loadDataDir: options.loadDataDir }) : await PGlite.create(dataDir);
  const root = wrap(
    db,
    (fn) =>
      db.transaction(async (tx) => {
        const inner: Sql = wrap(
          tx,
          (nested) => nested(inner),
          async () => {},
        );
        return fn(inner);
      }),
    async () => {
      if (!db.closed) await db.close();
    },
  );
  return Object.assign(root, { db });
}
