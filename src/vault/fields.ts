/**
 * Sealed fields: secrets a store row keeps itself (an integration's webhook address and signing secret), sealed
 * with the vault key (./key.ts, ./seal.ts) and bound to what they belong to by the AAD (`context`), so a sealed
 * value copied to another row does not open.
 */
import { seal, unseal } from './seal.js';
import { vaultKey } from './key.js';

export interface FieldSealer {
  seal(value: string, context: string): Uint8Array;
  /** Throws when the value was sealed for another context or with another key. */
  open(sealed: Uint8Array, context: string): string;
}

export function fieldSealer(options: { dataDir: string; secret?: string | undefined }): FieldSealer {
  const key = vaultKey(options);
  return {
    seal: (value, context) => new Uint8Array(seal(key, value, `field:${context}`)),
    open: (sealed, context) => unseal(key, sealed, `field:${context}`),
  };
}
