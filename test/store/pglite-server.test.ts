import { spawn } from 'node:child_process';
import { chmod, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore, startPgliteServer } from '../../src/store/index.js';
import { defineStoreSuite } from './store-suite.js';
import { rawSql } from '../../src/store/raw-sql.js';
import { sharedTmpdir } from '../helpers/shared-tmpdir.js';

const root = await mkdtemp(path.join(os.tmpdir(), 'folio-pglite-server-'));
// Like a DATA_DIR others may look into: only the socket directory keeps them out.
await chmod(root, 0o755);
const server = await startPgliteServer({ dataDir: path.join(root, 'db'), socketDir: path.join(root, 'run'), maxConnections: 16 });

/**
 * A PostgreSQL client with no dependency (node:net, the protocol's StartupMessage): it connects to the server's
 * socket and prints `CONNECTED <first reply type>` or `REFUSED <errno code>`. Written to a directory every user may
 * read, and run with `/` as its working directory, so another user can run it wherever the checkout sits (a client
 * loading `pg` from node_modules would fail to load in a checkout under a mode-0700 directory, not be refused).
 */
const CLIENT = `import net from 'node:net';
const body = Buffer.from('user\\0postgres\\0database\\0postgres\\0\\0');
const head = Buffer.alloc(8);
head.writeInt32BE(8 + body.length, 0);
head.writeInt32BE(196608, 4);
const socket = net.connect(process.argv[2]);
socket.setTimeout(10000, () => { console.log('TIMEOUT'); process.exit(0); });
socket.once('connect', () => socket.write(Buffer.concat([head, body])));
socket.once('data', (d) => { console.log('CONNECTED ' + String.fromCharCode(d[0])); socket.end(); process.exit(0); });
socket.once('error', (e) => { console.log('REFUSED ' + (e.code ?? e.message)); process.exit(0); });
`;
// Another user runs the client script: in a directory that user can reach.
const clientDir = await mkdtemp(path.join(sharedTmpdir(), 'folio-pg-client-'));
await chmod(clientDir, 0o755);
const clientScript = path.join(clientDir, 'client.mjs');
await writeFile(clientScript, CLIENT, { mode: 0o644 });

/** Runs the client against the server's socket, as `user` (uid/gid) or as this process's user; resolves with its output. */
function connectAs(socketPath: string, user?: { uid: number; gid: number }): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [clientScript, socketPath], { cwd: '/', ...(user ?? {}), stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    child.stderr.on('data', (d: Buffer) => (out += d.toString()));
    child.once('error', reject);
    child.once('exit', () => resolve(out.trim()));
  });
}

afterAll(async () => {
  await server.stop();
  await rm(root, { recursive: true, force: true });
  await rm(clientDir, { recursive: true, force: true });
});

// The whole store suite, through the wire protocol: what the worker and the API do in `npm start`.
defineStoreSuite('store through a pglite-server (pg adapter)', { open: () => openStore({ databaseUrl: server.url, poolSize: 4 }) });

