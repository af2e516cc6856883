import type { Migration } from '../types/index.js';

/**
 * The secret vault (src/vault/, `store.vault`) is not git's: its table `git_credentials` becomes `vault_secrets`.
 * Rows are kept, so secrets sealed before the upgrade still open.
 */
export const migration: Migration = {
  id: '007_vault_secrets',
  sql: `
ALTER TABLE git_credentials RENAME TO vault_secrets;
ALTER INDEX git_credentials_space RENAME TO vault_secrets_space;
`,
};
