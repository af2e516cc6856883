import type { Migration } from '../types/index.js';

/**
 * Git sync: the credential vault (basic-auth credentials of git URLs, AES-256-GCM encrypted, referenced by id
 * from workflow inputs so they never reach Temporal) and the request log (every queued, dropped or finished
 * import/export request, for operators).
 */
export const migration: Migration = {
  id: '002_git_sync',
  sql: `
CREATE TABLE git_credentials (
  id          text PRIMARY KEY,
  space_id    text NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,
  sealed      bytea NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  expires_at  timestamptz NOT NULL
);
CREATE INDEX git_credentials_space ON git_credentials (space_id);

CREATE TABLE git_sync_requests (
  space_id    text NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,
  request_id  text NOT NULL,
  direction   text NOT NULL,
  event_at    timestamptz NOT NULL,
  status      text NOT NULL,
  code        text,
  message     text,
  created_at  timestamptz NOT NULL DEFAULT now(),
  updated_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (space_id, request_id)
);
`,
};
