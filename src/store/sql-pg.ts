import pg from 'pg';
import type { Logger } from '../log.js';
import { describeConnectionError, isConnectionError, isServerAbsent, translateStoreError } from './transient-errors.js';
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

export interface PgSqlOptions {
  poolSize?: number;
  /** Where a lost connection is reported: its code and redacted message, never a statement or a parameter. */
  logger?: Pick<Logger, 'warn'>;
  /** How long a server that is not there (refused, socket missing, starting up) is waited for on connect. Default 0. */
  connectWaitMs?: number;
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

/**
 * A client of the pool. A server that is not there (`isServerAbsent`: nothing was sent) is waited for, up to
 * `waitMs`, with a growing pause — the embedded database server restarting; anything else fails at once, translated.
 */
async function connect(pool: pg.Pool, waitMs: number): Promise<pg.PoolClient> {
  const deadline = Date.now() + waitMs;
  for (let pause = 100; ; pause = Math.min(pause * 2, 2000)) {
    try {
      return await pool.connect();
    } catch (err) {
      if (!isServerAbsent(err) || Date.now() + pause > deadline) throw translate(err);
      await new Promise((r) => setTimeout(r, pause));
    }
  }
}

/** The server adapter: a pg Pool on `url` (a PostgreSQL server, or a pglite-server). */
export function openPgSql(url: string, options: PgSqlOptions = {}): Sql & { pool: pg.Pool } {
  const pool = new pg.Pool({ connectionString: url, max: options.poolSize ?? 10, connectionTimeoutMillis: 30_000 });
  guardClients(pool, options.logger);
  const waitMs = options.connectWaitMs ?? 0;
  /** One statement on a client of its own; a client whose connection was lost is discarded, not pooled again. */
  const run = async (text: string, params?: unknown[]): Promise<pg.QueryResult> => {
    const client = await connect(pool, waitMs);
    let lost: Error | undefined;
    try {
      return await client.query(text, params);
    } catch (err) {
      if (isConnectionError(err)) lost = err instanceof Error ? err : new Error(String(err));
      throw translate(err);
    } finally {
      client.release(lost);
    }
  };
  let closed = false;
  return {
    dialect: 'pg',
    pool,
    async query<T>(text: string, params: readonly SqlParam[] = []): Promise<T[]> {
      return (await run(text, prepare(params))).rows as T[];
    },
    async exec(text: string): Promise<void> {
      await run(text);
    },
    async transaction<T>(fn: (tx: Sql) => Promise<T>): Promise<T> {
      const client = await connect(pool, waitMs);
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
