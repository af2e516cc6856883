import type { Migration } from '../types/index.js';

/**
 * OpenAPI specifications and their versions. A version's content (every file of the bundled
 * specification) is one content-addressed blob; a text source is a blob too. `process_runs` numbers the
 * processing runs (`openapi/<specId>/process/<n>`); `applied_run` is the newest run whose outcome was
 * recorded, so a late result of an older run never overwrites a newer one.
 */
export const migration: Migration = {
  id: '003_openapi',
  sql: `
CREATE TABLE openapi_specs (
  id                          text PRIMARY KEY,
  seq                         bigserial NOT NULL UNIQUE,
  organization_id             text NOT NULL REFERENCES organizations(id),
  slug                        text NOT NULL,
  source_url                  text,
  source_text_hash            text REFERENCES blobs(hash),
  processing_state            text NOT NULL DEFAULT 'pending',
  visibility                  text NOT NULL DEFAULT 'private',
  last_version_id             text,
  last_processed_at           timestamptz,
  last_process_error_code     text,
  last_processed_errors       jsonb NOT NULL DEFAULT '[]',
  last_processed_error_count  integer NOT NULL DEFAULT 0,
  consecutive_failures        integer NOT NULL DEFAULT 0,
  process_runs                integer NOT NULL DEFAULT 0,
  applied_run                 integer NOT NULL DEFAULT 0,
  created_at                  timestamptz NOT NULL DEFAULT now(),
  updated_at                  timestamptz NOT NULL DEFAULT now(),
  UNIQUE (organization_id, slug),
  CHECK ((source_url IS NULL) <> (source_text_hash IS NULL))
);
CREATE INDEX openapi_specs_org_seq ON openapi_specs (organization_id, seq);

CREATE TABLE openapi_spec_versions (
  id            text PRIMARY KEY,
  seq           bigserial NOT NULL UNIQUE,
  spec_id       text NOT NULL REFERENCES openapi_specs(id) ON DELETE CASCADE,
  content_hash  text NOT NULL,
  content_blob  text NOT NULL REFERENCES blobs(hash),
  root_path     text NOT NULL,
  source_url    text,
  info          jsonb NOT NULL DEFAULT '{}',
  size          bigint NOT NULL,
  run           integer NOT NULL,
  created_at    timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX openapi_spec_versions_spec_seq ON openapi_spec_versions (spec_id, seq);
`,
};
