import type { Migration } from '../types/index.js';

/**
 * Comments and their replies (the official Comment and CommentReply), on a space or on one of its change requests
 * (`change_request_id`), optionally anchored to a page (and a node of it, or a table cell) of the revision they were
 * posted on. The page's title and path at posting time are kept, so that a thread whose page a later revision
 * deletes or moves keeps its anchor and can say so. Reactions are one row per user and emoji, on a comment or a reply.
 */
export const migration: Migration = {
  id: '021_comments',
  sql: `
CREATE TABLE comments (
  id                 text PRIMARY KEY,
  seq                bigserial NOT NULL UNIQUE,
  organization_id    text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  space_id           text NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,
  change_request_id  text REFERENCES change_requests(id) ON DELETE CASCADE,
  posted_by          text NOT NULL,
  body               text NOT NULL,
  revision_id        text NOT NULL,
  page_id            text,
  page_title         text,
  page_path          text,
  node_id            text,
  table_cell         jsonb,
  posted_at          timestamptz NOT NULL DEFAULT now(),
  edited_at          timestamptz,
  resolved_at        timestamptz,
  resolved_by        text,
  CHECK ((resolved_at IS NULL) = (resolved_by IS NULL)),
  CHECK (node_id IS NULL OR page_id IS NOT NULL)
);
CREATE INDEX comments_space ON comments (space_id, seq) WHERE change_request_id IS NULL;
CREATE INDEX comments_change_request ON comments (change_request_id, seq) WHERE change_request_id IS NOT NULL;

CREATE TABLE comment_replies (
  id          text PRIMARY KEY,
  seq         bigserial NOT NULL UNIQUE,
  comment_id  text NOT NULL REFERENCES comments(id) ON DELETE CASCADE,
  posted_by   text NOT NULL,
  body        text NOT NULL,
  posted_at   timestamptz NOT NULL DEFAULT now(),
  edited_at   timestamptz
);
CREATE INDEX comment_replies_comment ON comment_replies (comment_id, seq);

CREATE TABLE comment_reactions (
  seq         bigserial NOT NULL UNIQUE,
  comment_id  text NOT NULL REFERENCES comments(id) ON DELETE CASCADE,
  reply_id    text REFERENCES comment_replies(id) ON DELETE CASCADE,
  target_id   text NOT NULL,
  user_id     text NOT NULL,
  emoji       text NOT NULL,
  reacted_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (target_id, user_id, emoji),
  CHECK (target_id = coalesce(reply_id, comment_id))
);
CREATE INDEX comment_reactions_comment ON comment_reactions (comment_id);
`,
};
