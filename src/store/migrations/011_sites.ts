import type { Migration } from '../types/index.js';

/**
 * Docs sites: a site of an organization shows site spaces (a space at a path); share links open a
 * `share-link` site; a publication is a site's published snapshot: the revision frozen per site space and
 * the manifest of its output files (path → content-addressed blob, with the key of the inputs each file was
 * rendered from, so a re-publish renders only what changed). `sites.live_publication_id` is the live pointer:
 * one UPDATE switches a site from one complete publication to the next.
 */
export const migration: Migration = {
  id: '011_sites',
  sql: `
CREATE TABLE sites (
  id                     text PRIMARY KEY,
  seq                    bigserial NOT NULL UNIQUE,
  organization_id        text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  title                  text NOT NULL,
  type                   text NOT NULL DEFAULT 'basic',
  visibility             text NOT NULL DEFAULT 'public',
  basename               text NOT NULL UNIQUE,
  published              boolean NOT NULL DEFAULT false,
  default_site_space_id  text,
  live_publication_id    text,
  created_at             timestamptz NOT NULL DEFAULT now(),
  updated_at             timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX sites_org_seq ON sites (organization_id, seq);

CREATE TABLE site_spaces (
  id          text PRIMARY KEY,
  seq         bigserial NOT NULL UNIQUE,
  site_id     text NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
  space_id    text NOT NULL REFERENCES spaces(id) ON DELETE CASCADE,
  path        text NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now(),
  UNIQUE (site_id, path)
);
CREATE INDEX site_spaces_site_seq ON site_spaces (site_id, seq);

CREATE TABLE site_share_links (
  id          text PRIMARY KEY,
  seq         bigserial NOT NULL UNIQUE,
  site_id     text NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
  name        text NOT NULL DEFAULT '',
  key         text NOT NULL UNIQUE,
  active      boolean NOT NULL DEFAULT true,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX site_share_links_site_seq ON site_share_links (site_id, seq);

CREATE TABLE site_publications (
  id           text PRIMARY KEY,
  seq          bigserial NOT NULL UNIQUE,
  site_id      text NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
  request_key  text NOT NULL,
  structure    jsonb NOT NULL,
  rendered     integer NOT NULL,
  reused       integer NOT NULL,
  created_at   timestamptz NOT NULL DEFAULT now(),
  UNIQUE (site_id, request_key)
);
CREATE INDEX site_publications_site_seq ON site_publications (site_id, seq);

CREATE TABLE site_publication_files (
  publication_id  text NOT NULL REFERENCES site_publications(id) ON DELETE CASCADE,
  path            text NOT NULL,
  blob_hash       text NOT NULL REFERENCES blobs(hash),
  content_type    text NOT NULL,
  input_key       text NOT NULL,
  deps            jsonb NOT NULL DEFAULT '{}',
  PRIMARY KEY (publication_id, path)
);
`,
};
