/**
 * The credential vault: basic-auth credentials taken out of git URLs, sealed with AES-256-GCM and kept in the
 * store (`git_credentials`), referenced by a random id. Workflows carry only the id, so credentials never
 * appear in workflow history, memo, search attributes or logs.
 *
 * The key: `secret` (the configuration's `FOLIO_VAULT_KEY`, any string; its SHA-256 is the key), else `<dataDir>/vault.key` (32 random
 * bytes, created on first use, mode 0600). Every process of one deployment must see the same key.
 */
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { Sql } from '../store/index.js';
import type { GitCredentialsInput } from './request.js';

export interface CredentialVault {
  /** Seals and stores the credentials; returns their id. */
  put(spaceId: string, credentials: GitCredentialsInput, options?: { ttlMs?: number }): Promise<string>;
  /** The credentials, or null when unknown, expired or given for another space than `spaceId`. */
  get(id: string, spaceId: string): Promise<GitCredentialsInput | null>;
  delete(id: string): Promise<void>;
  /** Removes expired entries. */
  sweep(): Promise<number>;
}

const DEFAULT_TTL_MS = 7 * 24 * 3600 * 1000;

export function vaultKey(options: { dataDir: string; secret?: string | undefined }): Buffer {
  if (options.secret) return createHash('sha256').update(options.secret).digest();
  const file = path.join(options.dataDir, 'vault.key');
  try {
    return keyFrom(readFileSync(file));
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  mkdirSync(options.dataDir, { recursive: true });
  try {
    writeFileSync(file, randomBytes(32).toString('base64') + '\n', { flag: 'wx', mode: 0o600 });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  return keyFrom(readFileSync(file));
}

function keyFrom(content: Buffer): Buffer {
  const key = Buffer.from(content.toString('utf8').trim(), 'base64');
  if (key.length !== 32) throw new Error('vault.key must hold 32 base64-encoded bytes');
  return key;
}

export function seal(key: Buffer, plaintext: string, aad: string): Buffer {
  const iv = randomBytes(12);
  const cipher = createCipheriv('aes-256-gcm', key, iv);
  cipher.setAAD(Buffer.from(aad));
  const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return Buffer.concat([Buffer.from([1]), iv, cipher.getAuthTag(), body]);
}

export function unseal(key: Buffer, sealed: Uint8Array, aad: string): string {
  const buf = Buffer.from(sealed);
  if (buf[0] !== 1) throw new Error('unknown vault format');
  const iv = buf.subarray(1, 13);
  const tag = buf.subarray(13, 29);
  const decipher = createDecipheriv('aes-256-gcm', key, iv);
  decipher.setAAD(Buffer.from(aad));
  decipher.setAuthTag(tag);
  return Buffer.concat([decipher.update(buf.subarray(29)), decipher.final()]).toString('utf8');
}

export function createVault(sql: Sql, key: Buffer): CredentialVault {
  return {
    async put(spaceId, credentials, options = {}) {
      const id = `cred_${randomBytes(16).toString('base64url')}`;
      const sealed = seal(key, JSON.stringify({ u: credentials.username, p: credentials.password }), id);
      const expires = new Date(Date.now() + (options.ttlMs ?? DEFAULT_TTL_MS));
      await sql.query('INSERT INTO git_credentials (id, space_id, sealed, expires_at) VALUES ($1, $2, $3, $4)', [id, spaceId, sealed, expires]);
      return id;
    },
    async get(id, spaceId) {
      const rows = await sql.query<{ sealed: Uint8Array }>('SELECT sealed FROM git_credentials WHERE id = $1 AND space_id = $2 AND expires_at > now()', [id, spaceId]);
      if (!rows[0]) return null;
      const parsed = JSON.parse(unseal(key, rows[0].sealed, id)) as { u: string; p: string };
      return { username: parsed.u, password: parsed.p };
    },
    async delete(id) {
      await sql.query('DELETE FROM git_credentials WHERE id = $1', [id]);
    },
    async sweep() {
      const rows = await sql.query<{ id: string }>('DELETE FROM git_credentials WHERE expires_at <= now() RETURNING id');
      return rows.length;
    },
  };
}
