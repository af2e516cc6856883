/** Folio's secret vault: sealed secrets in the store, referenced by id (see ./secret-vault.ts). */
export { openVault } from './open-vault.js';
export { createSecretVault, type SecretVault } from './secret-vault.js';
export { vaultKey } from './key.js';
export { fieldSealer, type FieldSealer } from './fields.js';
