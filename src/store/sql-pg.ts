import pg from 'pg';
import { translateStoreError } from './transient-errors.js';
import type { Sql, SqlParam } from './types/index.js';

const translate = translateStoreError;

function prepare(params: readonly SqlParam[]): unknown[] {
  // pg sends Buffers as bytea; a plain Uint8Array would be sent as an array.
  return params.map((p) => (p instanceof Uint8Array && !Buffer.isBuffer(p) ? Buffer.from(p.buffer, p.byteOffset, p.byteLength) : p));
}

function clientSql(client: pg.PoolClient): Sql {
  const self: Sql = {
    dialect: 'pg',
    async query<T>(text: string, params: readonly SqlParam[] = []): Promise<T[]> {
      try {
        const result = await client.query(text, prepare(params));
        return result.rows as T[];
      } catch (err) {
        throw translate(err);
      }
    },
    async exec(text: string): Promise<void> {
      try {
        await client.query(text);
      } catch (err) {
        throw translate(err);
      }
    },
    transaction: (fn) => fn(self),
    close: async () => {},
  };
  return self;
}

/** The server adapter: a pg Pool on `url` (a PostgreSQL server, or a pglite-server). */
export function openPgSql(url: string, options: { poolSize?: number } = {}): Sql & { pool: pg.Pool } {
  const pool = new pg.Pool({ connectionString: url, max: options.poolSize ?? 10, connectionTimeoutMillis: 30_000 });
  // An idle client losing its connection must not crash the process; the next query reports it.
  pool.on('error', () => {});
  let closed = false;
  return {
    dialect: 'pg',
    pool,
    async query<T>(text: string, params: readonly SqlParam[] = []): Promise<T[]> {
      try {
        const result = await pool.query(text, prepare(params));
        return result.rows as T[];
      } catch (err) {
        throw translate(err);
      }
    },
    async exec(text: string): Promise<void> {
      try {
        await pool.query(text);
      } catch (err) {
        throw translate(err);
      }
    },
    async transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
      let client: pg.PoolClient;
      try {
        client = await pool.connect();
      } catch (err) {
        throw translate(err);
      }
      let broken = false;
      try {
        await client.query('BEGIN');
        const result = await fn(clientSql(client));
        await client.query('COMMIT');
        return result;
      } catch (err) {
        try {
          await client.query('ROLLBACK');
        } catch {
          broken = true;
        }
        throw translate(err);
      } finally {
        client.release(broken ? true : undefined);
      }
    },
    async close(): Promise<void> {
      if (closed) return;
      closed = true;
      await pool.end();
    },
  };
}
