/**
 * The processes of a production-shape deployment on one machine, without Docker: the services of docker-compose.yml,
 * each the software (and version) the file pins — one PostgreSQL server (Debian's binaries, the image's major
 * version), one Temporal dev server with its Web UI (the CLI of the temporalio/temporal image's version, its history
 * in SQLite), one S3Proxy (filesystem backend) holding every blob, Prometheus (Debian's, the prom/prometheus version)
 * scraping every Folio process as deploy/prometheus.yml says — plus a loopback git server, and Folio's own processes
 * started from the built CLI (dist/): `folio api` (several, each on its own port) and `folio worker` (each with its
 * own data directory, metrics port and Temporal SDK metrics port, its health check polled). Every Folio process gets
 * the same DATABASE_URL, TEMPORAL_ADDRESS, vault key and S3 bucket, as docker-compose.yml wires them. A version that
 * differs from the file's fails the start.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { mkdir } from 'node:fs/promises';
import path from 'node:path';
import readline from 'node:readline';
import { promisify } from 'node:util';
import pg from 'pg';
import { startS3Server, type S3Server } from '../../../src/s3-server/server.js';
import { spawnDevServer, waitForTemporal } from '../../../src/temporal/dev-server.js';
import { ensureTemporalBinaries } from '../../../src/temporal/install-binaries.js';
import { folioEntry } from '../folio-service.js';
import { freePort } from '../free-port.js';
import { startGitServer, type GitServer } from '../git-server.js';
import { LOOPBACK_ALLOW_HOSTS } from '../loopback-policy.js';
import { startPostgres, type TestPostgres } from '../postgres.js';
import { composeImage, majorVersion } from './compose-file.js';
import { startPrometheus, type Prometheus } from './prometheus.js';

const execFileP = promisify(execFile);

export interface FolioChild {
  role: 'api' | 'worker';
  index: number;
  child: ChildProcess;
  /** The API's port, or the worker's metrics port (its /healthz). */
  port: number;
  /** The variables set for this process alone (its ports, its data directory). */
  own: Record<string, string>;
  /** The last lines it printed (for a failure's message). */
  output: string[];
}

export interface Cluster {
  work: string;
  env: NodeJS.ProcessEnv;
  databaseUrl: string;
  temporalAddress: string;
  git: GitServer;
  s3: S3Server;
  prometheus: Prometheus;
  /** The Temporal Web UI of the dev server. */
  temporalUi: string;
  /** The versions of the servers started, each checked against docker-compose.yml. */
  versions: Record<string, string>;
  bootstrapOrg: string;
  bootstrapToken: string;
  apis: FolioChild[];
  workers: FolioChild[];
  startApi(index: number, port?: number): Promise<FolioChild>;
  startWorker(index: number): Promise<FolioChild>;
  /** SIGTERM (a drained stop), SIGKILL after `graceMs`. */
  stop(c: FolioChild, graceMs?: number): Promise<void>;
  /** SIGKILL, as a machine that dies. */
  kill(c: FolioChild): Promise<void>;
  /** Runs the `folio` CLI with the deployment's environment. */
  cli(args: string[]): Promise<string>;
  close(): Promise<void>;
}

function exited(c: ChildProcess): boolean {
  return c.exitCode !== null || c.signalCode !== null;
}

