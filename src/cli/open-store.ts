import { existsSync, readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { Config } from '../config/config.js';
import type { Logger } from '../log.js';
import { openStore, type BlobStoreOptions, type Store } from '../store/index.js';

/** The file where a running embedded database server (`folio db-server`) announces its address. */
export function dbServerFile(dataDir: string): string {
  return path.join(dataDir, 'db-server.json');
}

export function embeddedDataDir(dataDir: string): string {
  return path.join(dataDir, 'pg');
}

/** The directory of the embedded database's unix socket (mode 0700), unless DATA_DIR is too deep for one. */
export function dbSocketDir(dataDir: string): string {
  return path.join(dataDir, 'run');
}

async function reachable(url: string): Promise<boolean> {
  const u = new URL(url);
  const port = Number(u.searchParams.get('port') || u.port || 5432);
  const socketDir = u.searchParams.get('host');
  return new Promise((resolve) => {
    const socket = socketDir?.startsWith('/') ? net.connect({ path: path.join(socketDir, `.s.PGSQL.${port}`) }) : net.connect({ host: u.hostname, port });
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
 * The database Folio should use: DATABASE_URL when set; else the embedded database, through the running
 * `folio db-server` when there is one (so the CLI works while `npm start` runs), else PGlite in DATA_DIR directly.
 */
export async function resolveDatabaseUrl(config: Config): Promise<string | undefined> {
  if (config.databaseUrl) return config.databaseUrl;
  const file = dbServerFile(config.dataDir);
  if (existsSync(file)) {
    try {
      const { url } = JSON.parse(readFileSync(file, 'utf8')) as { url: string };
      if (url && (await reachable(url))) return url;
    } catch {
      // a stale file: fall through to the embedded database
    }
  }
  return undefined;
}

/** The blob store of the configuration (FOLIO_BLOB_STORE and, for `s3`, FOLIO_S3_*). */
export function blobOptions(config: Config): BlobStoreOptions {
  if (config.blobStore === 'directory') return { kind: 'directory', dir: path.join(config.dataDir, 'blobs') };
  if (config.blobStore !== 's3') return { kind: 'database' };
  const s3 = config.s3!;
  return {
    kind: 's3',
    bucket: s3.bucket,
    region: s3.region,
    endpoint: s3.endpoint,
    forcePathStyle: s3.forcePathStyle,
    prefix: s3.prefix,
    accessKeyId: s3.accessKeyId,
    secretAccessKey: s3.secretAccessKey,
    createBucket: s3.createBucket,
  };
}

export async function openConfiguredStore(config: Config, logger: Logger, options: { migrate?: boolean; connectWaitMs?: number } = {}): Promise<Store> {
  const databaseUrl = await resolveDatabaseUrl(config);
  return openStore({
    ...(databaseUrl ? { databaseUrl } : { dataDir: embeddedDataDir(config.dataDir) }),
    blobs: blobOptions(config),
    migrate: options.migrate ?? true,
    logger,
    ...(options.connectWaitMs !== undefined ? { connectWaitMs: options.connectWaitMs } : {}),
  });
}
