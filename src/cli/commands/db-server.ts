import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { loadConfig } from '../../config/config.js';
import { createLogger } from '../../log.js';
import { startPgliteServer } from '../../store/pglite-server.js';
import { dbServerFile, dbSocketDir, embeddedDataDir } from '../open-store.js';
import { onShutdown } from '../shutdown.js';
import { installLastResort } from '../last-resort.js';

/**
 * `folio db-server`: serves the embedded PGlite database in DATA_DIR over the PostgreSQL protocol on the
 * unix socket `DATA_DIR/run/.s.PGSQL.<FOLIO_DB_PORT>` (default 5432; the directory is 0700, so only this
 * user gets in; no TCP port), so the worker and the API processes share it.
 */
export async function run(): Promise<number> {
  const config = loadConfig();
  const logger = createLogger('db', { level: config.logLevel, pretty: config.logPretty });
  installLastResort(logger);
  mkdirSync(config.dataDir, { recursive: true });
  const server = await startPgliteServer({
    dataDir: embeddedDataDir(config.dataDir),
    socketDir: dbSocketDir(config.dataDir),
    port: config.dbPort,
  });
  const file = dbServerFile(config.dataDir);
  writeFileSync(file, JSON.stringify({ url: server.url, pid: process.pid }) + '\n', { mode: 0o600 });
  logger.info({ dataDir: embeddedDataDir(config.dataDir), socket: server.socketPath }, 'embedded PostgreSQL (PGlite) serving');
  // The supervisor reads this line to learn the address.
  process.stdout.write(`FOLIO_DB_URL=${server.url}\n`);
  await new Promise<void>((resolve) => {
    onShutdown(
      async () => {
        rmSync(file, { force: true });
        await server.stop();
        resolve();
      },
      { supervised: config.supervised },
    );
  });
  return 0;
}
