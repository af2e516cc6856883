/**
 * A Folio worker in a process of its own, for the crash test (git-sync-crash.e2e.test.ts): real activities on a
 * PostgreSQL store (DATABASE_URL), on TASK_QUEUE of the dev server at TEMPORAL_ADDRESS, with the prebundled
 * workflows at WORKFLOW_BUNDLE. Prints `ready` on stdout once polling. Run: node --import tsx worker-process.ts
 */
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/log.js';
import { openStore } from '../../src/store/index.js';
import { createWorker } from '../../src/temporal/worker.js';

const env = (name: string): string => {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is required`);
  return v;
};

const logger = createLogger('crash-worker', { level: process.env.LOG_LEVEL ?? 'warn', pretty: false });
const config = loadConfig({ ...process.env, FOLIO_TASK_QUEUE: env('TASK_QUEUE') });
const store = await openStore({ databaseUrl: env('DATABASE_URL'), migrate: false, logger });
const { worker } = await createWorker({
  deps: { store, config, logger },
  address: env('TEMPORAL_ADDRESS'),
  namespace: 'default',
  taskQueue: env('TASK_QUEUE'),
  workflowBundle: { codePath: env('WORKFLOW_BUNDLE') },
  workerOptions: { shutdownGraceTime: '1 second' },
});
const running = worker.run();
process.stdout.write('ready\n');
process.on('SIGTERM', () => worker.shutdown());
await running;
await store.close();
