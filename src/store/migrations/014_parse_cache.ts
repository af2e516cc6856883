import type { Migration } from '../types/index.js';

/**
 * The parse cache (`store.parseCache`, src/parse-cache/): what the converter's page decoder made of a page's text,
 * keyed by the text's SHA-256 and the converter's version, shared by the spaces of one organization (never across
 * organizations). Rows of another converter version are never read and are pruned by the workers.
 */
export const migration: Migration = {
  id: '014_parse_cache',
  sql: `
CREATE TABLE parse_cache (
  organization_id    text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  converter_version  text NOT NULL,
  content_key        text NOT NULL,
  summary            text NOT NULL,
  created_at         timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, converter_version, content_key)
);
CREATE INDEX parse_cache_version ON parse_cache (converter_version);
`,
};
