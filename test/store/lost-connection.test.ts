/**
 * Database connections lost while operations run (issue 25, item 2: "any database connection error kills the worker
 * process"). pg emits 'error' on a client whose connection dies; a client checked out of the pool (inside a
 * transaction) had no listener, and that event ended the process. Here connections are killed server-side — by
 * `pg_terminate_backend` on a real PostgreSQL, and by the embedded database server going away (its sockets
 * destroyed, as when its process dies) and coming back on the same data directory — while operations run. The
 * process survives (no uncaught exception), each operation that used a lost connection fails with a retryable
 * StoreUnavailableError, and the same operation succeeds when retried (as its activity would be).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FolioError } from '../../src/errors.js';
import { createLogger } from '../../src/log.js';
import { openStore, startPgliteServer, StoreUnavailableError, type PgliteServer, type Store } from '../../src/store/index.js';
import { rawSql } from '../../src/store/raw-sql.js';
import { postgresUnavailableReason, startPostgres, type TestPostgres } from '../helpers/postgres.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Exceptions nothing caught while this file runs: each one would have ended a worker. */
const uncaught: unknown[] = [];
const onUncaught = (err: unknown) => uncaught.push(err);
beforeAll(() => {
  process.on('uncaughtException', onUncaught);
  process.on('unhandledRejection', onUncaught);
});
afterAll(() => {
  process.off('uncaughtException', onUncaught);
  process.off('unhandledRejection', onUncaught);
});

/** A logger whose lines the test reads. */
function capturingLogger(): { logger: ReturnType<typeof createLogger>; lines: string[] } {
  const lines: string[] = [];
  return { logger: createLogger('store', { level: 'warn', destination: { write: (line: string) => void lines.push(line) } }), lines };
}

/** Runs `fn` again after each retryable error (what Temporal does with the activity), up to `attempts`. */
async function retried<T>(fn: () => Promise<T>, failures: unknown[], attempts = 30): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await fn();
    } catch (err) {
      if (!(err instanceof FolioError && err.retryable) || attempt >= attempts) throw err;
      failures.push(err);
      await sleep(Math.min(1000, 50 * 2 ** attempt));
    }
  }
}

const pgServer: TestPostgres | null = await startPostgres();

describe.skipIf(!pgServer)(`a real PostgreSQL terminating backends${pgServer ? '' : ` (skipped: ${postgresUnavailableReason})`}`, () => {
  const PASSWORD = 'n0t-in-any-log';
  let store: Store;
  let admin: pg.Client;
  const { logger, lines } = capturingLogger();

  beforeAll(async () => {
    // Trust authentication ignores the password; it is there to check that no log line carries it.
    const url = new URL(pgServer!.url);
    url.password = PASSWORD;
    store = await openStore({ databaseUrl: url.toString(), poolSize: 4, logger });
    admin = new pg.Client({ connectionString: pgServer!.url });
    admin.on('error', () => {});
    await admin.connect();
    await rawSql(store).exec('CREATE TABLE lost_connection (k text PRIMARY KEY, n int NOT NULL)');
  });
  afterAll(async () => {
    await store?.close();
    await admin?.end().catch(() => {});
    await pgServer?.stop();
  });

  const terminate = async (pid: number) => {
    // With a timeout, pg_terminate_backend waits until the backend is gone.
    await admin.query('SELECT pg_terminate_backend($1, 10000)', [pid]);
  };

  it('a transaction whose connection is terminated between two statements fails retryably; retried, it commits once', async () => {
    const failures: unknown[] = [];
    let attempt = 0;
    await retried(
      () =>
        rawSql(store).transaction(async (tx) => {
          attempt++;
          await tx.query('INSERT INTO lost_connection VALUES ($1, 1) ON CONFLICT (k) DO UPDATE SET n = lost_connection.n + 1', ['between']);
          if (attempt === 1) {
            const [{ pid }] = (await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')) as [{ pid: number }];
            // The client is checked out, idle in its transaction, when its connection dies (57P01, then the socket ends).
            await terminate(pid);
            await sleep(200);
          }
          await tx.query('SELECT 1');
        }),
      failures,
    );
    expect(attempt).toBe(2);
    expect(failures).toHaveLength(1);
    expect(failures[0]).toBeInstanceOf(StoreUnavailableError);
    // The first attempt was rolled back with its connection: one increment only.
    expect(await rawSql(store).query('SELECT n FROM lost_connection WHERE k = $1', ['between'])).toEqual([{ n: 1 }]);
    expect(uncaught).toEqual([]);
  });

  it('a statement running when its connection is terminated fails retryably; retried, it succeeds', async () => {
    const failures: unknown[] = [];
    let attempt = 0;
    const rows = await retried(
      () =>
        rawSql(store).transaction(async (tx) => {
          attempt++;
          const [{ pid }] = (await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid')) as [{ pid: number }];
          if (attempt === 1) {
            const killing = (async () => {
              // Wait until the statement below is running, then kill its backend.
              for (let i = 0; i < 200; i++) {
                const r = await admin.query("SELECT 1 FROM pg_stat_activity WHERE pid = $1 AND state = 'active' AND query LIKE '%pg_sleep%'", [pid]);
                if (r.rowCount) break;
                await sleep(20);
              }
              await terminate(pid);
            })();
            try {
              await tx.query('SELECT pg_sleep(30)');
            } finally {
              await killing;
            }
          }
          return tx.query<{ one: number }>('SELECT 1 AS one');
        }),
      failures,
    );
    expect(rows).toEqual([{ one: 1 }]);
    expect(attempt).toBe(2);
    expect(failures[0]).toBeInstanceOf(StoreUnavailableError);
    expect(uncaught).toEqual([]);
  });

  it('every backend terminated again and again while 8 workers write: nothing is lost, no exception escapes, the loss is logged without secrets', async () => {
    const keys = Array.from({ length: 240 }, (_, i) => `key-${i}`);
    const failures: unknown[] = [];
    let done = 0;
    let nextKill = 20;
    let kills = 0;
    let killing: Promise<unknown> = Promise.resolve();
    const killAll = () =>
      admin.query('SELECT pg_terminate_backend(pid, 10000) FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()');
    // An idempotent operation, as activities are: a transaction of two statements, or a single statement.
    const write = (k: string, i: number) =>
      i % 2
        ? rawSql(store).transaction(async (tx) => {
            await tx.query('INSERT INTO lost_connection VALUES ($1, 0) ON CONFLICT (k) DO NOTHING', [k]);
            await tx.query('UPDATE lost_connection SET n = 1 WHERE k = $1', [k]);
          })
        : rawSql(store).query('INSERT INTO lost_connection VALUES ($1, 1) ON CONFLICT (k) DO UPDATE SET n = 1', [k]);
    const queue = [...keys.entries()];
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        for (let item = queue.shift(); item; item = queue.shift()) {
          const [i, k] = item;
          await retried(() => write(k, i), failures);
          done++;
          if (done >= nextKill) {
            nextKill += 40;
            kills++;
            killing = killing.then(killAll);
          }
        }
      }),
    );
    await killing;
    expect(kills).toBeGreaterThanOrEqual(5);
    const rows = await rawSql(store).query<{ k: string; n: number }>("SELECT k, n FROM lost_connection WHERE k LIKE 'key-%'");
    expect(rows.length).toBe(keys.length);
    expect(rows.every((r) => r.n === 1)).toBe(true);
    for (const f of failures) expect(f).toBeInstanceOf(StoreUnavailableError);
    expect(uncaught).toEqual([]);
    // Each lost client was logged (warn), with its code and message only.
    const lost = lines.filter((l) => l.includes('database connection lost'));
    expect(lost.length).toBeGreaterThan(0);
    expect(lines.join('\n')).not.toContain(PASSWORD);
    // The store is healthy again.
    await store.health();
  });
});

