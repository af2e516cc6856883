/**
 * The Temporal SDK's runtime (its native core and where its logs go), installed once per test process.
 *
 * A test process runs many files (test/vitest.config.ts: the forks are reused), and the SDK's runtime is native state
 * of the process that a file's module reset does not undo: `Runtime.install` a second time throws. So every test
 * installs it through here, once, with a logger whose lines go by default where the quiet test logger's go (errors
 * only; LOG_LEVEL overrides), and a file that reads the SDK's log lines routes them to its own capture while it runs
 * (`routeSdkLogs`).
 */
import { pino } from 'pino';
import { createLogger } from '../../src/log.js';
import { installRuntime } from '../../src/temporal/worker/runtime.js';

interface Router {
  /** Where the SDK's log lines go now; null: the default (stdout, at the quiet level). */
  target: ((line: string) => void) | null;
}

const KEY = Symbol.for('folio.test.sdkRuntime');

function router(): Router {
  const g = globalThis as unknown as Record<symbol, Router | undefined>;
  const existing = g[KEY];
  if (existing) return existing;
  const created: Router = { target: null };
  g[KEY] = created;
  const quiet = process.env.LOG_LEVEL ?? 'error';
  const quietLevel = pino.levels.values[quiet] ?? pino.levels.values.error!;
  // Warnings reach the router (a routed capture reads the SDK's warnings, e.g. a workflow's `log.warn`); the
  // default keeps only the quiet level.
  const level = quietLevel < pino.levels.values.warn! ? quiet : 'warn';
  const destination = {
    write(line: string) {
      if (created.target) created.target(line);
      else if ((JSON.parse(line) as { level: number }).level >= quietLevel) process.stdout.write(line);
    },
  };
  installRuntime(createLogger('temporal', { level, pretty: false, destination }));
  return created;
}

/** Installs the SDK's runtime in this process unless it is: before any worker, test environment or replayer. */
export function installTestRuntime(): void {
  router();
}

/** The SDK's log lines (JSON, `"component":"temporal-sdk"`) go to `write` until the returned function is called. */
export function routeSdkLogs(write: (line: string) => void): () => void {
  const r = router();
  r.target = write;
  return () => {
    if (r.target === write) r.target = null;
  };
}
