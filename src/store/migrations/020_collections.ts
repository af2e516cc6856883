import type { Migration } from '../types/index.js';

/**
 * Collections (the official Collection): nestable groups of spaces and collections of one organization, with a
 * `defaultLevel` their content inherits. `parent` refers to another collection of the same organization (the store
 * refuses cycles and other organizations' parents); a collection that holds anything cannot be deleted (RESTRICT).
 * Grants on a collection (`content_permissions.collection_id`, from 018) now refer to it and go with it; the foreign
 * key is NOT VALID so that a grant written before collections existed does not stop the migration (it names nothing
 * and gives nothing).
 */
export const migration: Migration = {
  id: '020_collections',
  sql: `
CREATE TABLE collections (
  id               text PRIMARY KEY,
  seq              bigserial NOT NULL UNIQUE,
  organization_id  text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  title            text NOT NULL DEFAULT '' CHECK (char_length(title) <= 50),
  description      text CHECK (description IS NULL OR char_length(description) <= 100),
  parent           text REFERENCES collections(id) ON DELETE RESTRICT,
  default_level    text DEFAULT 'inherit'
    CHECK (default_level IN ('inherit', 'admin', 'create', 'edit', 'review', 'comment', 'read')),
  created_by       text,
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now(),
  CHECK (parent IS NULL OR parent <> id)
);
CREATE INDEX collections_org_seq ON collections (organization_id, seq);
CREATE INDEX collections_parent ON collections (parent) WHERE parent IS NOT NULL;
CREATE INDEX spaces_parent ON spaces (parent) WHERE parent IS NOT NULL;
ALTER TABLE content_permissions ADD CONSTRAINT content_permissions_collection_fk
  FOREIGN KEY (collection_id) REFERENCES collections(id) ON DELETE CASCADE NOT VALID;
`,
};
