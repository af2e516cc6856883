import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore, startPgliteServer } from '../../src/store/index.js';
import { defineStoreSuite } from './store-suite.js';

const root = await mkdtemp(path.join(os.tmpdir(), 'folio-pglite-server-'));
const server = await startPgliteServer({ dataDir: path.join(root, 'db'), maxConnections: 16 });

afterAll(async () => {
  await server.stop();
  await rm(root, { recursive: true, force: true });
});

// The whole store suite, through the wire protocol: what the worker and the API do in `npm start`.
defineStoreSuite('store through a pglite-server (pg adapter)', { open: () => openStore({ databaseUrl: server.url, poolSize: 4 }) });

describe('pglite-server with two pg clients', () => {
  const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

  it('serves a postgresql:// url on a free loopback port', () => {
    expect(server.url).toMatch(/^postgresql:\/\/postgres@127\.0\.0\.1:\d+\/postgres/);
    expect(server.port).toBeGreaterThan(0);
  });

  it('isolates concurrent transactions of two clients (no lost update, rollback stays private)', async () => {
    const a = await openStore({ databaseUrl: server.url, poolSize: 3, migrate: false });
    const b = await openStore({ databaseUrl: server.url, poolSize: 3, migrate: false });
    try {
      await a.sql.exec('CREATE TABLE IF NOT EXISTS mux_counter (id int PRIMARY KEY, n int NOT NULL); INSERT INTO mux_counter VALUES (1, 0) ON CONFLICT DO NOTHING; CREATE TABLE IF NOT EXISTS mux_rows (v text)');
      // Read-modify-write with a pause in the middle: interleaving would lose updates.
      const bump = (store: typeof a) =>
        store.sql.transaction(async (tx) => {
          const [row] = await tx.query<{ n: number }>('SELECT n FROM mux_counter WHERE id = 1');
          await sleep(2);
          await tx.query('UPDATE mux_counter SET n = $1 WHERE id = 1', [row!.n + 1]);
        });
      await Promise.all(Array.from({ length: 30 }, (_, i) => bump(i % 2 ? a : b)));
      const [{ n }] = (await a.sql.query<{ n: number }>('SELECT n FROM mux_counter WHERE id = 1')) as [{ n: number }];
      expect(n).toBe(30);

      // A rolls back while B commits concurrently: B's row stays, A's never shows.
      const rolledBack = a.sql
        .transaction(async (tx) => {
          await tx.query("INSERT INTO mux_rows VALUES ('from-a')");
          await sleep(30);
          throw new Error('abort');
        })
        .catch((err: Error) => err.message);
      const committed = b.sql.transaction(async (tx) => {
        await tx.query("INSERT INTO mux_rows VALUES ('from-b')");
      });
      expect(await rolledBack).toBe('abort');
      await committed;
      const rows = await b.sql.query<{ v: string }>('SELECT v FROM mux_rows ORDER BY v');
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
      await other.sql.transaction(async (tx) => {
        await tx.query("INSERT INTO mux_quit VALUES ('kept')");
      });
      const rows = await other.sql.query<{ v: string }>('SELECT v FROM mux_quit');
      expect(rows.map((r) => r.v)).toEqual(['kept']);
    } finally {
      await other.close();
    }
  });
});
