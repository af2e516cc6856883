/**
 * The two deployments the production-shape scenario runs against, behind one interface:
 * - `cluster`: cluster.ts (PostgreSQL, Temporal dev server and its UI, S3Proxy, Prometheus, 2 `folio api`, N
 *   `folio worker` processes); the disruptions SIGKILL worker 0 (started again 5 s later) and API 1 (started again
 *   on its port). A git import from a private address, refused by the fetch guard, is sent when the first phase's
 *   workers run (outside the run's operations, in a space of its own) so the refusal counter has a value; after the
 *   run, `checks` asks Prometheus what it scraped (prometheus.ts: every target up, the metrics of Folio and of the
 *   Temporal SDK, every metric of the Grafana dashboard) and that the refused import failed as refused.
 * - `embedded`: one `folio start` with the embedded defaults (PGlite served by its `folio db-server` child, blobs
 *   in the database, the Temporal dev server it starts itself, one worker, one API); one worker only, so one phase.
 *   The disruptions SIGKILL its worker child (the supervisor starts it again) and then `folio start` itself (its
 *   children see their stdin close and stop), which is started again on the same DATA_DIR and ports. Prometheus
 *   scrapes its API, worker and Temporal SDK ports, the same refused import is sent, and `checks` asks the same of
 *   Prometheus, and that the CLI is the compose file's Temporal version and the Temporal Web UI answers.
 */
import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { dbServerFile } from '../../../src/cli/open-store.js';
import { ensureTemporalBinaries } from '../../../src/temporal/install-binaries.js';
import { childrenByRole, folioCli, startFolioService, stopFolioService, type FolioService } from '../folio-service.js';
import { freePort } from '../free-port.js';
import { startGitServer, type GitServer } from '../git-server.js';
import { startCluster, type Cluster } from './cluster.js';
import { composeImage } from './compose-file.js';
import { Apis, type Query } from './operations.js';
import { scrapeProblems, startPrometheus, type Prometheus } from './prometheus.js';

export interface Disruption {
  /** Fraction of the phase's operations finished when it happens. */
  at: number;
  /** What it did (an event line), once done. */
  run(log: (line: string) => void): Promise<string[]>;
}

