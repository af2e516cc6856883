/** Folio's content store on PostgreSQL (PGlite embedded, or a server through pg). */
export type * from './types.js';
export { openStore } from './open-store.js';
export { startPgliteServer, type PgliteServer, type PgliteServerOptions } from './pglite-server.js';
export { migrations } from './migrations/index.js';
export { runMigrations, MIGRATION_LOCK_KEY } from './migrate.js';
export { StoreUnavailableError, MigrationError } from './errors.js';
export { generateToken } from './tokens.js';
export { sha256Hex } from './hash.js';
export { newId } from './ids.js';
