import type { Migration } from '../types/index.js';

/** Organizations, tokens, spaces, revisions with their pages and files, content-addressed blobs, git sync state. */
export const migration: Migration = {
  id: '001_core',
  sql: `
CREATE TABLE organizations (
  id          text PRIMARY KEY,
  seq         bigserial NOT NULL UNIQUE,
  title       text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE api_tokens (
  id               text PRIMARY KEY,
  organization_id  text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  token_sha256     text NOT NULL UNIQUE,
  label            text,
  created_at       timestamptz NOT NULL DEFAULT now(),
  revoked_at       timestamptz
);
CREATE INDEX api_tokens_org ON api_tokens (organization_id);

CREATE TABLE spaces (
  id               text PRIMARY KEY,
  seq              bigserial NOT NULL UNIQUE,
  organization_id  text NOT NULL REFERENCES organizations(id),
  title            text,
  emoji            text,
  language         text,
  edit_mode        text,
  visibility       text,
  parent           text,
  revision_id      text,
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now(),
  deleted_at       timestamptz,
  deletion_id      text
);
CREATE INDEX spaces_org_seq ON spaces (organization_id, seq);

-- Content-addressed blobs (sha256 hex). In the 'directory' blob store, bytes is NULL and the content
-- is a file. A blob stored through BlobStore.put is pinned for a while so that garbage collection does
-- not remove it before the revision that will reference it is written.
CREATE TABLE blobs (
  hash          text PRIMARY KEY,
  size          bigint NOT NULL,
  bytes         bytea,
  created_at    timestamptz NOT NULL DEFAULT now(),
  pinned_until  timestamptz
);

CREATE TABLE revisions (
  id               text PRIMARY KEY,
  seq              bigserial NOT NULL UNIQUE,
  space_id         text NOT NULL REFERENCES spaces(id),
  parents          text[] NOT NULL DEFAULT '{}',
  type             text NOT NULL,
  git              jsonb,
  data             jsonb NOT NULL DEFAULT '{}',
  idempotency_key  text,
  page_count       integer NOT NULL DEFAULT 0,
  file_count       integer NOT NULL DEFAULT 0,
  created_at       timestamptz NOT NULL DEFAULT now(),
  UNIQUE (space_id, idempotency_key)
);
CREATE INDEX revisions_space_seq ON revisions (space_id, seq);

CREATE TABLE revision_pages (
  revision_id  text NOT NULL REFERENCES revisions(id),
  page_id      text NOT NULL,
  ord          integer NOT NULL,
  parent_id    text,
  position     integer NOT NULL,
  kind         text NOT NULL,
  title        text NOT NULL,
  slug         text,
  path         text,
  data         jsonb NOT NULL DEFAULT '{}',
  body_hash    text REFERENCES blobs(hash),
  PRIMARY KEY (revision_id, page_id)
);
CREATE INDEX revision_pages_ord ON revision_pages (revision_id, ord);
CREATE INDEX revision_pages_body ON revision_pages (body_hash);

CREATE TABLE revision_files (
  revision_id   text NOT NULL REFERENCES revisions(id),
  file_id       text NOT NULL,
  ord           integer NOT NULL,
  name          text NOT NULL,
  path          text,
  content_type  text,
  size          bigint NOT NULL,
  git           jsonb,
  data          jsonb NOT NULL DEFAULT '{}',
  hash          text REFERENCES blobs(hash),
  PRIMARY KEY (revision_id, file_id)
);
CREATE INDEX revision_files_ord ON revision_files (revision_id, ord);
CREATE INDEX revision_files_hash ON revision_files (hash);

CREATE TABLE git_sync (
  space_id     text PRIMARY KEY REFERENCES spaces(id),
  repo         jsonb,
  last_import  jsonb,
  last_export  jsonb,
  operation    jsonb,
  updated_at   timestamptz NOT NULL DEFAULT now()
);
`,
};
