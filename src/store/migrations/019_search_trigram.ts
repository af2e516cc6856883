import type { Migration } from '../types/index.js';

/**
 * Typo tolerance for search: `pg_trgm` (shipped by PGlite, loaded by both PGlite openers; a trusted extension on a
 * PostgreSQL server, in Debian's server package) and trigram GIN indexes on section titles and bodies, so that
 * `word <% body` (word similarity) finds the sections holding a word close to a misspelled one.
 */
export const migration: Migration = {
  id: '019_search_trigram',
  sql: `
CREATE EXTENSION IF NOT EXISTS pg_trgm;
CREATE INDEX search_sections_body_trgm ON search_sections USING GIN (body gin_trgm_ops);
CREATE INDEX search_sections_title_trgm ON search_sections USING GIN (title gin_trgm_ops);
`,
};
