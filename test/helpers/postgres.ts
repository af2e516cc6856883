/**
 * A throwaway PostgreSQL server for tests. `FOLIO_TEST_DATABASE_URL` when set (a fresh database is
 * created in it and dropped at stop); else a temporary cluster from Debian's binaries
 * (/usr/lib/postgresql/<v>/bin) on a free loopback port; else null (the caller skips, saying why). The cluster's data
 * directory is a copy of one `initdb` made once per machine and PostgreSQL binary, kept in the tests' cache directory
 * (`folio-test-cache-<uid>/`, as docs/testing.md describes): initdb took 5 s of a loaded machine for each file.
 */
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { chown, mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { sharedTmpdir } from './shared-tmpdir.js';

const run = promisify(execFile);

export interface TestPostgres {
  url: string;
  stop(): Promise<void>;
}

/** Why `startPostgres` returned null, for the skipped suite's name. */
export let postgresUnavailableReason = '';

function findBinDir(): string | null {
  const root = '/usr/lib/postgresql';
  if (!existsSync(root)) return null;
  const versions = readdirSync(root)
    .filter((v) => /^\d+$/.test(v))
    .sort((a, b) => Number(b) - Number(a));
  for (const v of versions) {
    const bin = path.join(root, v, 'bin');
    if (existsSync(path.join(bin, 'initdb')) && existsSync(path.join(bin, 'pg_ctl'))) return bin;
  }
  return null;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

async function uidGid(user: string): Promise<{ uid: number; gid: number }> {
  const { stdout: uid } = await run('id', ['-u', user]);
  const { stdout: gid } = await run('id', ['-g', user]);
  return { uid: Number(uid.trim()), gid: Number(gid.trim()) };
}

/** A fresh database on the server at `url`, dropped by the returned `drop`. */
async function freshDatabase(url: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `folio_test_${process.pid}_${Math.random().toString(36).slice(2, 10)}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  try {
    await admin.query(`CREATE DATABASE ${name}`);
  } finally {
    await admin.end();
  }
  const u = new URL(url);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    async drop() {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      try {
        await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      } finally {
        await c.end();
      }
    },
  };
}

export async function startPostgres(): Promise<TestPostgres | null> {
  // FOLIO_TEST_DATABASE_URL (tests only): a PostgreSQL server to use instead of a throwaway cluster.
  const external = process.env.FOLIO_TEST_DATABASE_URL;
  if (external) {
    const db = await freshDatabase(external);
    return { url: db.url, stop: () => db.drop() };
  }
  const bin = findBinDir();
  if (!bin) {
    postgresUnavailableReason = 'no FOLIO_TEST_DATABASE_URL and no /usr/lib/postgresql/*/bin/initdb';
    return null;
  }
  const asRoot = process.getuid?.() === 0;
  // PostgreSQL refuses to run as root: run its binaries as the postgres user, in a directory it owns.
  const wrap = (cmd: string, args: string[]): [string, string[]] => (asRoot ? ['runuser', ['-u', 'postgres', '--', cmd, ...args]] : [cmd, args]);
  const dir = await mkdtemp(path.join(sharedTmpdir(), 'folio-pg-'));
  if (asRoot) {
    const { uid, gid } = await uidGid('postgres');
    await chown(dir, uid, gid);
  }
  const data = path.join(dir, 'data');
  const exec = async (cmd: string, args: string[]) => {
    const [c, a] = wrap(path.join(bin, cmd), args);
    return run(c, a, { cwd: dir, timeout: 120_000 });
  };
  try {
    await copyTemplate(bin, data, exec);
  } catch (err) {
    await rm(dir, { recursive: true, force: true });
    throw new Error(`initdb failed: ${(err as { stderr?: string }).stderr ?? String(err)}`);
  }
  let lastError: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    const port = await freePort();
    const opts = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=50`;
    try {
      await exec('pg_ctl', ['-D', data, '-o', opts, '-l', path.join(dir, 'log'), '-w', '-t', '60', 'start']);
    } catch (err) {
      lastError = err;
      continue;
    }
    const url = `postgresql://postgres@127.0.0.1:${port}/postgres`;
    return {
      url,
      async stop() {
        await exec('pg_ctl', ['-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => {});
        await rm(dir, { recursive: true, force: true });
      },
    };
  }
  await rm(dir, { recursive: true, force: true });
  throw new Error(`could not start PostgreSQL: ${(lastError as { stderr?: string })?.stderr ?? String(lastError)}`);
}

const INITDB_ARGS = ['-A', 'trust', '-U', 'postgres', '--no-sync', '-E', 'UTF8', '--locale=C'];

/**
 * Puts a fresh cluster's data directory at `data`: a copy (`cp -a`: owner and modes kept) of the one `initdb` made for
 * this PostgreSQL binary and these arguments, made first when missing (by `exec`, as the user that runs PostgreSQL,
 * next to `data`; two processes that make it at once each keep their own, the first renamed in place wins).
 */
async function copyTemplate(bin: string, data: string, exec: (cmd: string, args: string[]) => Promise<unknown>): Promise<void> {
  const initdb = path.join(bin, 'initdb');
  const key = createHash('sha256')
    .update(JSON.stringify([initdb, statSync(initdb).mtimeMs, INITDB_ARGS]))
    .digest('hex')
    .slice(0, 16);
  const cache = path.join(os.tmpdir(), `folio-test-cache-${os.userInfo().uid}`);
  const template = path.join(cache, `postgres-initdb-${key}`);
  if (!existsSync(path.join(template, 'PG_VERSION'))) {
    await exec('initdb', ['-D', data, ...INITDB_ARGS]);
    await mkdir(cache, { recursive: true, mode: 0o700 });
    const staged = `${template}.${process.pid}-${Math.random().toString(36).slice(2)}`;
    await run('cp', ['-a', data, staged]);
    await rename(staged, template).catch(() => rm(staged, { recursive: true, force: true }));
    return;
  }
  await run('cp', ['-a', template, data]);
}
