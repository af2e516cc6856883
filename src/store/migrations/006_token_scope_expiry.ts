import type { Migration } from '../types/index.js';

/**
 * API tokens get a scope (`read` can only read; `write`, the default of every existing token, can do anything
 * in its organization), an optional expiry and the time of their last use (kept to the minute).
 */
export const migration: Migration = {
  id: '006_token_scope_expiry',
  sql: `
ALTER TABLE api_tokens ADD COLUMN scope text NOT NULL DEFAULT 'write' CHECK (scope IN ('read', 'write'));
ALTER TABLE api_tokens ADD COLUMN expires_at timestamptz;
ALTER TABLE api_tokens ADD COLUMN last_used_at timestamptz;
`,
};