export interface Deployment {
  mode: 'cluster' | 'embedded';
  work: string;
  git: GitServer;
  /** Runs a query on the deployment's database (the checks read the store as well as the API). */
  query: Query;
  apiBases: string[];
  /** How long a client keeps trying while no API process answers. */
  patienceMs: number;
  describe: string;
  cli(args: string[]): Promise<string>;
  startPhase(workers: number): Promise<void>;
  endPhase(): Promise<void>;
  disruptions: Disruption[];
  /** After the run, before `close`: the deployment's own checks (what was scraped, the UI), problems and figures. */
  checks(): Promise<{ problems: string[]; seen: Record<string, unknown> }>;
  close(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const execFileP = promisify(execFile);

/** A small pool on `url`; a connection that breaks (its server killed) is dropped, not an unhandled error. */
function openPool(url: string): pg.Pool {
  const pool = new pg.Pool({ connectionString: url, max: 4 });
  pool.on('error', () => {});
  return pool;
}

/** `settings`: variables every Folio process of the deployment gets (ShapeOptions `settings`). */
export async function clusterDeployment(work: string, settings: Record<string, string> = {}): Promise<Deployment> {
  const cluster: Cluster = await startCluster(work, settings);
  const pool = openPool(cluster.databaseUrl);
  // Sent once the first workers run (creating a space runs a workflow).
  let refused: { spaceId: string; timestamp: string } | undefined;
  try {
    for (const i of [0, 1]) await cluster.startApi(i);
  } catch (err) {
    await cluster.close();
    throw err;
  }
  return {
    mode: 'cluster',
    work,
    git: cluster.git,
    query: async (text, params) => (await pool.query(text, params)).rows,
    apiBases: cluster.apis.map((a) => `http://127.0.0.1:${a.port}`),
    patienceMs: 120_000,
    describe: `PostgreSQL, Temporal ${cluster.temporalAddress}, S3 ${cluster.s3.endpoint}, 2 API processes`,
    cli: (args) => cluster.cli(args),
    async startPhase(workers) {
      await Promise.all(Array.from({ length: workers }, (_, i) => cluster.startWorker(i)));
      refused ??= await sendRefusedImport(
        cluster.apis.map((a) => `http://127.0.0.1:${a.port}`),
        cluster.bootstrapToken,
        cluster.bootstrapOrg,
      );
    },
    async endPhase() {
      for (const w of cluster.workers.splice(0)) await cluster.stop(w);
    },
    disruptions: [
      {
        at: 1 / 3,
        async run(log) {
          const w = cluster.workers[0]!;
          const events = [`SIGKILL worker 0 (pid ${w.child.pid})`];
          log(events[0]!);
          await cluster.kill(w);
          await sleep(5000);
          await cluster.startWorker(0);
          return [...events, 'worker 0 started again'];
        },
      },
      {
        at: 2 / 3,
        async run(log) {
          const a = cluster.apis[1]!;
          const events = [`SIGKILL api 1 (pid ${a.child.pid})`];
          log(events[0]!);
          await cluster.kill(a);
          await cluster.startApi(1, a.port);
          return [...events, 'api 1 started again'];
        },
      },
    ],
    async checks() {
      const { problems, seen } = await scrapeProblems(cluster.prometheus);
      problems.push(
        ...(await refusedImportProblems(
          cluster.apis.map((a) => `http://127.0.0.1:${a.port}`),
          cluster.bootstrapToken,
          refused,
        )),
      );
      return { problems, seen: { versions: cluster.versions, temporalUi: cluster.temporalUi, prometheus: cluster.prometheus.url, ...seen } };
    },
    async close() {
      await pool.end();
      await cluster.close();
    },
  };
}

/** A git import the fetch guard refuses (a private address), sent through the API into a space of the bootstrap organization. */
async function sendRefusedImport(bases: string[], token: string, org: string): Promise<{ spaceId: string; timestamp: string }> {
  const apis = new Apis(bases);
  const space = await apis.call(token, 'POST', `/v1/orgs/${org}/spaces`, { title: 'Refused import' });
  const timestamp = new Date().toISOString();
  const url = 'http://10.255.255.1/private.git';
  await apis.call(token, 'POST', `/v1/spaces/${space.body.id}/git/import`, { url, ref: 'refs/heads/main', timestamp });
  return { spaceId: space.body.id as string, timestamp };
}

/** [] when the refused import was sent and failed as refused. */
async function refusedImportProblems(bases: string[], token: string, sent: { spaceId: string; timestamp: string } | undefined): Promise<string[]> {
  if (!sent) return ['no phase ran: the refused git import was not sent'];
  const info = await new Apis(bases).call(token, 'GET', `/v1/spaces/${sent.spaceId}/git/info`);
  const entry = (info.body.requests as Array<{ timestamp: string; status: string; code?: string }>).find(
    (r) => Date.parse(r.timestamp) === Date.parse(sent.timestamp),
  );
  return entry?.status === 'failed' && entry.code === 'FETCH_PRIVATE_ADDRESS_DENIED' ? [] : [`the refused git import ended ${JSON.stringify(entry)}`];
}

/** Prometheus scraping folio start's API and worker as deploy/prometheus.yml scrapes the compose services (their ports' variables). */
async function scrapingPrometheus(work: string, ports: Record<string, string>): Promise<Prometheus> {
  const prometheus = await startPrometheus(path.join(work, 'prometheus'));
  for (const j of prometheus.jobs) await prometheus.addTargets(j.job, [`127.0.0.1:${ports[j.variable]}`]);
  return prometheus;
}

/** The embedded deployment's Temporal: the CLI of docker-compose.yml's temporalio/temporal version, its Web UI answering. */
async function embeddedTemporalProblems(uiPort: string): Promise<{ problems: string[]; seen: Record<string, unknown> }> {
  const problems: string[] = [];
  const { cli } = ensureTemporalBinaries({ quiet: true, testServer: false });
  const said = (await execFileP(cli, ['--version'])).stdout;
  const version = /temporal version (\S+)/.exec(said)?.[1];
  if (version !== composeImage('temporal').tag)
    problems.push(`the Temporal CLI is ${version ?? said}, docker-compose.yml runs ${composeImage('temporal').tag}`);
  const ui = `http://127.0.0.1:${uiPort}/`;
  const status = await fetch(ui).then(
    (r) => r.status,
    () => 0,
  );
  if (status !== 200) problems.push(`the Temporal Web UI (${ui}) answered ${status || 'nothing'}`);
  return { problems, seen: { temporal: version, temporalUi: ui, temporalUiStatus: status } };
}

/** Waits until none of `pids` runs (Linux /proc). */
async function waitGone(pids: number[], timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  const alive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  while (pids.some(alive)) {
    if (Date.now() > deadline) throw new Error(`processes ${pids.filter(alive).join(', ')} still running ${timeoutMs} ms after their supervisor died`);
    await sleep(200);
  }
}

export async function embeddedDeployment(work: string, settings: Record<string, string> = {}): Promise<Deployment> {
  const git = await startGitServer({ root: path.join(work, 'git') });
  const dataDir = path.join(work, 'data');
  // prettier-ignore
  const ports = { PORT: String(await freePort()), TEMPORAL_PORT: String(await freePort()), TEMPORAL_UI_PORT: String(await freePort()),
    FOLIO_WORKER_METRICS_PORT: String(await freePort()), FOLIO_TEMPORAL_METRICS_PORT: String(await freePort()) };
  const token = `folio_shape_${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}`;
  // The same bootstrap organization and token on the restart (the organizations of the run are made with the CLI).
  const env = { ...settings, ...ports, FOLIO_BOOTSTRAP_ORG: 'shape-main', FOLIO_BOOTSTRAP_TOKEN: token, LOG_LEVEL: 'warn' };
  let service: FolioService;
  let prometheus: Prometheus | undefined;
  try {
    prometheus = await scrapingPrometheus(work, ports);
    service = await startFolioService(dataDir, env, 300_000);
  } catch (err) {
    await Promise.all([git.stop(), prometheus?.stop()]);
    throw err;
  }
  const prom = prometheus;
  let refused: { spaceId: string; timestamp: string } | undefined;
  // The embedded database's address (its socket), read again after a restart.
  const databaseUrl = () => (JSON.parse(readFileSync(dbServerFile(dataDir), 'utf8')) as { url: string }).url;
  let pool = openPool(databaseUrl());
  const child = (role: string) => {
    const pid = childrenByRole(service.child.pid!).get(role);
    if (!pid) throw new Error(`no ${role} child of folio start (pid ${service.child.pid})`);
    return pid;
  };
  return {
    mode: 'embedded',
    work,
    git,
    query: async (text, params) => (await pool.query(text, params)).rows,
    apiBases: [service.api],
    // A whole `folio start` restarting (database, Temporal, worker, API) on a loaded machine.
    patienceMs: 420_000,
    describe: `folio start (PGlite served by its db-server child, blobs in the database, its own Temporal dev server, 1 worker, 1 API)`,
    cli: (args) => folioCli(service, args),
    startPhase: async () => void (refused ??= await sendRefusedImport([service.api], token, 'shape-main')),
    endPhase: async () => {},
    disruptions: [
      {
        at: 1 / 3,
        async run(log) {
          const pid = child('worker');
          const events = [`SIGKILL the worker child of folio start (pid ${pid}); its supervisor starts it again`];
          log(events[0]!);
          process.kill(pid, 'SIGKILL');
          return events;
        },
      },
      {
        at: 2 / 3,
        async run(log) {
          const pids = [...childrenByRole(service.child.pid!).values()];
          const events = [`SIGKILL folio start (pid ${service.child.pid}; children ${pids.join(', ')})`];
          log(events[0]!);
          const exited = new Promise((r) => service.child.once('exit', r));
          service.child.kill('SIGKILL');
          await exited;
          await waitGone(pids, 60_000);
          service = await startFolioService(dataDir, env, 300_000);
          void pool.end().catch(() => {});
          pool = openPool(databaseUrl());
          return [...events, `folio start started again on the same DATA_DIR (pid ${service.child.pid})`];
        },
      },
    ],
    async checks() {
      const temporal = await embeddedTemporalProblems(ports.TEMPORAL_UI_PORT);
      const scraped = await scrapeProblems(prom);
      const refusal = await refusedImportProblems([service.api], token, refused);
      return { problems: [...temporal.problems, ...scraped.problems, ...refusal], seen: { ...temporal.seen, ...scraped.seen } };
    },
    async close() {
      await pool.end();
      await stopFolioService(service);
      await Promise.all([git.stop(), prom.stop()]);
    },
  };
}
