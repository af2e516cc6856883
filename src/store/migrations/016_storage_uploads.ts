import type { Migration } from '../types/index.js';

/**
 * Files uploaded through signed URLs (`POST /v1/orgs/{org}/storage/upload`, kind `import_file`): one row per
 * storage key, owned by one organization. The signed URL's secret is kept only as its SHA-256; the bytes, once put,
 * are a blob (kept by the foreign key) that a file import run (`source: { type: "file", files: [key] }`) reads.
 */
export const migration: Migration = {
  id: '016_storage_uploads',
  sql: `
CREATE TABLE storage_uploads (
  key              text PRIMARY KEY,
  organization_id  text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  kind             text NOT NULL,
  name             text NOT NULL,
  content_type     text NOT NULL,
  size             bigint NOT NULL,
  token_hash       text NOT NULL UNIQUE,
  blob_hash        text REFERENCES blobs(hash),
  created_by       text,
  created_at       timestamptz NOT NULL DEFAULT now(),
  expires_at       timestamptz NOT NULL,
  uploaded_at      timestamptz
);
CREATE INDEX storage_uploads_org ON storage_uploads (organization_id, created_at);
`,
};
