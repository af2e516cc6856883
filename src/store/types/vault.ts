/** A sealed secret as the vault stores it (`vault_secrets`): the store never sees it in clear. */
export interface VaultEntryInput {
  id: string;
  /** The space the secret was given for: it is only handed out for that space. */
  spaceId: string;
  sealed: Uint8Array;
  expiresAt: Date;
}

/** The rows of the secret vault (src/vault/ seals and opens them; the store only keeps bytes). */
export interface VaultStore {
  /** NotFoundError when the space is unknown. */
  insert(entry: VaultEntryInput): Promise<void>;
  /** The sealed bytes of an unexpired entry given for `spaceId`, or null. */
  sealed(id: string, spaceId: string): Promise<Uint8Array | null>;
  /** Idempotent. */
  delete(id: string): Promise<void>;
  /** Removes expired entries; returns how many. */
  deleteExpired(): Promise<number>;
}
