/**
 * The public types of Folio's content store, one file per member of `Store` (./store.ts). Everything the rest of
 * Folio (API, activities, CLI) needs from the store is described here; `openStore` in ../index.ts builds a `Store`.
 */
export type * from './sql.js';
export type * from './blobs.js';
export type * from './common.js';
export type * from './orgs.js';
export type * from './spaces.js';
export type * from './revisions.js';
export type * from './git-sync.js';
export type * from './vault.js';
export type * from './change-requests.js';
export type * from './openapi.js';
export type * from './translations.js';
export type * from './sites.js';
export type * from './site-sections.js';
export type * from './store.js';
export type * from './search.js';
export type * from './imports.js';
export type * from './storage-uploads.js';
export type * from './people.js';
export type * from './collections.js';
export type * from './comments.js';
export type * from './reviews.js';
export type * from './events.js';
export type * from './integrations.js';
export type * from './pdf-exports.js';
export type * from './site-settings.js';
