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