describe('pglite-server with two pg clients', () => {
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  it('serves on a unix socket in a directory only its owner may enter, and on no TCP port', async () => {
    expect(server.socketDir).toBe(path.join(root, 'run'));
    expect(server.socketPath).toBe(path.join(root, 'run', '.s.PGSQL.5432'));
    expect(server.url).toBe(`postgresql://postgres@localhost/postgres?host=${encodeURIComponent(path.join(root, 'run'))}&port=5432`);
    expect((await stat(server.socketDir)).mode & 0o777).toBe(0o700);
    expect((await stat(server.socketPath)).isSocket()).toBe(true);
    const client = new pg.Client({ connectionString: server.url });
    await client.connect();
    try {
      expect((await client.query('SELECT 1 AS one')).rows).toEqual([{ one: 1 }]);
    } finally {
      await client.end();
    }
  });

  it.skipIf(process.getuid?.() !== 0)('refuses a pg client of another local user', async () => {
    // The owner's own client gets in (the control: the same script, so a refusal is the file system's, not a
    // client that could not run), another user's (nobody) is refused by the file system.
    expect(await connectAs(server.socketPath)).toBe('CONNECTED R');
    expect(await connectAs(server.socketPath, { uid: 65534, gid: 65534 })).toMatch(/^REFUSED (EACCES|EPERM)$/);
  });

  it('a second server on the same socket is refused; a stale socket file is replaced; a too deep directory falls back', async () => {
    await expect(startPgliteServer({ dataDir: 'memory://', socketDir: server.socketDir })).rejects.toThrow(/already listens/);
    const dir = await mkdtemp(path.join(os.tmpdir(), 'folio-pgs-'));
    try {
      await writeFile(path.join(dir, '.s.PGSQL.6000'), 'left by a crash');
      const second = await startPgliteServer({ dataDir: 'memory://', socketDir: dir, port: 6000 });
      const c = new pg.Client({ connectionString: second.url });
      await c.connect();
      await c.end();
      await second.stop();
      // A socket path longer than a unix socket allows falls back to a private temporary directory.
      const deep = await startPgliteServer({ dataDir: 'memory://', socketDir: path.join(dir, 'x'.repeat(120)) });
      expect(deep.socketDir.startsWith(os.tmpdir())).toBe(true);
      expect((await stat(deep.socketDir)).mode & 0o777).toBe(0o700);
      await deep.stop();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('isolates concurrent transactions of two clients (no lost update, rollback stays private)', async () => {
    const a = await openStore({ databaseUrl: server.url, poolSize: 3, migrate: false });
    const b = await openStore({ databaseUrl: server.url, poolSize: 3, migrate: false });
    try {
      await rawSql(a).exec(
        'CREATE TABLE IF NOT EXISTS mux_counter (id int PRIMARY KEY, n int NOT NULL); INSERT INTO mux_counter VALUES (1, 0) ON CONFLICT DO NOTHING; CREATE TABLE IF NOT EXISTS mux_rows (v text)',
      );
      // Read-modify-write with a pause in the middle: interleaving would lose updates.
      const bump = (store: typeof a) =>
        rawSql(store).transaction(async (tx) => {
          const [row] = await tx.query<{ n: number }>('SELECT n FROM mux_counter WHERE id = 1');
          await sleep(2);
          await tx.query('UPDATE mux_counter SET n = $1 WHERE id = 1', [row!.n + 1]);
        });
      await Promise.all(Array.from({ length: 30 }, (_, i) => bump(i % 2 ? a : b)));
      const [{ n }] = (await rawSql(a).query<{ n: number }>('SELECT n FROM mux_counter WHERE id = 1')) as [{ n: number }];
      expect(n).toBe(30);

      // A rolls back while B commits concurrently: B's row stays, A's never shows.
      const rolledBack = rawSql(a)
        .transaction(async (tx) => {
          await tx.query("INSERT INTO mux_rows VALUES ('from-a')");
          await sleep(30);
          throw new Error('abort');
        })
        .catch((err: Error) => err.message);
      const committed = rawSql(b).transaction(async (tx) => {
        await tx.query("INSERT INTO mux_rows VALUES ('from-b')");
      });
      expect(await rolledBack).toBe('abort');
      await committed;
      const rows = await rawSql(b).query<{ v: string }>('SELECT v FROM mux_rows ORDER BY v');
      expect(rows.map((r) => r.v)).toEqual(['from-b']);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('rolls back the transaction of a client that disconnects mid-way, and others go on', async () => {
    const quitter = new pg.Client({ connectionString: server.url });
    await quitter.connect();
    quitter.on('error', () => {});
    await quitter.query('CREATE TABLE IF NOT EXISTS mux_quit (v text)');
    await quitter.query('BEGIN');
    await quitter.query("INSERT INTO mux_quit VALUES ('lost')");
    // Drop the socket without COMMIT or ROLLBACK.
    (quitter as unknown as { connection: { stream: { destroy(): void } } }).connection.stream.destroy();
    await sleep(100);
    const other = await openStore({ databaseUrl: server.url, poolSize: 1, migrate: false });
    try {
      await rawSql(other).transaction(async (tx) => {
        await tx.query("INSERT INTO mux_quit VALUES ('kept')");
      });
      const rows = await rawSql(other).query<{ v: string }>('SELECT v FROM mux_quit');
      expect(rows.map((r) => r.v)).toEqual(['kept']);
    } finally {
      await other.close();
    }
  });
});
