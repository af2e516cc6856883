import type { Migration } from '../types/index.js';

/**
 * A site's settings beyond its record (issue 33): its customization (the official `SiteCustomizationSettings`, as
 * validated JSON) and a site space's overrides of it; its redirects (a source path of the published site to a
 * destination, live or draft); custom hostnames (a host name that serves a site; unique across organizations).
 */
export const migration: Migration = {
  id: '029_site_settings',
  sql: `
CREATE TABLE site_customizations (
  site_id     text PRIMARY KEY REFERENCES sites(id) ON DELETE CASCADE,
  settings    jsonb NOT NULL,
  updated_at  timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE site_space_customizations (
  site_space_id  text PRIMARY KEY REFERENCES site_spaces(id) ON DELETE CASCADE,
  site_id        text NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
  overrides      jsonb NOT NULL,
  updated_at     timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE site_redirects (
  id                text PRIMARY KEY,
  seq               bigserial NOT NULL UNIQUE,
  site_id           text NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
  source            text NOT NULL,
  draft             boolean NOT NULL DEFAULT false,
  capture_wildcard  boolean NOT NULL DEFAULT false,
  permanent         boolean NOT NULL DEFAULT false,
  destination       jsonb NOT NULL,
  created_at        timestamptz NOT NULL DEFAULT now(),
  updated_at        timestamptz,
  UNIQUE (site_id, draft, source)
);
CREATE INDEX site_redirects_site_seq ON site_redirects (site_id, seq);

CREATE TABLE custom_hostnames (
  hostname         text PRIMARY KEY,
  organization_id  text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  site_id          text NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
  created_at       timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX custom_hostnames_site ON custom_hostnames (site_id);
`,
};