function spawnFolio(role: 'api' | 'worker', index: number, port: number, env: NodeJS.ProcessEnv, own: Record<string, string>): FolioChild {
  const child = spawn(process.execPath, [folioEntry, role], { env: { ...env, ...own }, stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  for (const s of [child.stdout!, child.stderr!])
    readline.createInterface({ input: s }).on('line', (l) => {
      output.push(l);
      if (output.length > 200) output.shift();
    });
  return { role, index, child, port, own, output };
}

/** Polls `url` until it answers 200, failing when the process exits first or after `timeoutMs`. */
async function waitHealthy(c: FolioChild, url: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (exited(c.child)) throw new Error(`folio ${c.role} ${c.index} exited (${c.child.exitCode ?? c.child.signalCode}):\n${c.output.slice(-30).join('\n')}`);
    try {
      if ((await fetch(url)).status === 200) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error(`folio ${c.role} ${c.index} not healthy within ${timeoutMs} ms:\n${c.output.slice(-30).join('\n')}`);
}

async function stopChild(c: FolioChild, signal: NodeJS.Signals, graceMs: number): Promise<void> {
  if (exited(c.child)) return;
  const done = new Promise((r) => c.child.once('exit', r));
  c.child.kill(signal);
  const timer = setTimeout(() => c.child.kill('SIGKILL'), graceMs);
  await done;
  clearTimeout(timer);
}

/** The environment every Folio process of the deployment shares. */
function sharedEnv(o: { databaseUrl: string; temporalAddress: string; s3: S3Server; org: string; token: string }): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: o.databaseUrl,
    TEMPORAL_ADDRESS: o.temporalAddress,
    FOLIO_BLOB_STORE: 's3',
    FOLIO_S3_ENDPOINT: o.s3.endpoint,
    FOLIO_S3_REGION: o.s3.region,
    FOLIO_S3_BUCKET: 'folio-production-shape',
    FOLIO_S3_PREFIX: 'blobs/',
    FOLIO_S3_CREATE_BUCKET: 'true',
    FOLIO_S3_ACCESS_KEY_ID: o.s3.accessKeyId,
    FOLIO_S3_SECRET_ACCESS_KEY: o.s3.secretAccessKey,
    FOLIO_VAULT_KEY: 'production-shape-vault-key-0123456789',
    FOLIO_BOOTSTRAP_ORG: o.org,
    FOLIO_BOOTSTRAP_TOKEN: o.token,
    FETCH_ALLOW_HOSTS: LOOPBACK_ALLOW_HOSTS,
    HOST: '127.0.0.1',
    LOG_LEVEL: 'warn',
    FOLIO_LOG_PRETTY: '0',
  };
  delete env.FOLIO_WORKER_METRICS_PORT;
  delete env.FOLIO_TEMPORAL_METRICS_PORT;
  return env;
}

interface Servers {
  pg: TestPostgres;
  temporal: ChildProcess;
  temporalAddress: string;
  temporalUi: string;
  s3: S3Server;
  git: GitServer;
  prometheus: Prometheus;
  versions: Record<string, string>;
}

/** The server's version, its major the one of docker-compose.yml's postgres image. */
async function checkPostgres(url: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const version = String((await client.query('SHOW server_version')).rows[0]!.server_version);
    const pinned = composeImage('postgresql').tag;
    if (majorVersion(version) !== majorVersion(pinned)) throw new Error(`PostgreSQL ${version} started, docker-compose.yml runs postgres:${pinned}`);
    return version;
  } finally {
    await client.end();
  }
}

/** S3Proxy's health check, the one docker-compose.yml's s3 service polls. */
async function checkS3(s3: S3Server): Promise<void> {
  const res = await fetch(`${s3.endpoint}/healthz`);
  if (res.status !== 200) throw new Error(`S3Proxy's /healthz answered ${res.status}`);
}

/** Polls `url` until it answers 200 (at most `timeoutMs`); the last status (0: no answer). */
async function poll200(url: string, timeoutMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  let status = 0;
  while (status !== 200 && Date.now() < deadline) {
    status = await fetch(url).then(
      (r) => r.status,
      () => 0,
    );
    if (status !== 200) await new Promise((r) => setTimeout(r, 250));
  }
  return status;
}

/**
 * The Temporal dev server of the installed CLI (the version of docker-compose.yml's temporalio/temporal image), its
 * history in SQLite and its Web UI on, as the compose service runs it; the UI's page fetched once.
 */
async function startTemporal(work: string): Promise<{ temporal: ChildProcess; address: string; ui: string; version: string }> {
  const { cli } = ensureTemporalBinaries({ quiet: true });
  const said = (await execFileP(cli, ['--version'])).stdout;
  const version = /temporal version (\S+)/.exec(said)?.[1];
  const pinned = composeImage('temporal').tag;
  if (version !== pinned) throw new Error(`the Temporal CLI is ${version ?? said}, docker-compose.yml runs temporalio/temporal:${pinned}`);
  const [port, uiPort] = [await freePort(), await freePort()];
  await mkdir(path.join(work, 'temporal'), { recursive: true });
  const dbFile = path.join(work, 'temporal', 'temporal.db');
  const temporal = spawnDevServer({ binary: cli, port, uiPort, dbFile, logLevel: 'error', workflowTaskTimeout: '60s', stdio: 'ignore' });
  const address = `127.0.0.1:${port}`;
  const ui = `http://127.0.0.1:${uiPort}`;
  try {
    await waitForTemporal(address, { timeoutMs: 120_000, isAlive: () => !exited(temporal) });
    const status = await poll200(`${ui}/`, 60_000);
    if (status !== 200) throw new Error(`the Temporal Web UI (${ui}/) answered ${status || 'nothing'}`);
  } catch (err) {
    if (!exited(temporal)) temporal.kill('SIGTERM');
    throw err;
  }
  return { temporal, address, ui, version };
}

