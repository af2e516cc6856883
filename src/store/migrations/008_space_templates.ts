import type { Migration } from '../types/index.js';

/**
 * Organization templates: a space marked as a template (with how the template gallery presents it). The row goes
 * with its space (a purged space is no template any more).
 */
export const migration: Migration = {
  id: '008_space_templates',
  sql: `
CREATE TABLE space_templates (
  space_id text PRIMARY KEY REFERENCES spaces(id) ON DELETE CASCADE,
  organization_id text NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  subtitle text,
  features jsonb NOT NULL DEFAULT '[]'::jsonb,
  created_at timestamptz NOT NULL DEFAULT now(),
  updated_at timestamptz NOT NULL DEFAULT now()
);
CREATE INDEX space_templates_org ON space_templates (organization_id, created_at, space_id);
`,
};
