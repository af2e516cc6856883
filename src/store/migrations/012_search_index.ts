import type { Migration } from '../types/index.js';

/**
 * The full-text search index of each space's primary revision: one row per indexed page (title, path,
 * ancestors, the key of what it was built from) and one per section (the page's own text before its first
 * heading, then one per heading) with a weighted `tsvector` (title A, heading B, body C) under a GIN index.
 * `search_index_state` records which revision and text search configuration each space's index holds.
 * Everything goes with the space (purge deletes the space row).
 */
export const migration: Migration = {
  id: '012_search_index',
  sql: `
CREATE TABLE search_index_state (
  space_id         text PRIMARY KEY REFERENCES spaces(id) ON DELETE CASCADE,
  organization_id  text NOT NULL,
  revision_id      text NOT NULL,
  config           text NOT NULL,
  page_count       integer NOT NULL DEFAULT 0,
  indexed_at       timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE search_pages (
  space_id     text NOT NULL REFERENCES search_index_state(space_id) ON DELETE CASCADE,
  page_id      text NOT NULL,
  content_key  text NOT NULL,
  ord          integer NOT NULL,
  title        text NOT NULL,
  description  text NOT NULL DEFAULT '',
  path         text NOT NULL,
  ancestors    jsonb NOT NULL DEFAULT '[]',
  PRIMARY KEY (space_id, page_id)
);

CREATE TABLE search_sections (
  space_id   text NOT NULL,
  page_id    text NOT NULL,
  ord        integer NOT NULL,
  anchor     text NOT NULL,
  title      text NOT NULL,
  body       text NOT NULL,
  document   tsvector NOT NULL,
  PRIMARY KEY (space_id, page_id, ord),
  FOREIGN KEY (space_id, page_id) REFERENCES search_pages(space_id, page_id) ON DELETE CASCADE
);
CREATE INDEX search_sections_document ON search_sections USING GIN (document);
`,
};
