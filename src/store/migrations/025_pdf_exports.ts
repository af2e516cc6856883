import type { Migration } from '../types/index.js';

/**
 * PDF exports (`GET /v1/spaces/{spaceId}/pdf`, and of a change request): one row per printed revision and scope
 * (the whole revision, or one page with or without its sub-pages), its state, and the PDF once printed (a blob, kept
 * by the foreign key). A failed export is tried again by the next request (`attempt` + 1). The temporary download
 * URLs (valid one hour) are rows of `pdf_export_links`, keyed by the SHA-256 of the URL's secret.
 */
export const migration: Migration = {
  id: '025_pdf_exports',
  sql: `
CREATE TABLE pdf_exports (
  id                 text PRIMARY KEY,
  organization_id    text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  space_id           text NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,
  change_request_id  text,
  revision_id        text NOT NULL,
  page_id            text,
  only_page          boolean NOT NULL DEFAULT false,
  scope_key          text NOT NULL UNIQUE,
  attempt            integer NOT NULL DEFAULT 1,
  status             text NOT NULL,
  blob_hash          text REFERENCES blobs(hash),
  pages              integer,
  pdf_pages          integer,
  bytes              bigint,
  warnings           jsonb NOT NULL DEFAULT '[]',
  error_code         text,
  error_message      text,
  created_at         timestamptz NOT NULL DEFAULT now(),
  finished_at        timestamptz
);
CREATE INDEX pdf_exports_space ON pdf_exports (space_id, created_at);
CREATE TABLE pdf_export_links (
  token_hash  text PRIMARY KEY,
  export_id   text NOT NULL REFERENCES pdf_exports(id) ON DELETE CASCADE,
  expires_at  timestamptz NOT NULL
);
CREATE INDEX pdf_export_links_export ON pdf_export_links (export_id);
`,
};
