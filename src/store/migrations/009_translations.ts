import type { Migration } from '../types/index.js';

/**
 * Translations of spaces (`translations`), their runs (`translation_runs`, one row per run with its progress and
 * figures), the organization's glossary (`translation_glossary_entries`, versioned by
 * `translation_glossary_versions`) and the translation memory (`translation_memory`): the target text of a source
 * segment, keyed by organization, segment hash, language pair and the version of the glossary terms the segment
 * contains. The memory is also the checkpoint of a run: a resumed run finds what it already translated there.
 */
export const migration: Migration = {
  id: '009_translations',
  sql: `
CREATE TABLE translations (
  id                   text PRIMARY KEY,
  seq                  bigserial NOT NULL UNIQUE,
  organization_id      text NOT NULL REFERENCES organizations(id),
  source_space_id      text NOT NULL,
  source_language      text NOT NULL,
  language             text NOT NULL,
  instructions         jsonb,
  result_space_id      text,
  result_revision_id   text,
  status               text NOT NULL DEFAULT 'pending',
  runs_requested       integer NOT NULL DEFAULT 0,
  created_at           timestamptz NOT NULL DEFAULT now(),
  updated_at           timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX translations_org_seq ON translations (organization_id, seq);

CREATE TABLE translation_runs (
  translation_id       text NOT NULL REFERENCES translations(id) ON DELETE CASCADE,
  run                  integer NOT NULL,
  status               text NOT NULL DEFAULT 'running',
  engine               text NOT NULL DEFAULT '',
  source_revision_id   text,
  result_revision_id   text,
  pages_total          integer NOT NULL DEFAULT 0,
  pages_done           integer NOT NULL DEFAULT 0,
  segments_total       integer NOT NULL DEFAULT 0,
  segments_done        integer NOT NULL DEFAULT 0,
  segments_sent        integer NOT NULL DEFAULT 0,
  segments_from_memory integer NOT NULL DEFAULT 0,
  words                integer NOT NULL DEFAULT 0,
  pages_translated     integer NOT NULL DEFAULT 0,
  warnings             jsonb NOT NULL DEFAULT '[]',
  error_code           text,
  error_message        text,
  started_at           timestamptz NOT NULL DEFAULT now(),
  finished_at          timestamptz,
  PRIMARY KEY (translation_id, run)
);

CREATE TABLE translation_glossary_versions (
  organization_id      text PRIMARY KEY REFERENCES organizations(id),
  version              integer NOT NULL DEFAULT 0
);

CREATE TABLE translation_glossary_entries (
  id                   text PRIMARY KEY,
  seq                  bigserial NOT NULL UNIQUE,
  organization_id      text NOT NULL REFERENCES organizations(id),
  translations         jsonb NOT NULL,
  created_at           timestamptz NOT NULL DEFAULT now(),
  updated_at           timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX translation_glossary_entries_org_seq ON translation_glossary_entries (organization_id, seq);

CREATE TABLE translation_memory (
  organization_id      text NOT NULL REFERENCES organizations(id),
  segment_hash         text NOT NULL,
  language_pair        text NOT NULL,
  glossary_version     text NOT NULL,
  target               text NOT NULL,
  engine               text NOT NULL,
  created_at           timestamptz NOT NULL DEFAULT now(),
  PRIMARY KEY (organization_id, segment_hash, language_pair, glossary_version)
);
`,
};
