/**
 * Bounds on what one file import may unpack. Memory: unpacking one archive holds, in its parse thread, the uploaded
 * bytes and at most `maxZipBytes` of inflated entries (each one buffer of its exact size: the sizes the archive
 * declares are checked against the limit before anything is inflated, and no entry may inflate past its declared
 * size); the result is copied once to the worker. A `.docx` is unpacked the same way, then handed to mammoth
 * re-packed (stored, so mammoth inflates nothing) once its XML was found to nest at most `maxDocxDepth` deep.
 */
export interface FileImportLimits {
  /** Entries of one zip archive (directories included): FILE_IMPORT_MAX_ENTRIES. */
  maxZipEntries: number;
  /** Uncompressed bytes of one zip archive: FILE_IMPORT_MAX_UNPACKED_BYTES. */
  maxZipBytes: number;
  /** Nesting of the XML elements of a `.docx` part (mammoth and the HTML conversion recurse once per level). */
  maxDocxDepth: number;
}

export const DEFAULT_FILE_IMPORT_LIMITS: FileImportLimits = {
  maxZipEntries: 20_000,
  maxZipBytes: 256 * 1024 * 1024,
  maxDocxDepth: 256,
};

/** The limits of the configuration (FILE_IMPORT_MAX_ENTRIES, FILE_IMPORT_MAX_UNPACKED_BYTES). */
export function fileImportLimits(config: { fileImportMaxEntries: number; fileImportMaxUnpackedBytes: number }): FileImportLimits {
  return { ...DEFAULT_FILE_IMPORT_LIMITS, maxZipEntries: config.fileImportMaxEntries, maxZipBytes: config.fileImportMaxUnpackedBytes };
}

/** Bytes of one uploaded file (`POST /v1/orgs/{org}/storage/upload`, kind `import_file`). */
export const MAX_IMPORT_UPLOAD_BYTES = 100 * 1024 * 1024;
