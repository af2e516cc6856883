import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/index.js';
import { rawSql } from '../../src/store/raw-sql.js';
import { createSecretVault, openVault, vaultKey } from '../../src/vault/index.js';
import { createTestStore } from '../helpers/store.js';

describe('secret vault', () => {
  let store: Store;
  let spaceId: string;
  let dir: string;
  beforeAll(async () => {
    store = await createTestStore();
    await store.orgs.ensure({ id: 'org-v', title: 'V' });
    spaceId = (await store.spaces.create('org-v', { title: 'Vaulted' })).id;
    dir = mkdtempSync(path.join(tmpdir(), 'folio-vault-'));
  });
  afterAll(async () => {
    await store?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('stores only sealed bytes, which another key cannot open', async () => {
    const vault = createSecretVault(store.vault, vaultKey({ dataDir: dir, secret: 'one key' }));
    const id = await vault.put(spaceId, 'hunter2-secret');
    expect(await vault.get(id, spaceId)).toBe('hunter2-secret');
    const [row] = await rawSql(store).query<{ sealed: Uint8Array }>('SELECT sealed FROM vault_secrets WHERE id = $1', [id]);
    expect(Buffer.from(row!.sealed).toString('latin1')).not.toContain('hunter2');
    const stranger = createSecretVault(store.vault, vaultKey({ dataDir: dir, secret: 'another key' }));
    await expect(stranger.get(id, spaceId)).rejects.toThrow();
  });

  it('forgets expired secrets and sweeps them', async () => {
    const vault = createSecretVault(store.vault, vaultKey({ dataDir: dir, secret: 'k' }));
    const id = await vault.put(spaceId, 'short-lived', { ttlMs: -1000 });
    expect(await vault.get(id, spaceId)).toBeNull();
    expect(await vault.sweep()).toBeGreaterThanOrEqual(1);
    expect(await rawSql(store).query('SELECT 1 FROM vault_secrets WHERE id = $1', [id])).toEqual([]);
  });

  it('is built once per store, with the key file DATA_DIR/vault.key (mode 0600) when FOLIO_VAULT_KEY is unset', async () => {
    const dataDir = path.join(dir, 'data');
    const a = openVault(store, { dataDir });
    expect(openVault(store, { dataDir })).toBe(a);
    expect(statSync(path.join(dataDir, 'vault.key')).mode & 0o777).toBe(0o600);
    const id = await a.put(spaceId, 'from the api');
    // Another process of the deployment reads the same key file.
    const worker = createSecretVault(store.vault, vaultKey({ dataDir }));
    expect(await worker.get(id, spaceId)).toBe('from the api');
  });
});
