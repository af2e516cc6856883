import { loadConfig } from '../../config/config.js';
import { warnUnknownVariables } from '../../config/unknown-variables.js';
import { createLogger } from '../../log.js';
import { buildServer } from '../../api/server.js';
import { bootstrap } from '../../bootstrap.js';
import { connectClient } from '../../temporal/client/client.js';
import { openConfiguredStore } from '../open-store.js';
import { onShutdown } from '../shutdown.js';
import { installLastResort } from '../last-resort.js';
import { FolioMetrics } from '../../metrics/index.js';

/** `folio api`: the HTTP API on PORT, starting workflows on TEMPORAL_ADDRESS, reading DATABASE_URL. */
export async function run(): Promise<number> {
  const config = loadConfig();
  const logger = createLogger('api', { level: config.logLevel, pretty: config.logPretty });
  installLastResort(logger);
  warnUnknownVariables(logger);
  const address = config.temporalAddress ?? `127.0.0.1:${config.temporalPort}`;
  const store = await openConfiguredStore(config, logger);
  // Idempotent: creates the bootstrap organization (and a token, printed once) only on an empty store.
  const boot = await bootstrap(store, { organizationId: config.bootstrapOrg, token: config.bootstrapToken });
  if (boot.token) process.stderr.write(`API token of the owner (user ${boot.ownerId}) of organization ${boot.organizationId} (shown once): ${boot.token}\n`);
  const temporal = await connectClient({ address, namespace: config.temporalNamespace });
  const metrics = new FolioMetrics({ role: 'api', processMetrics: true });
  const app = await buildServer({ store, temporal, config, logger, baseUrl: config.publicUrl, metrics });
  await app.listen({ port: config.port, host: config.host });
  logger.info({ url: `http://${config.host}:${config.port}` }, 'API listening');
  await new Promise<void>((resolve) => {
    onShutdown(
      async () => {
        await app.close();
        await temporal.connection.close();
        await store.close();
        resolve();
      },
      { supervised: config.supervised },
    );
  });
  return 0;
}
