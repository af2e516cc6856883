export type BlobStoreOptions = { kind: 'database' } | { kind: 'directory'; dir: string };

export interface BlobStore {
  readonly kind: 'database' | 'directory';
  /**
   * Stores the bytes (once) and returns their sha256 hex. Idempotent. The blob is pinned for
   * `pinMs` (default one hour) so garbage collection keeps it until a revision references it.
   */
  put(bytes: Uint8Array, options?: { pinMs?: number }): Promise<string>;
  /** Stores many; returns their hashes in input order. */
  putMany(items: readonly Uint8Array[], options?: { pinMs?: number }): Promise<string[]>;
  /** The bytes, or null when no such blob is stored. */
  get(hash: string): Promise<Uint8Array | null>;
  /** The bytes of many blobs in one query (hash → bytes); hashes not stored are absent from the map. */
  getMany(hashes: readonly string[]): Promise<Map<string, Uint8Array>>;
  /** The subset of `hashes` that is stored. */
  has(hashes: readonly string[]): Promise<Set<string>>;
  /** Deletes the unpinned blobs referenced by no row of any table with a foreign key to `blobs(hash)`. */
  deleteUnreferenced(): Promise<{ deleted: number }>;
}
