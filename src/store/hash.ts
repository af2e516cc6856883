import { createHash } from 'node:crypto';
import { ValidationError } from '../errors.js';

export function sha256Hex(bytes: Uint8Array | string): string {
  return createHash('sha256').update(bytes).digest('hex');
}

const HASH = /^[0-9a-f]{64}$/;

export function isBlobHash(value: unknown): value is string {
  return typeof value === 'string' && HASH.test(value);
}

export function checkBlobHash(value: unknown): string {
  if (!isBlobHash(value)) throw new ValidationError('a blob hash is 64 lowercase hex characters (sha256)', { hash: String(value).slice(0, 80) });
  return value;
}
