import { mkdir } from 'node:fs/promises';
import { PGlite } from '@electric-sql/pglite';
import { ValidationError } from '../errors.js';
import { StoreUnavailableError } from './errors.js';
import { PgliteWireServer } from './pglite-wire-server.js';

export interface PgliteServerOptions {
  /** PGlite data directory (created if missing), or `memory://`. */
  dataDir: string;
  /** Default 127.0.0.1. */
  host?: string;
  /** 0 (default) picks a free port. */
  port?: number;
  /** Concurrent client connections accepted (the sum of every client's pool size); more are refused (53300). Default 64. */
  maxConnections?: number;
}

export interface PgliteServer {
  /** `postgresql://postgres@host:port/postgres?sslmode=disable`: a DATABASE_URL for the pg adapter. */
  url: string;
  host: string;
  port: number;
  stop(): Promise<void>;
}

/**
 * Serves a PGlite data directory over the PostgreSQL wire protocol, so separate processes (the worker,
 * the API) share one embedded database through the pg adapter. PGlite is single-session: the server
 * multiplexes connections, running one protocol message at a time and, while a transaction is open,
 * only the messages of the connection that opened it. Session state (SET, temp tables, session advisory
 * locks, prepared statement names) is therefore shared by all clients; Folio uses none of it.
 */
export async function startPgliteServer(options: PgliteServerOptions): Promise<PgliteServer> {
  const host = options.host ?? '127.0.0.1';
  const port = options.port ?? 0;
  const maxConnections = options.maxConnections ?? 64;
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new ValidationError('port must be an integer from 0 to 65535');
  if (!Number.isInteger(maxConnections) || maxConnections < 1) throw new ValidationError('maxConnections must be a positive integer');
  if (!options.dataDir.startsWith('memory://')) await mkdir(options.dataDir, { recursive: true });
  let db: PGlite;
  try {
    db = await PGlite.create(options.dataDir);
  } catch (err) {
    throw new StoreUnavailableError(`cannot open the embedded database in ${options.dataDir}: ${err instanceof Error ? err.message : String(err)}`, err);
  }
  const server = new PgliteWireServer({ db, host, port, maxConnections });
  try {
    await server.start();
  } catch (err) {
    await db.close().catch(() => {});
    throw new StoreUnavailableError(`cannot listen on ${host}:${port}: ${err instanceof Error ? err.message : String(err)}`, err);
  }
  const actualPort = server.port;
  const urlHost = host.includes(':') ? `[${host}]` : host;
  let stopped = false;
  return {
    url: `postgresql://postgres@${urlHost}:${actualPort}/postgres?sslmode=disable`,
    host,
    port: actualPort,
    async stop() {
      if (stopped) return;
      stopped = true;
      await server.stop();
      if (!db.closed) await db.close();
    },
  };
}
