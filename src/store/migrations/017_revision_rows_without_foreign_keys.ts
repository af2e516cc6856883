import type { Migration } from '../types/index.js';

/**
 * The rows of a revision's pages and files without foreign keys. A revision is written once, in one transaction
 * (`revisions.create`), and an incremental import copies the unchanged rows of the previous revision: the two
 * per-row checks (the revision, the blob) were about half of that copy's time (1,000 pages: 35 ms, 19.5 ms without
 * them, through the embedded database server). What they guarded is kept otherwise:
 * - the revision: its rows are inserted only after it, in the same transaction, and deleted before it (purge);
 * - the blobs: `revisions.create` checks that every blob a new row names exists while holding the blob lock
 *   shared (`BLOB_GC_LOCK_KEY`), and the blob collector, holding it exclusive, counts these two columns as
 *   references (`SOFT_BLOB_REFERENCES` in blobs.ts) as it counts every foreign key to `blobs`.
 */
export const migration: Migration = {
  id: '017_revision_rows_without_foreign_keys',
  sql: `
ALTER TABLE revision_pages DROP CONSTRAINT IF EXISTS revision_pages_revision_id_fkey;
ALTER TABLE revision_pages DROP CONSTRAINT IF EXISTS revision_pages_body_hash_fkey;
ALTER TABLE revision_files DROP CONSTRAINT IF EXISTS revision_files_revision_id_fkey;
ALTER TABLE revision_files DROP CONSTRAINT IF EXISTS revision_files_hash_fkey;
`,
};
