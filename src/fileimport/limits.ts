/** Bounds on what one file import may unpack. */
export interface FileImportLimits {
  /** Entries of one zip archive (directories included). */
  maxZipEntries: number;
  /** Uncompressed bytes of one zip archive, counted while inflating (declared sizes are not trusted). */
  maxZipBytes: number;
}

export const DEFAULT_FILE_IMPORT_LIMITS: FileImportLimits = {
  maxZipEntries: 20_000,
  maxZipBytes: 512 * 1024 * 1024,
};

/** Bytes of one uploaded file (`POST /v1/orgs/{org}/storage/upload`, kind `import_file`). */
export const MAX_IMPORT_UPLOAD_BYTES = 100 * 1024 * 1024;
