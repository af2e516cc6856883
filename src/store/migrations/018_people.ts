import type { Migration } from '../types/index.js';

const ROLE = `('admin', 'create', 'review', 'edit', 'comment', 'read')`;

/**
 * People: users, their membership of organizations (a role, or NULL for a guest), personal tokens (`api_tokens.user_id`;
 * a token without a user is the organization's service token), teams and their members, the grants of a role on a
 * space or a collection to a user or a team, link invites, SAML providers with the request ids and assertion ids of
 * the SSO flow (replays refused across processes), and the audit trail of role and permission changes.
 *
 * A grant names its content in one of two columns: `space_id` (a foreign key: purging a space drops its grants) or
 * `collection_id` (collections come with their own migration, which can add the foreign key).
 */
export const migration: Migration = {
  id: '018_people',
  sql: `
CREATE TABLE users (
  id            text PRIMARY KEY,
  seq           bigserial NOT NULL UNIQUE,
  display_name  text NOT NULL CHECK (char_length(display_name) BETWEEN 1 AND 64),
  email         text CHECK (email IS NULL OR char_length(email) <= 320),
  photo_url     text CHECK (photo_url IS NULL OR char_length(photo_url) <= 2048),
  created_at    timestamptz NOT NULL DEFAULT now(),
  updated_at    timestamptz NOT NULL DEFAULT now()
);
CREATE UNIQUE INDEX users_email ON users (lower(email)) WHERE email IS NOT NULL;

CREATE TABLE organization_members (
  organization_id  text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  user_id          text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  seq              bigserial NOT NULL UNIQUE,
  role             text CHECK (role IS NULL OR role IN ${ROLE}),
  sso              boolean NOT NULL DEFAULT false,
  disabled         boolean NOT NULL DEFAULT false,
  joined_at        timestamptz NOT NULL DEFAULT now(),
  last_seen_at     timestamptz,
  PRIMARY KEY (organization_id, user_id)
);
CREATE INDEX organization_members_user ON organization_members (user_id);

ALTER TABLE api_tokens ADD COLUMN user_id text REFERENCES users(id) ON DELETE CASCADE;
CREATE INDEX api_tokens_user ON api_tokens (user_id, organization_id) WHERE user_id IS NOT NULL;

CREATE TABLE teams (
  id               text PRIMARY KEY,
  seq              bigserial NOT NULL UNIQUE,
  organization_id  text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  title            text NOT NULL CHECK (char_length(title) BETWEEN 1 AND 64),
  created_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX teams_org ON teams (organization_id, seq);

CREATE TABLE team_members (
  team_id   text NOT NULL REFERENCES teams(id) ON DELETE CASCADE,
  user_id   text NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  seq       bigserial NOT NULL UNIQUE,
  role      text NOT NULL DEFAULT 'member' CHECK (role IN ('owner', 'member')),
  added_at  timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (team_id, user_id)
);
CREATE INDEX team_members_user ON team_members (user_id);

CREATE TABLE content_permissions (
  organization_id  text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  seq              bigserial NOT NULL UNIQUE,
  space_id         text REFERENCES spaces(id) ON DELETE CASCADE,
  collection_id    text,
  user_id          text REFERENCES users(id) ON DELETE CASCADE,
  team_id          text REFERENCES teams(id) ON DELETE CASCADE,
  role             text NOT NULL CHECK (role IN ${ROLE}),
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now(),
  CHECK ((space_id IS NULL) <> (collection_id IS NULL)),
  CHECK ((user_id IS NULL) <> (team_id IS NULL))
);
CREATE UNIQUE INDEX content_permissions_space_user ON content_permissions (space_id, user_id) WHERE space_id IS NOT NULL AND user_id IS NOT NULL;
CREATE UNIQUE INDEX content_permissions_space_team ON content_permissions (space_id, team_id) WHERE space_id IS NOT NULL AND team_id IS NOT NULL;
CREATE UNIQUE INDEX content_permissions_collection_user ON content_permissions (collection_id, user_id) WHERE collection_id IS NOT NULL AND user_id IS NOT NULL;
CREATE UNIQUE INDEX content_permissions_collection_team ON content_permissions (collection_id, team_id) WHERE collection_id IS NOT NULL AND team_id IS NOT NULL;
CREATE INDEX content_permissions_user ON content_permissions (user_id) WHERE user_id IS NOT NULL;
CREATE INDEX content_permissions_team ON content_permissions (team_id) WHERE team_id IS NOT NULL;

CREATE TABLE organization_invites (
  id               text PRIMARY KEY,
  seq              bigserial NOT NULL UNIQUE,
  organization_id  text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  space_id         text REFERENCES spaces(id) ON DELETE CASCADE,
  collection_id    text,
  role             text CHECK (role IS NULL OR role IN ${ROLE}),
  created_by       text,
  created_at       timestamptz NOT NULL DEFAULT now(),
  CHECK (space_id IS NULL OR collection_id IS NULL)
);
CREATE INDEX organization_invites_org ON organization_invites (organization_id, seq);

CREATE TABLE saml_providers (
  id               text PRIMARY KEY,
  seq              bigserial NOT NULL UNIQUE,
  organization_id  text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  label            text NOT NULL CHECK (char_length(label) BETWEEN 1 AND 30),
  entity_id        text CHECK (entity_id IS NULL OR char_length(entity_id) <= 1024),
  sso_url          text CHECK (sso_url IS NULL OR char_length(sso_url) <= 2048),
  certificate      text CHECK (certificate IS NULL OR char_length(certificate) <= 10000),
  default_team_id  text REFERENCES teams(id) ON DELETE SET NULL,
  default_role     text CHECK (default_role IS NULL OR default_role IN ${ROLE}),
  created_at       timestamptz NOT NULL DEFAULT now(),
  updated_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX saml_providers_org ON saml_providers (organization_id, seq);

-- The AuthnRequest ids Folio sent (InResponseTo must name one; each is taken once) and the assertion ids it accepted.
CREATE TABLE saml_requests (
  provider_id  text NOT NULL REFERENCES saml_providers(id) ON DELETE CASCADE,
  request_id   text NOT NULL,
  value        text NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (provider_id, request_id)
);
CREATE TABLE saml_assertions_seen (
  provider_id   text NOT NULL REFERENCES saml_providers(id) ON DELETE CASCADE,
  assertion_id  text NOT NULL,
  expires_at    timestamptz NOT NULL,
  PRIMARY KEY (provider_id, assertion_id)
);

CREATE TABLE audit_events (
  id               text PRIMARY KEY,
  seq              bigserial NOT NULL UNIQUE,
  organization_id  text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  actor_user_id    text,
  actor_token_id   text,
  via              text NOT NULL,
  action           text NOT NULL,
  target           jsonb NOT NULL,
  before           jsonb,
  after            jsonb,
  created_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX audit_events_org ON audit_events (organization_id, seq);
`,
};
