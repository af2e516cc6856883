import type { Migration } from '../types/index.js';

/**
 * Site sections and section groups: a site whose content is split in sections (products, guides, languages)
 * shows a section switcher; each section holds site spaces (its variants: versions, languages) and one of them is
 * its default; one section is the site's default (served at the site's root). Sections and groups share one order
 * per site (`position`); a section in a group is listed under it. A section's site spaces go with it.
 */
export const migration: Migration = {
  id: '028_site_sections',
  sql: `
CREATE TABLE site_section_groups (
  id          text PRIMARY KEY,
  seq         bigserial NOT NULL UNIQUE,
  site_id     text NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
  title       text NOT NULL,
  icon        text,
  position    integer NOT NULL,
  created_at  timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX site_section_groups_site ON site_section_groups (site_id, position);

CREATE TABLE site_sections (
  id                     text PRIMARY KEY,
  seq                    bigserial NOT NULL UNIQUE,
  site_id                text NOT NULL REFERENCES sites(id) ON DELETE CASCADE,
  section_group_id       text REFERENCES site_section_groups(id) ON DELETE SET NULL,
  title                  text NOT NULL,
  description            text,
  icon                   text,
  path                   text NOT NULL,
  condition              text,
  is_default             boolean NOT NULL DEFAULT false,
  default_site_space_id  text REFERENCES site_spaces(id) ON DELETE SET NULL,
  position               integer NOT NULL,
  created_at             timestamptz NOT NULL DEFAULT now(),
  UNIQUE (site_id, path)
);
CREATE INDEX site_sections_site ON site_sections (site_id, position);
CREATE UNIQUE INDEX site_sections_one_default ON site_sections (site_id) WHERE is_default;

ALTER TABLE site_spaces ADD COLUMN section_id text REFERENCES site_sections(id) ON DELETE CASCADE;
CREATE INDEX site_spaces_section ON site_spaces (section_id);
`,
};
