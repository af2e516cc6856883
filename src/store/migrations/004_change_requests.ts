import type { Migration } from '../types/index.js';

/**
 * Change requests (store.changeRequests, src/store/change-requests.ts). Rows go with their space: the store's purge deletes the
 * space row, which cascades here in the same transaction. Revision ids are not foreign keys (the purge removes
 * revisions before the space).
 */
export const migration: Migration = {
  id: '004_change_requests',
  sql: `
CREATE TABLE change_requests (
  id                 text PRIMARY KEY,
  seq                bigserial NOT NULL UNIQUE,
  space_id           text NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,
  number             integer NOT NULL,
  status             text NOT NULL,
  subject            text NOT NULL DEFAULT '',
  created_by         text,
  revision_id        text NOT NULL,
  revision_initial   text NOT NULL,
  merged_revision_id text,
  created_at         timestamptz NOT NULL DEFAULT now(),
  updated_at         timestamptz NOT NULL DEFAULT now(),
  merged_at          timestamptz,
  UNIQUE (space_id, number)
);
CREATE INDEX change_requests_space_seq ON change_requests (space_id, seq);
`,
};
