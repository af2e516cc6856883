import { existsSync } from 'node:fs';
import { chmod, mkdir, mkdtemp, rm, unlink } from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { PGlite } from '@electric-sql/pglite';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { ValidationError } from '../errors.js';
import { StoreUnavailableError } from './errors.js';
import { PgliteWireServer } from './pglite-wire-server.js';
import { embeddedStartParams, initDataDirApart } from './pglite-memory.js';

export interface PgliteServerOptions {
  /** PGlite data directory (created if missing), or `memory://`. */
  dataDir: string;
  /**
   * Directory of the unix socket (created with mode 0700, or set to 0700). Default, and when the socket path
   * would be longer than a unix socket allows: a new private directory under the system's temporary directory.
   */
  socketDir?: string;
  /** The number in the socket's name, `.s.PGSQL.<port>`, as PostgreSQL clients expect it. Default 5432. */
  port?: number;
  /** Concurrent client connections accepted (the sum of every client's pool size); more are refused (53300). Default 64. */
  maxConnections?: number;
  /** PostgreSQL settings (`-c name=value`) over `EMBEDDED_DB_SETTINGS`. */
  settings?: Record<string, string>;
}

export interface PgliteServer {
  /** `postgresql://postgres@localhost/postgres?host=<socketDir>&port=<port>`: a DATABASE_URL for the pg adapter. */
  url: string;
  /** The directory holding the socket (mode 0700). */
  socketDir: string;
  /** The socket itself: `<socketDir>/.s.PGSQL.<port>`. */
  socketPath: string;
  port: number;
  stop(): Promise<void>;
}

/** sun_path holds 108 bytes on Linux (104 on macOS), with the terminating NUL. */
const MAX_SOCKET_PATH_BYTES = 103;

function canConnect(socketPath: string): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ path: socketPath });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
    socket.setTimeout(1000, () => done(false));
  });
}

/**
 * Serves a PGlite data directory over the PostgreSQL wire protocol, so separate processes (the worker,
 * the API) share one embedded database through the pg adapter. It listens on a unix socket in a directory
 * only its owner may enter (0700), never on a TCP port: PGlite accepts any user and password, so the file
 * system is what keeps other local users out. PGlite is single-session: the server
 * multiplexes connections, running one protocol message at a time and, while a transaction is open,
 * only the messages of the connection that opened it. Session state (SET, temp tables, session advisory
 * locks, prepared statement names) is therefore shared by all clients; Folio uses none of it.
 */
export async function startPgliteServer(options: PgliteServerOptions): Promise<PgliteServer> {
  const port = options.port ?? 5432;
  const maxConnections = options.maxConnections ?? 64;
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new ValidationError('port must be an integer from 1 to 65535');
  if (!Number.isInteger(maxConnections) || maxConnections < 1) throw new ValidationError('maxConnections must be a positive integer');
  const socketName = `.s.PGSQL.${port}`;

  let socketDir: string;
  let ownsSocketDir = false;
  if (options.socketDir !== undefined && Buffer.byteLength(path.join(path.resolve(options.socketDir), socketName)) <= MAX_SOCKET_PATH_BYTES) {
    socketDir = path.resolve(options.socketDir);
    await mkdir(socketDir, { recursive: true, mode: 0o700 });
    await chmod(socketDir, 0o700);
  } else {
    socketDir = await mkdtemp(path.join(os.tmpdir(), 'folio-db-'));
    ownsSocketDir = true;
  }
  const socketPath = path.join(socketDir, socketName);
  if (existsSync(socketPath)) {
    if (await canConnect(socketPath)) throw new StoreUnavailableError(`another server already listens on ${socketPath}`);
    await unlink(socketPath);
  }

  const onDisk = !options.dataDir.startsWith('memory://');
  if (onDisk) await mkdir(options.dataDir, { recursive: true });
  let db: PGlite;
  try {
    if (onDisk) await initDataDirApart(options.dataDir);
    db = await PGlite.create(options.dataDir, { startParams: embeddedStartParams(options.settings), extensions: { pg_trgm } });
  } catch (err) {
    throw new StoreUnavailableError(`cannot open the embedded database in ${options.dataDir}: ${err instanceof Error ? err.message : String(err)}`, err);
  }
  const server = new PgliteWireServer({ db, path: socketPath, maxConnections });
  try {
    await server.start();
    await chmod(socketPath, 0o600);
  } catch (err) {
    await server.stop().catch(() => {});
    await db.close().catch(() => {});
    throw new StoreUnavailableError(`cannot listen on ${socketPath}: ${err instanceof Error ? err.message : String(err)}`, err);
  }
  let stopped = false;
  return {
    url: `postgresql://postgres@localhost/postgres?host=${encodeURIComponent(socketDir)}&port=${port}`,
    socketDir,
    socketPath,
    port,
    async stop() {
      if (stopped) return;
      stopped = true;
      await server.stop();
      if (!db.closed) await db.close();
      await rm(ownsSocketDir ? socketDir : socketPath, { recursive: true, force: true });
    },
  };
}
