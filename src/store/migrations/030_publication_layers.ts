import type { Migration } from '../types/index.js';

/**
 * A publication may be stored as the files that differ from a full publication of the same site (its base): a
 * re-publish that changed one page writes a few rows, not one a file of the site. A path the base has and the
 * publication does not is a row without a blob. A base stays while a publication is stored against it.
 */
export const migration: Migration = {
  id: '030_publication_layers',
  sql: `
ALTER TABLE site_publications ADD COLUMN base_publication_id text REFERENCES site_publications(id);
CREATE INDEX site_publications_base ON site_publications (base_publication_id) WHERE base_publication_id IS NOT NULL;
ALTER TABLE site_publication_files ALTER COLUMN blob_hash DROP NOT NULL;
`,
};
