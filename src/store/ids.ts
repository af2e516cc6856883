import { randomBytes } from 'node:crypto';
import { ValidationError } from '../errors.js';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/** A random base62 string (rejection sampling: uniform over the alphabet). 20 chars ≈ 119 bits. */
export function newId(length = 20): string {
  let out = '';
  while (out.length < length) {
    for (const byte of randomBytes(length * 2)) {
      if (byte < 248) out += ALPHABET[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

const ID = /^[A-Za-z0-9_-]{1,64}$/;

/** Throws a ValidationError unless `id` is a URL-safe id of 1..64 characters. */
export function checkId(what: string, id: unknown): string {
  if (typeof id !== 'string' || !ID.test(id)) throw new ValidationError(`${what} id must be 1-64 characters of [A-Za-z0-9_-]`, { what, id: typeof id === 'string' ? id.slice(0, 80) : typeof id });
  return id;
}
