import type { Migration } from '../types/index.js';

/**
 * Content import runs (`/v1/org/{org}/imports`, website import): one row per run, and the run's checkpoints, one row
 * per URL it discovered (page or asset) with what its fetch left: the blob of the bytes, validators, the page's
 * analysis. A worker that dies mid-run resumes from these rows without fetching a done URL again.
 */
export const migration: Migration = {
  id: '010_import_runs',
  sql: `
CREATE TABLE import_runs (
  id                  text PRIMARY KEY,
  seq                 bigserial NOT NULL UNIQUE,
  organization_id     text NOT NULL REFERENCES organizations(id),
  space_id            text NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,
  change_request_id   text,
  page_id             text,
  source              jsonb NOT NULL,
  status              text NOT NULL,
  reason              text,
  code                text,
  revision_id         text,
  created_by          text,
  imported_resources  integer NOT NULL DEFAULT 0,
  total_resources     integer NOT NULL DEFAULT 0,
  current_url         text,
  warnings            jsonb NOT NULL DEFAULT '[]',
  created_at          timestamptz NOT NULL DEFAULT now(),
  updated_at          timestamptz NOT NULL DEFAULT now(),
  started_at          timestamptz,
  completed_at        timestamptz
);
CREATE INDEX import_runs_org_seq ON import_runs (organization_id, seq);

CREATE TABLE import_run_urls (
  run_id         text NOT NULL REFERENCES import_runs(id) ON DELETE CASCADE,
  url            text NOT NULL,
  ord            integer NOT NULL,
  kind           text NOT NULL,
  depth          integer NOT NULL,
  status         text NOT NULL DEFAULT 'pending',
  blob_hash      text REFERENCES blobs(hash),
  size           bigint,
  content_type   text,
  etag           text,
  last_modified  text,
  final_url      text,
  analysis       jsonb,
  error          text,
  fetched_at     timestamptz,
  PRIMARY KEY (run_id, url),
  UNIQUE (run_id, ord)
);
`,
};
