/**
 * The processes of a production-shape deployment on one machine, without Docker: one PostgreSQL server (Debian's
 * binaries), one Temporal dev server, one S3-compatible server (S3Proxy) holding every blob, a loopback git server,
 * and Folio's own processes started from the built CLI (dist/): `folio api` (several, each on its own port) and
 * `folio worker` (each with its own data directory and metrics port, its health check polled). Every Folio process
 * gets the same DATABASE_URL, TEMPORAL_ADDRESS, vault key and S3 bucket, as docker-compose.yml wires them.
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import readline from 'node:readline';
import { promisify } from 'node:util';
import { startS3Server, type S3Server } from '../../../src/s3-server/server.js';
import { spawnDevServer, waitForTemporal } from '../../../src/temporal/dev-server.js';
import { ensureTemporalBinaries } from '../../../src/temporal/install-binaries.js';
import { folioEntry } from '../folio-service.js';
import { freePort } from '../free-port.js';
import { startGitServer, type GitServer } from '../git-server.js';
import { LOOPBACK_ALLOW_HOSTS } from '../loopback-policy.js';
import { startPostgres, type TestPostgres } from '../postgres.js';

const execFileP = promisify(execFile);

export interface FolioChild {
  role: 'api' | 'worker';
  index: number;
  child: ChildProcess;
  /** The API's port, or the worker's metrics port (its /healthz). */
  port: number;
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

function spawnFolio(role: 'api' | 'worker', index: number, port: number, env: NodeJS.ProcessEnv): FolioChild {
  const child = spawn(process.execPath, [folioEntry, role], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  for (const s of [child.stdout!, child.stderr!])
    readline.createInterface({ input: s }).on('line', (l) => {
      output.push(l);
      if (output.length > 200) output.shift();
    });
  return { role, index, child, port, output };
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
  s3: S3Server;
  git: GitServer;
}

/** PostgreSQL, Temporal, S3 and git; what started is stopped again when one of them fails to start. */
async function startServers(work: string): Promise<Servers> {
  const pg: TestPostgres | null = await startPostgres();
  if (!pg) throw new Error('production-shape needs PostgreSQL (Debian postgresql or FOLIO_TEST_DATABASE_URL)');
  let temporal: ChildProcess | undefined;
  const started = await Promise.allSettled([startS3Server({ dir: path.join(work, 's3') }), startGitServer({ root: path.join(work, 'git') })]);
  try {
    const { cli } = ensureTemporalBinaries({ quiet: true });
    const port = await freePort();
    temporal = spawnDevServer({ binary: cli, port, headless: true, logLevel: 'error', workflowTaskTimeout: '60s', stdio: 'ignore' });
    const [s3, git] = started.map((r) => {
      if (r.status === 'rejected') throw r.reason;
      return r.value;
    }) as [S3Server, GitServer];
    const t = temporal;
    await waitForTemporal(`127.0.0.1:${port}`, { timeoutMs: 120_000, isAlive: () => !exited(t) });
    return { pg, temporal, temporalAddress: `127.0.0.1:${port}`, s3, git };
  } catch (err) {
    if (temporal && !exited(temporal)) temporal.kill('SIGTERM');
    await Promise.all(started.map((r) => (r.status === 'fulfilled' ? r.value.stop() : undefined)));
    await pg.stop();
    throw err;
  }
}

/** Starts the servers (PostgreSQL, Temporal, S3, git) and migrates the database; Folio's processes start on demand. */
export async function startCluster(work: string): Promise<Cluster> {
  const { pg, temporal, temporalAddress, s3, git } = await startServers(work);
  const bootstrapOrg = 'shape-main';
  const bootstrapToken = `folio_shape_${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}`;
  const env = sharedEnv({ databaseUrl: pg.url, temporalAddress, s3, org: bootstrapOrg, token: bootstrapToken });
  const cliRun = async (args: string[]) =>
    (await execFileP(process.execPath, [folioEntry, ...args], { env: { ...env, DATA_DIR: path.join(work, 'cli') }, maxBuffer: 16 * 1024 * 1024 })).stdout;
  try {
    await cliRun(['migrate']);
  } catch (err) {
    temporal.kill('SIGTERM');
    await Promise.all([git.stop(), s3.stop(), pg.stop()]);
    throw err;
  }
  const cluster: Cluster = {
    work,
    env,
    databaseUrl: pg.url,
    temporalAddress,
    git,
    s3,
    bootstrapOrg,
    bootstrapToken,
    apis: [],
    workers: [],
    async startApi(index, port) {
      const p = port ?? (await freePort());
      const c = spawnFolio('api', index, p, { ...env, PORT: String(p), DATA_DIR: path.join(work, `api-${index}`) });
      cluster.apis[index] = c;
      await waitHealthy(c, `http://127.0.0.1:${p}/healthz`, 180_000);
      return c;
    },
    async startWorker(index) {
      const p = await freePort();
      const c = spawnFolio('worker', index, p, { ...env, FOLIO_WORKER_METRICS_PORT: String(p), DATA_DIR: path.join(work, `worker-${index}`) });
      cluster.workers[index] = c;
      await waitHealthy(c, `http://127.0.0.1:${p}/healthz`, 240_000);
      return c;
    },
    stop: (c, graceMs = 60_000) => stopChild(c, 'SIGTERM', graceMs),
    kill: (c) => stopChild(c, 'SIGKILL', 0),
    cli: cliRun,
    async close() {
      await Promise.all([...cluster.apis, ...cluster.workers].filter(Boolean).map((c) => stopChild(c, 'SIGTERM', 20_000)));
      if (!exited(temporal)) temporal.kill('SIGTERM');
      await Promise.all([git.stop(), s3.stop(), pg.stop()]);
    },
  };
  return cluster;
}
