import { FolioError } from '../errors.js';

/** The database does not answer (connection refused, closed pool...). Retryable. */
export class StoreUnavailableError extends FolioError {
  constructor(message: string, cause?: unknown) {
    super('STORE_UNAVAILABLE', message, { retryable: true, cause });
  }
}

/** A migration failed to apply; the database is left at the previous migration. */
export class MigrationError extends FolioError {
  constructor(id: string, cause: unknown) {
    super('MIGRATION_FAILED', `migration ${id} failed: ${cause instanceof Error ? cause.message : String(cause)}`, { data: { id }, cause });
  }
}

/**
 * The database refused a statement for a passing reason — a serialization failure (40001), a deadlock (40P01),
 * a lock or resource it could not get now (55P03, 53xxx), a cancelled statement (57014) — the same statement can
 * succeed when run again. Retryable. `data.sqlState` is the server's SQLSTATE.
 */
export class StoreTransientError extends FolioError {
  constructor(message: string, sqlState: string, cause?: unknown) {
    super('STORE_TRANSIENT', message, { retryable: true, data: { sqlState }, cause });
  }
}
