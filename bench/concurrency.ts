/**
 * Concurrency benchmark (issue 10, full size): 50 concurrent git imports into 50 spaces, then 50 concurrent exports,
 * run by two worker processes sharing one database — the embedded PGlite behind Folio's pglite-server (as
 * `npm start` runs it) and, when Debian's PostgreSQL binaries are there (or FOLIO_TEST_DATABASE_URL), a PostgreSQL
 * server. Starts its own Temporal dev server and git server. Prints one JSON object: per database, successes and
 * failures (with their messages), spaces not exactly as expected, workflow durations (median, p95) per direction,
 * wall-clock times, and the load average; the ratio compares the embedded database's median against PostgreSQL's
 * measured in the same run. The same scenario runs in `npm test` at 10 + 10 (test/gitsync/concurrency.e2e.test.ts).
 * Run: npx tsx bench/concurrency.ts [N]   (default 50; BENCH_DATABASES=embedded,postgres)
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { bundleWorkflowCode, DefaultLogger } from '@temporalio/worker';
import { createLogger } from '../src/log.js';
import { projectRoot } from '../src/project-root.js';
import { openStore, startPgliteServer } from '../src/store/index.js';
import { spawnDevServer, waitForTemporal } from '../src/temporal/dev-server.js';
import { ensureTemporalBinaries } from '../src/temporal/install-binaries.js';
import { runConcurrentSync, type RunOutcome } from '../test/helpers/concurrent-sync.js';
import { freePort } from '../test/helpers/free-port.js';
import { startGitServer } from '../test/helpers/git-server.js';
import { startPostgres } from '../test/helpers/postgres.js';

const N = Number(process.argv[2] ?? 50);
const DATABASES = (process.env.BENCH_DATABASES ?? 'embedded,postgres').split(',');

const quantile = (xs: number[], q: number) => {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  return Math.round(s[Math.min(s.length - 1, Math.ceil(q * s.length) - 1)]!);
};
const median = (xs: number[]) => {
  if (!xs.length) return null;
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return Math.round(s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2);
};
const summary = (runs: RunOutcome[]) => ({
  succeeded: runs.filter((r) => r.ok).length,
  failed: runs.filter((r) => !r.ok).length,
  failures: runs.filter((r) => !r.ok).map((r) => r.error ?? r.outcome),
  medianMs: median(runs.map((r) => r.ms)),
  p95Ms: quantile(
    runs.map((r) => r.ms),
    0.95,
  ),
});

async function main() {
  const work = await mkdtemp(path.join(os.tmpdir(), 'folio-bench-concurrency-'));
  const { cli } = ensureTemporalBinaries({ quiet: true });
  const port = await freePort();
  const address = `127.0.0.1:${port}`;
  const temporal = spawnDevServer({ binary: cli, port, headless: true, logLevel: 'error', workflowTaskTimeout: '60s', stdio: 'ignore' });
  const git = await startGitServer();
  const results: Record<string, unknown> = {};
  try {
    const [, bundle] = await Promise.all([
      waitForTemporal(address, { timeoutMs: 90_000 }),
      bundleWorkflowCode({ workflowsPath: path.join(projectRoot(), 'workflows/index.ts'), logger: new DefaultLogger('WARN') }),
    ]);
    const bundlePath = path.join(work, 'workflow-bundle.js');
    await writeFile(bundlePath, bundle.code);
    const connection = await Connection.connect({ address });
    const client = new Client({ connection, namespace: 'default' });
    for (const database of DATABASES) {
      let url: string;
      let stop: () => Promise<void>;
      if (database === 'embedded') {
        const db = await startPgliteServer({ dataDir: path.join(work, `pglite`) });
        url = db.url;
        stop = () => db.stop();
      } else {
        const pg = await startPostgres();
        if (!pg) {
          results[database] = { skipped: 'no PostgreSQL (FOLIO_TEST_DATABASE_URL or /usr/lib/postgresql)' };
          continue;
        }
        url = pg.url;
        stop = () => pg.stop();
      }
      const store = await openStore({ databaseUrl: url, migrate: true, logger: createLogger('bench', { level: 'error', pretty: false }), poolSize: 2 });
      try {
        const load = os.loadavg()[0];
        const r = await runConcurrentSync({
          n: N,
          databaseUrl: url,
          store,
          client,
          temporalAddress: address,
          workflowBundlePath: bundlePath,
          taskQueue: `bench-concurrency-${database}-${Date.now()}`,
          gitServer: git,
          work: path.join(work, database),
        });
        results[database] = {
          imports: summary(r.imports),
          exports: summary(r.exports),
          spacesNotAsExpected: r.spaces.filter((s) => s.problems.length).map((s) => ({ spaceId: s.spaceId, problems: s.problems })),
          importWallMs: Math.round(r.importWallMs),
          exportWallMs: Math.round(r.exportWallMs),
          loadAverage1mBefore: Number(load!.toFixed(2)),
          loadAverage1mAfter: Number(os.loadavg()[0]!.toFixed(2)),
        };
      } finally {
        await store.close();
        await stop();
      }
    }
    await connection.close();
  } finally {
    await git.stop();
    temporal.kill('SIGTERM');
    await rm(work, { recursive: true, force: true });
  }
  const e = results.embedded as { imports?: { medianMs: number | null } } | undefined;
  const p = results.postgres as { imports?: { medianMs: number | null } } | undefined;
  const ratio = e?.imports?.medianMs && p?.imports?.medianMs ? Number((e.imports.medianMs / p.imports.medianMs).toFixed(2)) : null;
  process.stdout.write(
    JSON.stringify({ benchmark: 'concurrency', n: N, workers: 2, cpus: os.cpus().length, results, importMedianRatioEmbeddedVsPostgres: ratio }) + '\n',
  );
}

await main();
