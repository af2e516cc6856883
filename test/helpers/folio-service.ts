/**
 * `folio start` as a user runs it (the embedded database server, a Temporal dev server, a worker and the API as
 * supervised child processes, on free ports), for tests and benchmarks that need the real process layout: its
 * children found by role in /proc, organizations and tokens made with the CLI, an HTTP client per token.
 * Requires `npm run build` (it starts dist/src/cli/folio.js).
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import readline from 'node:readline';
import { promisify } from 'node:util';
import { projectRoot } from '../../src/project-root.js';
import { freePort } from './free-port.js';
import { LOOPBACK_ALLOW_HOSTS } from './loopback-policy.js';

export const folioEntry = path.join(projectRoot(), 'dist', 'src', 'cli', 'folio.js');
const execFileP = promisify(execFile);

export interface FolioService {
  child: ChildProcess;
  /** `http://127.0.0.1:<port>` */
  api: string;
  env: NodeJS.ProcessEnv;
  /** Every line the service printed (its children's logs, prefixed by role). */
  output: string[];
  /** The bootstrap organization's id and token. */
  organizationId: string;
  token: string;
}

/**
 * Starts `folio start` on `dataDir` with `extraEnv` (its PORT, TEMPORAL_PORT and TEMPORAL_UI_PORT when given, else
 * free ports) and waits until /healthz answers 200; a service that does not get there is stopped before the error.
 */
export async function startFolioService(dataDir: string, extraEnv: Record<string, string> = {}, timeoutMs = 180_000): Promise<FolioService> {
  const portOf = async (name: string) => (extraEnv[name] ? Number(extraEnv[name]) : await freePort());
  const [port, temporalPort, uiPort] = [await portOf('PORT'), await portOf('TEMPORAL_PORT'), await portOf('TEMPORAL_UI_PORT')];
  const organizationId = extraEnv.FOLIO_BOOTSTRAP_ORG ?? 'main';
  const token = `folio_test_${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}`;
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    TEMPORAL_PORT: String(temporalPort),
    TEMPORAL_UI_PORT: String(uiPort),
    LOG_LEVEL: 'warn',
    FOLIO_LOG_PRETTY: '0',
    FOLIO_BOOTSTRAP_ORG: organizationId,
    FOLIO_BOOTSTRAP_TOKEN: token,
    FETCH_ALLOW_HOSTS: LOOPBACK_ALLOW_HOSTS,
    ...extraEnv,
  };
  delete env.DATABASE_URL;
  delete env.TEMPORAL_ADDRESS;
  const child = spawn(process.execPath, [folioEntry, 'start'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  for (const s of [child.stdout!, child.stderr!]) readline.createInterface({ input: s }).on('line', (l) => output.push(l));
  const api = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`folio start exited:\n${output.slice(-30).join('\n')}`);
    try {
      if ((await fetch(`${api}/healthz`)).status === 200) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await stopFolioService({ child } as FolioService);
      throw new Error(`folio start not healthy:\n${output.slice(-30).join('\n')}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  return { child, api, env, output, organizationId, token };
}

/** SIGTERM, then SIGKILL after 20 s. */
export async function stopFolioService(s: FolioService): Promise<void> {
  if (s.child.exitCode !== null || s.child.signalCode !== null) return;
  const exited = new Promise((r) => s.child.once('exit', r));
  s.child.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 20_000))]);
  if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGKILL');
}

/** The supervised children of `folio start` by role (`db-server`, `worker`, `api`, …), from /proc (Linux). */
export function childrenByRole(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  let names: string[] = [];
  try {
    names = readdirSync('/proc');
  } catch {
    return out;
  }
  for (const name of names) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid !== pid) continue;
      const argv = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0');
      const i = argv.findIndex((a) => a.endsWith('folio.js'));
      if (i >= 0 && argv[i + 1]) out.set(argv[i + 1]!, Number(name));
    } catch {
      // gone
    }
  }
  return out;
}

/** Runs the `folio` CLI against the service's data directory and database. */
export async function folioCli(s: FolioService, args: string[]): Promise<string> {
  const { stdout } = await execFileP(process.execPath, [folioEntry, ...args], { env: s.env });
  return stdout;
}

/** The HTTP API with one token. */
export class ApiClient {
  constructor(
    readonly base: string,
    readonly token: string,
  ) {}

  async request(method: string, p: string, body?: unknown): Promise<{ status: number; body: any }> {
    const res = await fetch(this.base + p, {
      method,
      headers: { authorization: `Bearer ${this.token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON
    }
    return { status: res.status, body: parsed };
  }

  /** Like `request`, throwing on a status of 400 or more. */
  async call(method: string, p: string, body?: unknown): Promise<any> {
    const res = await this.request(method, p, body);
    if (res.status >= 400) throw new Error(`${method} ${p}: ${res.status} ${JSON.stringify(res.body).slice(0, 500)}`);
    return res.body;
  }
}

/** A new organization with a token of its own (the CLI, as an operator makes them). */
export async function newOrganization(s: FolioService, id: string): Promise<ApiClient> {
  await folioCli(s, ['org', 'create', id, '--title', id]);
  const out = await folioCli(s, ['token', 'create', '--org', id]);
  const token = /folio_[A-Za-z0-9_-]+/.exec(out)?.[0];
  if (!token) throw new Error(`no token in: ${out}`);
  return new ApiClient(s.api, token);
}

export interface GitRequestEntry {
  requestId: string;
  timestamp: string;
  status: string;
  code?: string;
  message?: string;
}

/**
 * Queues a git import of `url` into `spaceId` and resolves with its request-log entry once it left `queued` and
 * `running`, or with undefined when `timeoutMs` passed first. Polls `git/info` (transient API errors are retried).
 */
export async function gitImport(api: ApiClient, spaceId: string, url: string, timeoutMs: number): Promise<GitRequestEntry | undefined> {
  const timestamp = new Date().toISOString();
  await api.call('POST', `/v1/spaces/${spaceId}/git/import`, { url, ref: 'refs/heads/main', timestamp });
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    const info = await api.request('GET', `/v1/spaces/${spaceId}/git/info`);
    const mine = (info.body?.requests as GitRequestEntry[] | undefined)?.find((r) => Date.parse(r.timestamp) === Date.parse(timestamp));
    if (mine && mine.status !== 'queued' && mine.status !== 'running') return mine;
    await new Promise((r) => setTimeout(r, 100));
  }
  return undefined;
}

/** The JSON log records the service printed with message `msg` (the children's lines; LOG_LEVEL decides which). */
export function logRecords(s: FolioService, msg: string): Array<Record<string, any>> {
  const out: Array<Record<string, any>> = [];
  for (const line of s.output) {
    if (!line.startsWith('{') || !line.includes(msg)) continue;
    try {
      const record = JSON.parse(line) as Record<string, any>;
      if (record.msg === msg) out.push(record);
    } catch {
      // not JSON
    }
  }
  return out;
}
