import { loadConfig } from '../../config/config.js';
import { warnUnknownVariables } from '../../config/unknown-variables.js';
import { createLogger } from '../../log.js';
import { installRuntime } from '../../temporal/worker/runtime.js';
import { ensureSearchAttributes } from '../../temporal/client/search-attributes.js';
import { createActivityWorker, createWorker } from '../../temporal/worker/worker.js';
import { sweepWebhookSubscribers } from '../../temporal/client/webhook-subscribers.js';
import { openConfiguredStore } from '../open-store.js';
import type { Store } from '../../store/index.js';
import type { Logger } from '../../log.js';
import { createSpecPool } from '../../parse-threads/spec-pool.js';
import { ParsePool } from '../../parse-threads/pool.js';
import { parsePoolOptions } from '../../parse-pool/from-config.js';
import { warmUpParsePool } from '../../parse-threads/warm-up.js';
import { converterVersion, pruneParseCacheNow } from '../../parse-cache/index.js';
import { installLastResort } from '../last-resort.js';
import { FolioMetrics, startMetricsServer, type HealthCheck, type MetricsServer } from '../../metrics/index.js';

/** `host:port`, an IPv6 host in brackets. */
function hostPort(host: string, port: number): string {
  return host.includes(':') ? `[${host}]:${port}` : `${host}:${port}`;
}

/** How long the worker's store waits for an absent database server on connect (see openStore's connectWaitMs). */
export const WORKER_STORE_CONNECT_WAIT_MS = 20_000;

/**
 * Warm-up while the worker connects: parse threads started, converter compiled, converter version computed; the
 * store's connections opened and the parse cache's rows of other converter versions deleted (the first import
 * waited behind that delete in the single-session embedded database).
 */
function warmUp(parsePool: ParsePool, store: Store, logger: Logger): Promise<unknown> {
  return Promise.all([
    warmUpParsePool(parsePool).then(
      () => converterVersion(),
      (err: unknown) => logger.warn({ err }, 'worker warm-up failed (the first import starts the parse threads itself)'),
    ),
    Promise.all([store.health(), store.health()]).then(
      () => pruneParseCacheNow(store, logger),
      (err: unknown) => logger.warn({ err }, 'worker warm-up: the store did not answer (the first import connects itself)'),
    ),
  ]);
}

/** Under `folio start`, a closed stdin means the supervisor is gone: drain and exit too. */
function stopWhenStdinEnds(workers: Array<{ getState(): string; shutdown(): void }>): void {
  const stop = () => {
    for (const w of workers) if (w.getState() === 'RUNNING') w.shutdown();
  };
  process.stdin.on('end', stop);
  process.stdin.on('error', stop);
  process.stdin.resume();
}

/** Registers Folio's search attributes in the namespace; without operator rights it warns and goes on. */
async function registerSearchAttributes(address: string, namespace: string, logger: ReturnType<typeof createLogger>): Promise<void> {
  try {
    const added = await ensureSearchAttributes(address, namespace);
    if (added.length) logger.info({ added }, 'registered search attributes');
  } catch (err) {
    logger.warn({ err: (err as Error).message }, 'could not register search attributes (operator rights needed)');
  }
}

/** `folio worker`: one Folio worker polling TEMPORAL_ADDRESS, on DATABASE_URL (or the embedded store). */
export async function run(): Promise<number> {
  const config = loadConfig();
  const logger = createLogger('worker', { level: config.logLevel, pretty: config.logPretty });
  installLastResort(logger);
  warnUnknownVariables(logger);
  installRuntime(logger, config.temporalMetricsPort ? { prometheusBindAddress: hostPort(config.host, config.temporalMetricsPort) } : {});
  const address = config.temporalAddress ?? `127.0.0.1:${config.temporalPort}`;
  // A database server that is not there (the embedded one restarting) is waited for up to 20 s on connect, so that
  // the retried activities find it back instead of using up their attempts; every activity heartbeats within that.
  const store = await openConfiguredStore(config, logger, { connectWaitMs: WORKER_STORE_CONNECT_WAIT_MS });
  try {
    await registerSearchAttributes(address, config.temporalNamespace, logger);
    // Page parsing makes short-lived garbage: 8 MB of young generation per thread (instead of an eighth of the budget,
    // 32 MB) lowered the peak RSS of decoding 5,000 pages by about 40 MB, no slower.
    const parsePool = new ParsePool({ ...parsePoolOptions(config), youngGenerationMb: 8 });
    const openapiPool = createSpecPool(config);
    const metrics = new FolioMetrics({ role: 'worker', processMetrics: true });
    metrics.watchPool('parse', () => parsePool.stats);
    metrics.watchPool('openapi', () => openapiPool.stats);
    // The health check of the metrics port (a container's): unavailable until both workers poll, and once they stop.
    let health: HealthCheck = () => ({ ok: false, detail: 'starting' });
    const metricsServer: MetricsServer | null = config.workerMetricsPort
      ? await startMetricsServer(metrics, { host: config.host, port: config.workerMetricsPort, health: () => health() })
      : null;
    if (metricsServer) logger.info({ url: `http://${hostPort(config.host, metricsServer.port)}/metrics` }, 'worker metrics listening');
    // Warm-up (threads, converter, store) while the worker connects.
    const warming = warmUp(parsePool, store, logger);
    const { worker, connection: native } = await createWorker({
      deps: { store, config, logger, parsePool, openapiPool, metrics },
      address,
      namespace: config.temporalNamespace,
      taskQueue: config.taskQueue,
    });
    await warming;
    // The translation engines' activities poll a queue of their own (a slow provider never blocks git sync).
    const translationWorker = await createActivityWorker({
      deps: { store, config, logger, parsePool, openapiPool, metrics },
      connection: native,
      namespace: config.temporalNamespace,
      taskQueue: config.translationTaskQueue,
    });
    health = () => {
      const states = [worker.getState(), translationWorker.getState()];
      return { ok: states.every((s) => s === 'RUNNING'), detail: `workers ${states.join(', ').toLowerCase()}` };
    };
    logger.info(
      { address, namespace: config.temporalNamespace, taskQueue: config.taskQueue, translationTaskQueue: config.translationTaskQueue },
      'worker started',
    );
    // Every installation's webhook subscriber runs (a missing one started, a running one woken): no event stays pending.
    const sweep = new AbortController();
    const swept = sweepWebhookSubscribers({
      connection: native,
      namespace: config.temporalNamespace,
      taskQueue: config.taskQueue,
      store,
      config,
      logger,
      signal: sweep.signal,
    });
    // The SDK runtime shuts the worker down on SIGINT/SIGTERM; run() resolves when it has drained.
    // Under `folio start`, a closed stdin means the supervisor is gone: drain and exit too.
    if (config.supervised) stopWhenStdinEnds([worker, translationWorker]);
    await Promise.all([worker.run(), translationWorker.run()]);
    sweep.abort();
    await swept;
    // Stop watching stdin, or the open pipe would keep this process alive after the worker drained.
    process.stdin.destroy();
    await native.close();
    await parsePool.close();
    await openapiPool.close();
    await metricsServer?.close();
    metrics.close();
    logger.info('worker stopped');
    return 0;
  } finally {
    await store.close();
  }
}