/** PostgreSQL, Temporal, S3, Prometheus and git; what started is stopped again when one of them fails to start. */
async function startServers(work: string): Promise<Servers> {
  const pg: TestPostgres | null = await startPostgres();
  if (!pg) throw new Error('production-shape needs PostgreSQL (Debian postgresql or FOLIO_TEST_DATABASE_URL)');
  const started = await Promise.allSettled([
    startS3Server({ dir: path.join(work, 's3') }),
    startGitServer({ root: path.join(work, 'git') }),
    startTemporal(work),
    startPrometheus(path.join(work, 'prometheus')),
  ]);
  try {
    const [s3, git, t, prometheus] = started.map((r) => {
      if (r.status === 'rejected') throw r.reason;
      return r.value;
    }) as [S3Server, GitServer, Awaited<ReturnType<typeof startTemporal>>, Prometheus];
    const postgres = await checkPostgres(pg.url);
    await checkS3(s3);
    const versions = { postgres, temporal: t.version, prometheus: composeImage('prometheus').tag };
    return { pg, temporal: t.temporal, temporalAddress: t.address, temporalUi: t.ui, s3, git, prometheus, versions };
  } catch (err) {
    await Promise.all(
      started.map((r) => {
        if (r.status !== 'fulfilled') return undefined;
        const v = r.value as { stop?: () => Promise<void>; temporal?: ChildProcess };
        if (v.temporal && !exited(v.temporal)) v.temporal.kill('SIGTERM');
        return v.stop?.();
      }),
    );
    await pg.stop();
    throw err;
  }
}

/** Starts the servers (PostgreSQL, Temporal, S3, Prometheus, git) and migrates the database; Folio's processes start on demand. */
export async function startCluster(work: string, settings: Record<string, string> = {}): Promise<Cluster> {
  const servers = await startServers(work);
  const { pg, temporal, temporalAddress, s3, git, prometheus } = servers;
  const bootstrapOrg = 'shape-main';
  const bootstrapToken = `folio_shape_${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}`;
  const env = { ...sharedEnv({ databaseUrl: pg.url, temporalAddress, s3, org: bootstrapOrg, token: bootstrapToken }), ...settings };
  const cliRun = async (args: string[]) =>
    (await execFileP(process.execPath, [folioEntry, ...args], { env: { ...env, DATA_DIR: path.join(work, 'cli') }, maxBuffer: 16 * 1024 * 1024 })).stdout;
  const stopServers = async () => {
    if (!exited(temporal)) temporal.kill('SIGTERM');
    await Promise.all([git.stop(), s3.stop(), prometheus.stop(), pg.stop()]);
  };
  try {
    await cliRun(['migrate']);
  } catch (err) {
    await stopServers();
    throw err;
  }
  // A worker index keeps its ports across restarts, so Prometheus's targets stay the same processes' ports.
  const workerPorts = new Map<number, { metrics: number; temporal: number }>();
  /** Prometheus scrapes the process as it scrapes the compose service it stands for (deploy/prometheus.yml). */
  const scrape = (c: FolioChild) =>
    Promise.all(
      prometheus.jobs.filter((j) => j.service === c.role && c.own[j.variable]).map((j) => prometheus.addTargets(j.job, [`127.0.0.1:${c.own[j.variable]}`])),
    );
  const cluster: Cluster = {
    work,
    env,
    databaseUrl: pg.url,
    temporalAddress,
    git,
    s3,
    prometheus,
    temporalUi: servers.temporalUi,
    versions: servers.versions,
    bootstrapOrg,
    bootstrapToken,
    apis: [],
    workers: [],
    async startApi(index, port) {
      const p = port ?? (await freePort());
      const c = spawnFolio('api', index, p, env, { PORT: String(p), DATA_DIR: path.join(work, `api-${index}`) });
      cluster.apis[index] = c;
      await scrape(c);
      await waitHealthy(c, `http://127.0.0.1:${p}/healthz`, 180_000);
      return c;
    },
    async startWorker(index) {
      const ports = workerPorts.get(index) ?? { metrics: await freePort(), temporal: await freePort() };
      workerPorts.set(index, ports);
      // prettier-ignore
      const own = { FOLIO_WORKER_METRICS_PORT: String(ports.metrics), FOLIO_TEMPORAL_METRICS_PORT: String(ports.temporal), DATA_DIR: path.join(work, `worker-${index}`) };
      const c = spawnFolio('worker', index, ports.metrics, env, own);
      cluster.workers[index] = c;
      await scrape(c);
      await waitHealthy(c, `http://127.0.0.1:${ports.metrics}/healthz`, 240_000);
      return c;
    },
    stop: (c, graceMs = 60_000) => stopChild(c, 'SIGTERM', graceMs),
    kill: (c) => stopChild(c, 'SIGKILL', 0),
    cli: cliRun,
    async close() {
      await Promise.all([...cluster.apis, ...cluster.workers].filter(Boolean).map((c) => stopChild(c, 'SIGTERM', 20_000)));
      await stopServers();
    },
  };
  return cluster;
}
