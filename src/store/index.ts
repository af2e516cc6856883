/**
 * Folio's content store on PostgreSQL: PGlite embedded in a data directory by default, or a server
 * (a real PostgreSQL, or a pglite-server shared by several processes) through pg with `databaseUrl`.
 *
 *   const store = await openStore({ dataDir: config.dataDir + '/pglite', blobs: { kind: 'database' } });
 *   const { id } = await store.revisions.create({ spaceId, parents: [], type: 'git-import', pages, files, idempotencyKey });
 *
 * Adding a migration: create `migrations/NNN_name.ts` exporting `migration: { id: 'NNN_name', sql }` and
 * append it to `migrations/index.ts`. A new table referencing blobs should declare
 * `REFERENCES blobs(hash)`: garbage collection finds such foreign keys and keeps the blobs they use.
 */
export type * from './types/index.js';
export { openStore } from './open-store.js';
export { startPgliteServer, type PgliteServer, type PgliteServerOptions } from './pglite-server.js';
export { migrations } from './migrations/index.js';
export { runMigrations, MIGRATION_LOCK_KEY } from './migrate.js';
export { StoreUnavailableError, StoreTransientError, MigrationError } from './errors.js';
export { isConnectionError, describeConnectionError } from './transient-errors.js';
export { generateToken } from './tokens.js';
export { sha256Hex } from './hash.js';
export { newId } from './ids.js';
export { MAX_COLLECTION_DEPTH, COLLECTION_TITLE_MAX, COLLECTION_DESCRIPTION_MAX } from './collections.js';
export { MAX_SITE_SECTIONS, siteStructureTree, type SiteStructureEntry } from './site-sections.js';
export { memoryKeyString } from './translations.js';
export { sameDeps } from './sites.js';
export {
  SOURCE_BODY_LIMIT_BYTES,
  SOURCE_TEXT_MAX_BYTES,
  SOURCE_URL_MAX,
  SPEC_SLUG_MAX,
  SPEC_SLUG_PATTERN,
  SPEC_VISIBILITIES,
  checkSlug,
  checkSource,
  checkVisibility,
} from './openapi-input.js';
