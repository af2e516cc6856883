/** An S3-compatible bucket holding the bytes of blobs (objects `<prefix><2 hex>/<62 hex>`). */
export interface S3BlobOptions {
  kind: 's3';
  bucket: string;
  region: string;
  /** The server's URL (any S3-compatible one); undefined: AWS's endpoint of the region. */
  endpoint?: string | undefined;
  /** Path-style addressing (`<endpoint>/<bucket>/<key>`), which most S3-compatible servers need. */
  forcePathStyle: boolean;
  /** Key prefix of every object (e.g. `folio/`); default none. */
  prefix?: string;
  /** Static credentials; without them the SDK's default provider chain (instance role, web identity...). */
  accessKeyId?: string | undefined;
  secretAccessKey?: string | undefined;
  /** Create the bucket when it does not exist. */
  createBucket?: boolean;
}

export type BlobStoreOptions = { kind: 'database' } | { kind: 'directory'; dir: string } | S3BlobOptions;

export interface BlobStore {
  readonly kind: 'database' | 'directory' | 's3';
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
