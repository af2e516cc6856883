import type { Logger } from '../log.js';
import { MigrationError } from './errors.js';
import type { Migration, Sql } from './types/index.js';

/** The advisory-lock key that serialises migrations across processes ("folio" in ASCII). */
export const MIGRATION_LOCK_KEY = 0x666f6c696f;

const ID = /^\d{3,}_[a-z0-9_]+$/;

function checkOrder(list: readonly Migration[]): void {
  const seen = new Set<string>();
  let previous = '';
  for (const m of list) {
    if (!ID.test(m.id)) throw new MigrationError(m.id, new Error('migration ids look like 001_name'));
    if (seen.has(m.id)) throw new MigrationError(m.id, new Error('duplicate migration id'));
    if (m.id <= previous) throw new MigrationError(m.id, new Error(`listed after ${previous}; keep the list ordered`));
    seen.add(m.id);
    previous = m.id;
  }
}

/**
 * Applies the pending migrations in order, each in its own transaction holding a transaction-level
 * advisory lock, and records them in `schema_migrations`. Two processes starting at once are safe: the
 * second waits for the lock, then sees the migration recorded and skips it.
 */
export async function runMigrations(sql: Sql, list: readonly Migration[], logger?: Logger): Promise<{ applied: string[] }> {
  checkOrder(list);
  await sql.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
    await tx.exec(`CREATE TABLE IF NOT EXISTS schema_migrations (
      id          text PRIMARY KEY,
      applied_at  timestamptz NOT NULL DEFAULT now()
    )`);
  });
  const done = new Set((await sql.query<{ id: string }>('SELECT id FROM schema_migrations')).map((r) => r.id));
  const applied: string[] = [];
  for (const m of list) {
    if (done.has(m.id)) continue;
    const ran = await sql.transaction(async (tx) => {
      await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
      const already = await tx.query('SELECT 1 FROM schema_migrations WHERE id = $1', [m.id]);
      if (already.length > 0) return false;
      try {
        await tx.exec(m.sql);
      } catch (err) {
        throw new MigrationError(m.id, err);
      }
      await tx.query('INSERT INTO schema_migrations (id) VALUES ($1)', [m.id]);
      return true;
    });
    if (ran) {
      applied.push(m.id);
      logger?.info({ migration: m.id }, 'applied migration');
    }
  }
  return { applied };
}
