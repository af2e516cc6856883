import { randomBytes } from 'node:crypto';

const ALPHABET = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

/**
 * The one id scheme of Folio (pages, files, revisions, spaces, organizations, tokens, …): a random base62 string,
 * uniform over the alphabet (rejection sampling). 20 characters ≈ 119 bits.
 */
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
