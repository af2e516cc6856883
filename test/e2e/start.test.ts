import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { WORKER_MALLOC_ENV, WORKER_NODE_FLAGS } from '../../src/cli/worker-memory.js';
import { projectRoot } from '../../src/project-root.js';
import { EMBEDDED_DB_NODE_FLAGS } from '../../src/store/pglite-memory.js';
import { freePort } from '../helpers/free-port.js';

/**
 * `folio start` as a user runs it (`npm start` runs this after building): the embedded database, a Temporal dev
 * server persisted in DATA_DIR, a worker and the API as supervised child processes. Stop with SIGTERM, start
 * again on the same DATA_DIR: the space and its workflow history are still there.
 */
const entry = path.join(projectRoot(), 'dist', 'src', 'cli', 'folio.js');

interface Started {
  child: ChildProcess;
  output: string[];
  exited: Promise<number | null>;
}

function startFolio(env: NodeJS.ProcessEnv): Started {
  const child = spawn(process.execPath, [entry, 'start'], { env: { ...process.env, ...env, FOLIO_LOG_PRETTY: '0' }, stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  for (const stream of [child.stdout!, child.stderr!]) readline.createInterface({ input: stream }).on('line', (l) => output.push(l));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, output, exited };
}

/** The command line of a process (Linux /proc). */
function argvOf(pid: number): string[] {
  return readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
}

/** The child process of `parent` that runs `folio <role>` (Linux /proc). */
function childOf(parent: number, role: string): number {
  for (const name of readdirSync('/proc').filter((n) => /^\d+$/.test(n))) {
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      if (Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) !== parent) continue;
      const argv = argvOf(Number(name));
      if (argv[argv.findIndex((a) => a.endsWith('folio.js')) + 1] === role) return Number(name);
    } catch {
      // gone
    }
  }
  throw new Error(`no ${role} child of ${parent}`);
}

async function waitHealthy(url: string, started: Started, timeoutMs = 120_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (started.child.exitCode !== null) throw new Error(`folio start exited early:\n${started.output.slice(-40).join('\n')}`);
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.status === 200) return;
    } catch {
      // not yet
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`not healthy in time:\n${started.output.slice(-40).join('\n')}`);
}

async function stop(started: Started): Promise<{ code: number | null; ms: number }> {
  const t0 = Date.now();
  started.child.kill('SIGTERM');
  const code = await started.exited;
  return { code, ms: Date.now() - t0 };
}

