import { PGlite, type Transaction } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import type { Sql, SqlParam } from './types/index.js';

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

const BYTEA = 17;

/**
 * bytea in and out of PGlite's text format (`\x` + hex) through Buffer's hex codec: PGlite's own parser and serializer
 * go byte by byte (a `parseInt` per byte: ~0.8 s to read a 1,000-page revision's bodies). Same values.
 */
const byteaCodec = {
  parsers: {
    [BYTEA]: (text: string): Uint8Array => new Uint8Array(Buffer.from(text.slice(2), 'hex')),
  },
  serializers: {
    [BYTEA]: (value: unknown): string => {
      if (!(value instanceof Uint8Array)) throw new Error('Invalid input for bytea type');
      return '\\x' + Buffer.from(value.buffer, value.byteOffset, value.byteLength).toString('hex');
    },
  },
};

/** The in-process adapter: one PGlite database (a data directory, or `memory://`). */
export async function openPgliteSql(dataDir: string, options: { loadDataDir?: Blob } = {}): Promise<Sql & { db: PGlite }> {
  const db = await PGlite.create(dataDir, { ...byteaCodec, extensions: { pg_trgm }, ...(options.loadDataDir ? { loadDataDir: options.loadDataDir } : {}) });
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
