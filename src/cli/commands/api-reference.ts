import { loadConfig } from '../../config/config.js';
import { createLogger } from '../../log.js';
import { apiReference } from '../../api/reference.js';
import { routeTable } from '../../api/route-table.js';
import { openStore } from '../../store/index.js';
import { lazyClient } from '../../temporal/client/client.js';

/** `folio api-reference`: prints docs/api-reference.md, written from the routes' request schemas (nothing is served). */
export async function run(): Promise<number> {
  const config = { ...loadConfig(), parseThreads: 1 };
  const logger = createLogger('api-reference', { level: 'warn', pretty: false });
  const store = await openStore({ dataDir: 'memory://', migrate: false, logger });
  try {
    process.stdout.write(apiReference(await routeTable({ store, temporal: lazyClient(), config, logger })));
  } finally {
    await store.close();
  }
  return 0;
}
