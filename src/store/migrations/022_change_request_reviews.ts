import type { Migration } from '../types/index.js';

/**
 * Who contributed to a change request (its edits, its comments), who was asked to review it, and the reviews
 * (approved or changes requested, against a revision, with an optional comment of the change request's thread).
 * Existing change requests get their authors as contributors (edits) and their commenters (comments).
 */
export const migration: Migration = {
  id: '022_change_request_reviews',
  sql: `
CREATE TABLE change_request_contributors (
  change_request_id  text NOT NULL REFERENCES change_requests(id) ON DELETE CASCADE,
  user_id            text NOT NULL,
  action_type        text NOT NULL CHECK (action_type IN ('edit', 'comment')),
  count              integer NOT NULL DEFAULT 0,
  updated_at         timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (change_request_id, user_id, action_type)
);
CREATE INDEX change_request_contributors_user ON change_request_contributors (user_id);
INSERT INTO change_request_contributors (change_request_id, user_id, action_type, count, updated_at)
  SELECT id, created_by, 'edit', 1, created_at FROM change_requests WHERE created_by IS NOT NULL;
INSERT INTO change_request_contributors (change_request_id, user_id, action_type, count, updated_at)
  SELECT change_request_id, posted_by, 'comment', count(*), max(posted_at) FROM comments
  WHERE change_request_id IS NOT NULL GROUP BY change_request_id, posted_by;

CREATE TABLE change_request_reviewers (
  change_request_id  text NOT NULL REFERENCES change_requests(id) ON DELETE CASCADE,
  user_id            text NOT NULL,
  seq                bigserial NOT NULL UNIQUE,
  requested_by       text NOT NULL,
  revision_id        text NOT NULL,
  created_at         timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (change_request_id, user_id)
);

CREATE TABLE change_request_reviews (
  id                 text PRIMARY KEY,
  seq                bigserial NOT NULL UNIQUE,
  change_request_id  text NOT NULL REFERENCES change_requests(id) ON DELETE CASCADE,
  reviewer           text NOT NULL,
  requested_by       text,
  status             text NOT NULL CHECK (status IN ('approved', 'changes-requested')),
  revision_id        text NOT NULL,
  comment_id         text REFERENCES comments(id) ON DELETE SET NULL,
  -- the last request's seq when the review was made: a request after it (a higher seq) makes it outdated
  request_seq        bigint NOT NULL DEFAULT 0,
  created_at         timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX change_request_reviews_cr ON change_request_reviews (change_request_id, seq);
ALTER TABLE comments ADD COLUMN review_id text;
`,
};
