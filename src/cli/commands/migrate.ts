import { loadConfig } from '../../config/config.js';
import { createLogger } from '../../log.js';
import { openConfiguredStore } from '../open-store.js';

/** `folio migrate`: applies the content store's pending migrations. */
export async function run(): Promise<number> {
  const config = loadConfig();
  const logger = createLogger('migrate', { level: config.logLevel, pretty: config.logPretty });
  const store = await openConfiguredStore(config, logger, { migrate: false });
  try {
    const { applied } = await store.migrate();
    process.stdout.write(applied.length ? `applied: ${applied.join(', ')}\n` : 'the store is up to date\n');
    return 0;
  } finally {
    await store.close();
  }
}
