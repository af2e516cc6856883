import pg from 'pg';
import type { Logger } from '../log.js';
import { describeConnectionError, translateStoreError } from './transient-errors.js';
import type { Sql, SqlParam } from './types.js';

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

export interface PgSqlOptions {
  poolSize?: number;
  /** Where a lost connection is reported: its code and redacted message, never a statement or a parameter. */
  logger?: Pick<Logger, 'warn'>;
}

/**
 * Gives every client of `pool` an 'error' listener for its whole life. pg emits 'error' on a client whose
 * connection is lost (ECONNRESET, EPIPE, "Connection terminated", 57P01 administrator shutdown...), also while the
 * client is checked out — inside a transaction, between two statements or during one — when the pool's own idle
 * listener is detached; without a listener that event is an uncaught exception, and the process exits. The
 * statement that used the connection fails on its own (a StoreUnavailableError, retried by its operation), the
 * client is left unqueryable and the pool discards it when it is released (pg-pool's `_queryable` check).
 */
function guardClients(pool: pg.Pool, logger: PgSqlOptions['logger']): void {
  pool.on('connect', (client) => {
    let reported = false;
    client.on('error', (err) => {
      if (reported) return;
      reported = true;
      logger?.warn({ error: describeConnectionError(err) }, 'database connection lost; the client is discarded');
    });
  });
  // An idle client's error reaches the pool too (pg-pool removes the client); the listener above logged it.
  pool.on('error', () => {});
}

/** The server adapter: a pg Pool on `url` (a PostgreSQL server, or a pglite-server). */
export function openPgSql(url: string, options: PgSqlOptions = {}): Sql & { pool: pg.Pool } {
  const pool = new pg.Pool({ connectionString: url, max: options.poolSize ?? 10, connectionTimeoutMillis: 30_000 });
  guardClients(pool, options.logger);
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
