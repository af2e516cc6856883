import type { Migration } from '../types/index.js';

/**
 * A space's `defaultLevel` (the official `DefaultLevel`): `inherit` (the default), a member role, or NULL for
 * the spec's `null` (guests: no access by default).
 */
export const migration: Migration = {
  id: '015_space_default_level',
  sql: `
ALTER TABLE spaces ADD COLUMN default_level text DEFAULT 'inherit'
  CHECK (default_level IN ('inherit', 'admin', 'create', 'edit', 'review', 'comment', 'read'));
`,
};