describe('the embedded database server going away and coming back', () => {
  let root: string;
  let server: PgliteServer;
  let store: Store;
  const { logger, lines } = capturingLogger();

  const start = () => startPgliteServer({ dataDir: path.join(root, 'pg'), socketDir: path.join(root, 'run') });

  beforeAll(async () => {
    root = await mkdtemp(path.join(os.tmpdir(), 'folio-lost-connection-'));
    server = await start();
    store = await openStore({ databaseUrl: server.url, poolSize: 2, logger });
  });
  afterAll(async () => {
    await store?.close();
    await server?.stop();
    await rm(root, { recursive: true, force: true });
  });

  it('an open transaction and later operations fail retryably while it is down, and succeed once it is back', async () => {
    await store.orgs.create({ id: 'kept', title: 'Committed before' });
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let inside!: () => void;
    const entered = new Promise<void>((r) => (inside = r));
    const open = rawSql(store)
      .transaction(async (tx) => {
        await tx.query("INSERT INTO organizations (id, title) VALUES ('lost', 'Never committed')");
        inside();
        await gate;
        await tx.query('SELECT 1');
      })
      .then(
        () => null,
        (err: unknown) => err,
      );
    await entered;
    // The server goes away with every socket destroyed, as when its process dies; the socket file is removed.
    await server.stop();
    release();
    expect(await open).toBeInstanceOf(StoreUnavailableError);
    // While it is down: a typed, retryable error (the unix socket is missing: ENOENT on connect), never a crash.
    const down = await store.orgs.get('kept').then(
      () => null,
      (err: unknown) => err,
    );
    expect(down).toBeInstanceOf(StoreUnavailableError);
    expect((down as StoreUnavailableError).retryable).toBe(true);
    await expect(store.health()).rejects.toBeInstanceOf(StoreUnavailableError);

    // Back on the same data directory and socket: the pool reconnects, the retried operation succeeds.
    const failures: unknown[] = [];
    const restarted = (async () => {
      await sleep(300);
      server = await start();
    })();
    const org = await retried(() => store.orgs.get('kept'), failures);
    await restarted;
    expect(org).toMatchObject({ id: 'kept', title: 'Committed before' });
    expect(await store.orgs.get('lost')).toBeNull();
    for (const f of failures) expect(f).toBeInstanceOf(StoreUnavailableError);
    expect(uncaught).toEqual([]);
    expect(lines.some((l) => l.includes('database connection lost'))).toBe(true);
  });

  it('with connectWaitMs (the worker), an operation started while the server is away waits for it instead of failing', async () => {
    const waiting = await openStore({ databaseUrl: server.url, poolSize: 2, migrate: false, logger, connectWaitMs: 120_000 });
    try {
      await waiting.orgs.ensure({ id: 'waited', title: 'Before' });
      await server.stop();
      // Fails at once on the store that does not wait (the API's): 503 there.
      await expect(store.orgs.get('waited')).rejects.toBeInstanceOf(StoreUnavailableError);
      let settled = false;
      const read = waiting.orgs.get('waited').finally(() => (settled = true));
      await sleep(500);
      expect(settled).toBe(false);
      server = await start();
      expect(await read).toMatchObject({ id: 'waited', title: 'Before' });
      expect(uncaught).toEqual([]);
    } finally {
      await waiting.close();
    }
  });
});
