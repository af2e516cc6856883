import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { loadConfig } from '../../config.js';
import { createLogger } from '../../log.js';
import { startPgliteServer } from '../../store/pglite-server.js';
import { dbServerFile, embeddedDataDir } from '../open-store.js';
import { onShutdown } from '../shutdown.js';

/**
 * `folio db-server`: serves the embedded PGlite database in DATA_DIR over the PostgreSQL protocol on
 * 127.0.0.1 (FOLIO_DB_PORT, default: a free port), so the worker and the API processes share it.
 */
export async function run(): Promise<number> {
  const config = loadConfig();
  const logger = createLogger('db');
  mkdirSync(config.dataDir, { recursive: true });
  const server = await startPgliteServer({
    dataDir: embeddedDataDir(config.dataDir),
    host: '127.0.0.1',
    port: Number(process.env.FOLIO_DB_PORT ?? 0),
  });
  const file = dbServerFile(config.dataDir);
  writeFileSync(file, JSON.stringify({ url: server.url, pid: process.pid }) + '\n');
  logger.info({ dataDir: embeddedDataDir(config.dataDir) }, 'embedded PostgreSQL (PGlite) serving');
  // The supervisor reads this line to learn the address.
  process.stdout.write(`FOLIO_DB_URL=${server.url}\n`);
  await new Promise<void>((resolve) => {
    onShutdown(async () => {
      rmSync(file, { force: true });
      await server.stop();
      resolve();
    });
  });
  return 0;
}