describe.runIf(existsSync(entry))('folio start (the embedded default)', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'folio-start-'));
  const running: Started[] = [];
  // The test removes these from this process's environment (the children inherit it): put back afterwards, since
  // the next files of this test process share it (test/vitest.config.ts).
  const saved = { DATABASE_URL: process.env.DATABASE_URL, TEMPORAL_ADDRESS: process.env.TEMPORAL_ADDRESS };
  afterAll(async () => {
    for (const [k, v] of Object.entries(saved)) if (v !== undefined) process.env[k] = v;
    for (const s of running) {
      if (s.child.exitCode !== null) continue;
      s.child.kill('SIGTERM');
      await Promise.race([s.exited, new Promise((r) => setTimeout(r, 10_000))]);
      if (s.child.exitCode === null) s.child.kill('SIGKILL');
    }
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('starts healthy with the Web UI, keeps spaces and history across a restart, and stops within 10 s', async () => {
    const [port, temporalPort, uiPort] = [await freePort(), await freePort(), await freePort()];
    const env = {
      DATA_DIR: dataDir,
      PORT: String(port),
      TEMPORAL_PORT: String(temporalPort),
      TEMPORAL_UI_PORT: String(uiPort),
      LOG_LEVEL: 'warn',
      FOLIO_BOOTSTRAP_ORG: 'acme',
    };
    delete process.env.DATABASE_URL;
    delete process.env.TEMPORAL_ADDRESS;
    const api = `http://127.0.0.1:${port}`;

    const first = startFolio(env);
    running.push(first);
    await waitHealthy(api, first);
    // The token is printed once, on the first start, in the banner that follows health.
    for (let i = 0; i < 100 && !first.output.some((l) => l.includes('Press Ctrl-C')); i++) await new Promise((r) => setTimeout(r, 100));
    const tokenLine = first.output.find((l) => l.includes('API token:'));
    expect(tokenLine).toBeDefined();
    const token = /API token:\s+(\S+)/.exec(tokenLine!)![1]!;
    const health = await (await fetch(`${api}/healthz`)).json();
    expect(health).toEqual({ status: 'ok', temporal: 'ok', store: 'ok' });
    const ui = await fetch(`http://127.0.0.1:${uiPort}/`);
    expect(ui.status).toBe(200);

    // The embedded database listens on a unix socket in DATA_DIR/run (0700), and the admin CLI finds it there.
    const { url: dbUrl, pid: dbPid } = JSON.parse(readFileSync(path.join(dataDir, 'db-server.json'), 'utf8')) as { url: string; pid: number };
    expect(dbUrl).toBe(`postgresql://postgres@localhost/postgres?host=${encodeURIComponent(path.join(dataDir, 'run'))}&port=5432`);
    // The database and the worker run with the node flags that keep them small (issue 17).
    if (existsSync(`/proc/${dbPid}/cmdline`)) {
      expect(argvOf(dbPid)).toEqual(expect.arrayContaining([...EMBEDDED_DB_NODE_FLAGS]));
      const worker = childOf(first.child.pid!, 'worker');
      expect(argvOf(worker)).toEqual(expect.arrayContaining([...WORKER_NODE_FLAGS]));
      const environ = readFileSync(`/proc/${worker}/environ`, 'utf8').split('\0');
      expect(environ).toEqual(expect.arrayContaining(Object.entries(WORKER_MALLOC_ENV).map(([k, v]) => `${k}=${v}`)));
    }
    expect(statSync(path.join(dataDir, 'run')).mode & 0o777).toBe(0o700);
    const cli = await promisify(execFile)(process.execPath, [entry, 'token', 'list', '--org', 'acme', '--json'], { env: { ...process.env, ...env } });
    expect((JSON.parse(cli.stdout) as Array<{ label: string; scope: string; status: string }>).map((t) => [t.label, t.scope, t.status])).toEqual([
      ['bootstrap', 'write', 'active'],
    ]);

    const auth = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const unauthorized = await fetch(`${api}/v1/orgs/acme`);
    expect(unauthorized.status).toBe(401);
    const created = await fetch(`${api}/v1/orgs/acme/spaces`, { method: 'POST', headers: auth, body: JSON.stringify({ title: 'Persisted' }) });
    expect(created.status).toBe(201);
    const space = (await created.json()) as { id: string; revision: string };

    const firstStop = await stop(first);
    expect(firstStop.code).toBe(0);
    expect(firstStop.ms).toBeLessThan(10_000);

    const second = startFolio(env);
    running.push(second);
    await waitHealthy(api, second);
    expect(second.output.some((l) => l.includes('API token:') && l.includes(token))).toBe(false);
    const again = await fetch(`${api}/v1/spaces/${space.id}`, { headers: auth });
    expect(again.status).toBe(200);
    expect(await again.json()).toMatchObject({ id: space.id, title: 'Persisted', revision: space.revision });
    // The workflow history survived too (the dev server's SQLite file in DATA_DIR).
    const { Connection, Client } = await import('@temporalio/client');
    const connection = await Connection.connect({ address: `127.0.0.1:${temporalPort}` });
    try {
      const client = new Client({ connection });
      const described = await client.workflow.getHandle(`space/${space.id}/create`).describe();
      expect(described.status.name).toBe('COMPLETED');
    } finally {
      await connection.close();
    }
    const secondStop = await stop(second);
    expect(secondStop.code).toBe(0);
    expect(secondStop.ms).toBeLessThan(10_000);
  }, 300_000);
});
