export type StorageUploadKind = 'import_file';

export interface StorageUploadRecord {
  key: string;
  organizationId: string;
  kind: StorageUploadKind;
  name: string;
  contentType: string;
  /** The size announced when the URL was made; the upload must have exactly these bytes. */
  size: number;
  /** The uploaded bytes' blob, null until the upload. */
  blobHash: string | null;
  createdBy: string | null;
  createdAt: Date;
  expiresAt: Date;
  uploadedAt: Date | null;
}

export interface StorageUploadStore {
  /** A new upload slot; `tokenHash` is the SHA-256 of the signed URL's secret. */
  create(input: {
    key: string;
    organizationId: string;
    kind: StorageUploadKind;
    name: string;
    contentType: string;
    size: number;
    tokenHash: string;
    expiresAt: Date;
    createdBy?: string | null;
  }): Promise<StorageUploadRecord>;
  /** The slot whose signed URL's secret hashes to `tokenHash`, or null. */
  byToken(tokenHash: string): Promise<StorageUploadRecord | null>;
  /** Stores the bytes (a blob) and marks the slot uploaded; false when it was uploaded already. */
  complete(key: string, bytes: Uint8Array): Promise<boolean>;
  /** The organization's slots among `keys` (another organization's keys are absent, as unknown ones). */
  get(organizationId: string, keys: readonly string[]): Promise<Map<string, StorageUploadRecord>>;
}
