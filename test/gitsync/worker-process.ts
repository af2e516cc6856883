/**
 * A Folio worker in a process of its own, for the crash test (git-sync-crash.e2e.test.ts): real activities on a
 * PostgreSQL store (DATABASE_URL), on TASK_QUEUE of the dev server at TEMPORAL_ADDRESS, with the prebundled
 * workflows at WORKFLOW_BUNDLE. Prints `ready` on stdout once polling. Run: node --import tsx worker-process.ts, or
 * node on its compiled form (test/setup/worker-process-build.ts, what the tests run when dist/ is up to date).
 * COMPILED_PARSE_THREAD (optional): the compiled parse thread to start threads from (the global setup's).
 *
 * HOLD_AT (test-only hold points, in this test process only: the store is wrapped, Folio's code is unchanged)
 * stops the import at a precise moment, prints `held <point>` and waits forever (the test then kills it):
 * - `before-primary`: the new revision is stored, it is not primary yet;
 * - `after-primary`: the revision is primary, the sync mark (`lastImport`) is not written, the activity not done.
 */
import { loadConfig } from '../../src/config/config.js';
import { createLogger } from '../../src/log.js';
import { openStore } from '../../src/store/index.js';
import { useCompiledThread } from '../../src/parse-pool/pool.js';
import { createWorker } from '../../src/temporal/worker/worker.js';

const env = (name: string): string => {
  const v = process.env[name];
  if (!v) throw new Error(`${name} is required`);
  return v;
};

if (process.env.COMPILED_PARSE_THREAD) useCompiledThread(new URL(process.env.COMPILED_PARSE_THREAD));
const logger = createLogger('crash-worker', { level: process.env.LOG_LEVEL ?? 'warn', pretty: false });
const config = loadConfig({ ...process.env, FOLIO_TASK_QUEUE: env('TASK_QUEUE') });
const store = await openStore({ databaseUrl: env('DATABASE_URL'), migrate: false, logger });
const holdAt = process.env.HOLD_AT;
const holdForever = (point: string): Promise<never> => {
  process.stdout.write(`held ${point}\n`);
  return new Promise<never>(() => undefined);
};
if (holdAt === 'before-primary') {
  store.spaces.setPrimaryRevision = () => holdForever(holdAt);
} else if (holdAt === 'after-primary') {
  const update = store.gitSync.update.bind(store.gitSync);
  store.gitSync.update = ((spaceId: string, patch: { lastImport?: unknown }, options?: unknown) =>
    patch.lastImport ? holdForever(holdAt) : update(spaceId, patch as never, options as never)) as typeof store.gitSync.update;
} else if (holdAt) {
  throw new Error(`unknown HOLD_AT ${holdAt}`);
}
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
