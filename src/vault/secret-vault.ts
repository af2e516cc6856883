/**
 * The secret vault: secrets (e.g. the basic-auth credentials taken out of a git URL) sealed with the vault key
 * (./key.ts, ./seal.ts) and kept in the store (`store.vault`), referenced by a random id. Workflows carry only
 * the id, so secrets never appear in workflow history, memo, search attributes or logs.
 */
import { randomBytes } from 'node:crypto';
import type { VaultStore } from '../store/index.js';
import { seal, unseal } from './seal.js';

export interface SecretVault {
  /** Seals and stores the secret for the space; returns its id. Expires after `ttlMs` (default 7 days). */
  put(spaceId: string, secret: string, options?: { ttlMs?: number }): Promise<string>;
  /** The secret, or null when unknown, expired or given for another space than `spaceId`. */
  get(id: string, spaceId: string): Promise<string | null>;
  /** Idempotent. */
  delete(id: string): Promise<void>;
  /** Removes expired entries; returns how many. */
  sweep(): Promise<number>;
}

const DEFAULT_TTL_MS = 7 * 24 * 3600 * 1000;

export function createSecretVault(rows: VaultStore, key: Buffer): SecretVault {
  return {
    async put(spaceId, secret, options = {}) {
      const id = `cred_${randomBytes(16).toString('base64url')}`;
      const expiresAt = new Date(Date.now() + (options.ttlMs ?? DEFAULT_TTL_MS));
      await rows.insert({ id, spaceId, sealed: seal(key, secret, id), expiresAt });
      return id;
    },
    async get(id, spaceId) {
      const sealed = await rows.sealed(id, spaceId);
      return sealed ? unseal(key, sealed, id) : null;
    },
    delete: (id) => rows.delete(id),
    sweep: () => rows.deleteExpired(),
  };
}
