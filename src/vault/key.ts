/**
 * The vault's key: `secret` (the configuration's `FOLIO_VAULT_KEY`, any string; its SHA-256 is the key), else `<dataDir>/vault.key` (32 random
 * bytes, base64, created on first use, mode 0600). Every process of one deployment must see the same key.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';

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
