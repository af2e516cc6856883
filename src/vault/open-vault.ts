import type { Store } from '../store/index.js';
import { vaultKey } from './key.js';
import { createSecretVault, type SecretVault } from './secret-vault.js';

const vaults = new WeakMap<Store, SecretVault>();

/**
 * The vault of a store, built once per store (the key is read on first use): the API seals with it and the
 * git activities open with it, in one process or in several sharing `FOLIO_VAULT_KEY` / `DATA_DIR/vault.key`.
 */
export function openVault(store: Store, options: { dataDir: string; secret?: string | undefined }): SecretVault {
  let vault = vaults.get(store);
  if (!vault) {
    vault = createSecretVault(store.vault, vaultKey(options));
    vaults.set(store, vault);
  }
  return vault;
}
