/** Folio's content store on PostgreSQL (PGlite embedded, or a server through pg). */
export type * from './types.js';
export { migrations } from './migrations/index.js';
export { runMigrations, MIGRATION_LOCK_KEY } from './migrate.js';
export { StoreUnavailableError, MigrationError } from './errors.js';
