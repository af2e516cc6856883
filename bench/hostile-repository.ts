/**
 * Issue 25, item 1: a hostile nine-page repository beside a normal import of another organization, on `folio start`
 * (the embedded database, Temporal, a worker and the API as processes) with the production defaults. Alternates, for
 * BENCH_RUNS runs (default 3): the normal 40-page import alone on a quiet service ("unloaded"), and the loaded run of
 * the end-to-end test (`stress-ng --cpu 2`, the hostile import, the normal import of another organization 3 s later,
 * the API polled throughout). Each import is the first of a new organization (the parse cache is per organization).
 * Prints one JSON object: the medians and runs of the hostile import's duration, of the normal import unloaded and
 * loaded, the ratio loaded / unloaded (the issue's goal: at most 3), the API's answers by status, their latency
 * (p50, p95, max: the embedded database answers the API) and its 5xx other than 503, the worker's unexpected exits, and the median of each phase of the import activity (`phasesMs`). Any
 * FOLIO_* variable set when it runs reaches the service (e.g. FOLIO_PARSE_NICE=0 to compare). Requires `npm run
 * build` and stress-ng.
 * Run: npx tsx bench/hostile-repository.ts  (BENCH_RUNS; BENCH_NO_STRESS=1 without stress-ng)
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { startFolioService, stopFolioService, type FolioService } from '../test/helpers/folio-service.js';
import { startGitServer } from '../test/helpers/git-server.js';
import { importIntoNewOrganization, loadedRun, serveScenarioRepositories } from '../test/helpers/hostile-scenario.js';
import { median } from './_helpers.js';

const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 3));
const STRESS = process.env.BENCH_NO_STRESS !== '1';
const round = (x: number) => Math.round(x);
const stats = (xs: number[]) => ({ median: round(median(xs)), runs: xs.map(round) });
const load = () => os.loadavg().map((x) => Math.round(x * 100) / 100);

function quantile(xs: number[], q: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s.length ? s[Math.min(s.length - 1, Math.floor(q * s.length))]! : NaN;
}

/** Per phase of the import activity, the median over the runs (a phase missing from a run counts 0 there). */
function phaseMedians(runs: Array<Record<string, number>>): Record<string, number> | undefined {
  if (runs.length === 0) return undefined;
  const keys = [...new Set(runs.flatMap((r) => Object.keys(r)))];
  return Object.fromEntries(keys.map((k) => [k, round(median(runs.map((r) => r[k] ?? 0)))]));
}

/** Waits until no run but the idle git queues is left (the search indexing an import starts), then a quiet second. */
async function settle(temporal: Client): Promise<void> {
  const deadline = Date.now() + 300_000;
  while (Date.now() < deadline) {
    const { count } = await temporal.workflow.count(`ExecutionStatus = 'Running' AND WorkflowType != 'gitQueueWorkflow'`);
    if (count === 0) break;
    await new Promise((r) => setTimeout(r, 200));
  }
  await new Promise((r) => setTimeout(r, 1000));
}

async function main(): Promise<void> {
  const work = await mkdtemp(path.join(os.tmpdir(), 'folio-bench-hostile-'));
  const server = await startGitServer();
  let folio: FolioService | undefined;
  let temporal: Client | undefined;
  try {
    const urls = await serveScenarioRepositories(server, work, 40);
    // LOG_LEVEL=info: the import activity logs its phase timings (`phasesMs` below).
    folio = await startFolioService(path.join(work, 'data'), { FOLIO_BOOTSTRAP_ORG: 'bench', LOG_LEVEL: 'info' });
    temporal = new Client({ connection: await Connection.connect({ address: `127.0.0.1:${folio.env.TEMPORAL_PORT}` }), namespace: 'default' });
    // The first import after start pays for the worker's warm-up: not measured.
    await importIntoNewOrganization(folio, 'warm-up', urls.normal, 300_000);
    await settle(temporal);
    const phases: Record<'unloaded' | 'loaded' | 'hostile', Array<Record<string, number>>> = { unloaded: [], loaded: [], hostile: [] };
    const unloaded: number[] = [];
    const loaded: number[] = [];
    const hostile: number[] = [];
    const outcomes: string[] = [];
    const byStatus: Record<string, number> = {};
    const latencies: number[] = [];
    let failures = 0;
    let exits = 0;
    let workerReplaced = 0;
    for (let run = 1; run <= RUNS; run++) {
      const alone = await importIntoNewOrganization(folio, `alone-${run}`, urls.normal, 300_000);
      if (alone.entry?.status !== 'succeeded') throw new Error(`the unloaded import failed: ${JSON.stringify(alone.entry)}`);
      unloaded.push(alone.ms);
      if (alone.phasesMs) phases.unloaded.push(alone.phasesMs);
      await settle(temporal);
      const r = await loadedRun(folio, urls, { tag: `run-${run}`, stress: STRESS, hostileTimeoutMs: 600_000, normalTimeoutMs: 600_000 });
      if (r.normal.entry?.status !== 'succeeded') throw new Error(`the loaded import failed: ${JSON.stringify(r.normal.entry)}`);
      loaded.push(r.normal.ms);
      hostile.push(r.hostile.ms);
      if (r.normal.phasesMs) phases.loaded.push(r.normal.phasesMs);
      if (r.hostile.phasesMs) phases.hostile.push(r.hostile.phasesMs);
      outcomes.push(`${r.hostile.entry?.status ?? 'not ended'}${r.hostile.entry?.code ? ` ${r.hostile.entry.code}` : ''}`);
      for (const [k, n] of Object.entries(r.poll.byStatus)) byStatus[k] = (byStatus[k] ?? 0) + n;
      failures += r.poll.failures.length;
      latencies.push(...r.poll.latenciesMs);
      exits += r.exits.length;
      if (r.workerAfter !== r.workerBefore) workerReplaced++;
      process.stderr.write(`bench: run ${run}: unloaded ${round(alone.ms)} ms, loaded ${round(r.normal.ms)} ms, hostile ${round(r.hostile.ms)} ms\n`);
      await settle(temporal);
    }
    const ratio = Math.round((median(loaded) / median(unloaded)) * 100) / 100;
    process.stdout.write(
      JSON.stringify({
        measure: 'hostile_repository',
        stress: STRESS ? 'stress-ng --cpu 2' : 'none',
        hostileImportMs: stats(hostile),
        hostileOutcomes: outcomes,
        normalImportUnloadedMs: stats(unloaded),
        normalImportLoadedMs: stats(loaded),
        ratio,
        goal: { ratio: 3, hostileWithinMs: 120_000 },
        phasesMs: { normalUnloaded: phaseMedians(phases.unloaded), normalLoaded: phaseMedians(phases.loaded), hostile: phaseMedians(phases.hostile) },
        apiAnswers: byStatus,
        apiLatencyMs: { p50: round(quantile(latencies, 0.5)), p95: round(quantile(latencies, 0.95)), max: round(Math.max(...latencies)) },
        api5xxOtherThan503: failures,
        workerExits: exits,
        workerReplaced,
        cpus: os.availableParallelism(),
        loadAverage: load(),
      }) + '\n',
    );
  } finally {
    await temporal?.connection.close().catch(() => undefined);
    if (folio) await stopFolioService(folio);
    await server.stop();
    await rm(work, { recursive: true, force: true });
  }
}

await main();
