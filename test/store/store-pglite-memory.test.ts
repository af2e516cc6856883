import { describe, expect, it } from 'vitest';
import { MigrationError, migrations, openStore, runMigrations } from '../../src/store/index.js';
import { defineStoreSuite } from './store-suite.js';
import { definePeopleSuite } from './people-suite.js';
import { pgliteTemplate } from '../helpers/store.js';
import { rawSql } from '../../src/store/raw-sql.js';

defineStoreSuite('store on PGlite (memory://)', { open: () => openStore({ dataDir: 'memory://', pgliteTemplate: pgliteTemplate() }) });
definePeopleSuite('people on PGlite (memory://)', () => openStore({ dataDir: 'memory://', pgliteTemplate: pgliteTemplate() }));

describe('migration runner', () => {
  it('rejects a badly ordered list and rolls back a failing migration without recording it', async () => {
    const store = await openStore({ dataDir: 'memory://', migrate: false });
    try {
      await expect(
        runMigrations(rawSql(store), [
          { id: '002_b', sql: 'SELECT 1' },
          { id: '001_a', sql: 'SELECT 1' },
        ]),
      ).rejects.toBeInstanceOf(MigrationError);
      await expect(
        runMigrations(rawSql(store), [
          { id: '001_a', sql: 'SELECT 1' },
          { id: '001_a', sql: 'SELECT 1' },
        ]),
      ).rejects.toBeInstanceOf(MigrationError);
      const good = { id: '001_good', sql: 'CREATE TABLE good (id int)' };
      const bad = { id: '002_bad', sql: 'CREATE TABLE half (id int); SELECT * FROM no_such_table' };
      await expect(runMigrations(rawSql(store), [good, bad])).rejects.toMatchObject({ code: 'MIGRATION_FAILED', data: { id: '002_bad' } });
      const recorded = await rawSql(store).query<{ id: string }>('SELECT id FROM schema_migrations ORDER BY id');
      expect(recorded.map((r) => r.id)).toEqual(['001_good']);
      const half = await rawSql(store).query("SELECT 1 FROM information_schema.tables WHERE table_name = 'half'");
      expect(half).toHaveLength(0);
      expect(await runMigrations(rawSql(store), [good])).toEqual({ applied: [] });
    } finally {
      await store.close();
    }
  });

  it('keeps the vault entries sealed before the vault table was renamed (007_vault_secrets)', async () => {
    const store = await openStore({ dataDir: 'memory://', migrate: false });
    try {
      const before = migrations.findIndex((m) => m.id === '007_vault_secrets');
      expect(before).toBeGreaterThan(0);
      await runMigrations(rawSql(store), migrations.slice(0, before));
      await store.orgs.create({ id: 'org-m', title: 'M' });
      // The space row as that schema had it (the store's space columns are those of the latest migration).
      const space = { id: 'space-m' };
      await rawSql(store).query("INSERT INTO spaces (id, organization_id) VALUES ('space-m', 'org-m')");
      const sealed = new Uint8Array([1, 2, 3, 4]);
      await rawSql(store).query("INSERT INTO git_credentials (id, space_id, sealed, expires_at) VALUES ('cred_old', $1, $2, now() + interval '1 hour')", [
        space.id,
        sealed,
      ]);
      expect((await store.migrate()).applied).toContain('007_vault_secrets');
      expect(await store.vault.sealed('cred_old', space.id)).toEqual(sealed);
    } finally {
      await store.close();
    }
  });
});
