import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrations, openStore } from '../../src/store/index.js';
import { postgresUnavailableReason, startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { defineStoreSuite } from './store-suite.js';
import { definePeopleSuite } from './people-suite.js';
import { rawSql } from '../../src/store/raw-sql.js';

const server: TestPostgres | null = await startPostgres();

afterAll(async () => {
  await server?.stop();
});

if (server) {
  defineStoreSuite('store on a PostgreSQL server (pg)', { open: () => openStore({ databaseUrl: server.url, poolSize: 4 }) });
  definePeopleSuite('people on a PostgreSQL server (pg)', () => openStore({ databaseUrl: server.url, poolSize: 4 }));

  describe('PostgreSQL server', () => {
    let url: string;
    beforeAll(async () => {
      // A second database, so this test sees migrations applied from scratch.
      const admin = await openStore({ databaseUrl: server.url, migrate: false, poolSize: 1 });
      await rawSql(admin).query('CREATE DATABASE folio_concurrent_migrations');
      await admin.close();
      const u = new URL(server.url);
      u.pathname = '/folio_concurrent_migrations';
      url = u.toString();
    });

    it('applies migrations once when two processes start at once (advisory lock)', async () => {
      const [a, b] = await Promise.all([
        openStore({ databaseUrl: url, migrate: false, poolSize: 2 }),
        openStore({ databaseUrl: url, migrate: false, poolSize: 2 }),
      ]);
      try {
        const [ra, rb] = await Promise.all([a.migrate(), b.migrate()]);
        const all = migrations.map((m) => m.id);
        expect([...ra.applied, ...rb.applied].sort()).toEqual(all);
        const rows = await rawSql(a).query<{ id: string }>('SELECT id FROM schema_migrations ORDER BY id');
        expect(rows.map((r) => r.id)).toEqual(all);
      } finally {
        await a.close();
        await b.close();
      }
    });

    it('reports an unreachable server as STORE_UNAVAILABLE', async () => {
      const u = new URL(server.url);
      u.port = '1';
      await expect(openStore({ databaseUrl: u.toString(), poolSize: 1 })).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE', retryable: true });
    });
  });
} else {
  describe.skip(`store on a PostgreSQL server: skipped (${postgresUnavailableReason})`, () => {
    it('needs a server', () => {});
  });
}
