/**
 * Typed errors of file import (`source.type: "file"`): one class per failure, each with a stable `code`. None is
 * retryable: the same bytes fail the same way.
 */
import { FolioError } from '../errors.js';

export type FileImportErrorCode =
  | 'FILE_IMPORT_ZIP_INVALID'
  | 'FILE_IMPORT_ZIP_TOO_LARGE'
  | 'FILE_IMPORT_ZIP_TOO_MANY_ENTRIES'
  | 'FILE_IMPORT_ZIP_UNSAFE_PATH'
  | 'FILE_IMPORT_ZIP_EMPTY'
  | 'FILE_IMPORT_DOCX_INVALID'
  | 'FILE_IMPORT_DOCX_TOO_DEEP'
  | 'FILE_IMPORT_EMPTY'
  | 'FILE_IMPORT_NOT_UPLOADED';

export class FileImportError extends FolioError {
  declare readonly code: FileImportErrorCode;
  constructor(code: FileImportErrorCode, message: string, data: Record<string, unknown> = {}) {
    super(code, message, { data, retryable: false });
  }
}

/**
 * The archive cannot be read as a zip: truncated or not a zip (no end of central directory), an entry outside the
 * file, an entry that inflates to another size than it declares or fails its CRC, an unsupported compression method,
 * an encrypted entry.
 */
export class ZipInvalidError extends FileImportError {
  constructor(name: string, reason: string) {
    super('FILE_IMPORT_ZIP_INVALID', `${name} is not a readable zip archive: ${reason}`, { name, reason });
  }
}

/** The entries of an archive declare more uncompressed bytes than FILE_IMPORT_MAX_UNPACKED_BYTES (nothing is inflated). */
export class ZipTooLargeError extends FileImportError {
  constructor(name: string, limit: number, declared: number) {
    super(
      'FILE_IMPORT_ZIP_TOO_LARGE',
      `${name} unpacks to ${declared} bytes, more than the ${limit} bytes (${mib(limit)}) one archive may unpack to (FILE_IMPORT_MAX_UNPACKED_BYTES)`,
      { name, what: 'bytes', limit, declared, setting: 'FILE_IMPORT_MAX_UNPACKED_BYTES' },
    );
  }
}

/** The archive holds more entries (directories included) than FILE_IMPORT_MAX_ENTRIES (nothing is inflated). */
export class ZipTooManyEntriesError extends FileImportError {
  constructor(name: string, limit: number, declared: number) {
    super('FILE_IMPORT_ZIP_TOO_MANY_ENTRIES', `${name} holds ${declared} entries, more than the ${limit} one archive may hold (FILE_IMPORT_MAX_ENTRIES)`, {
      name,
      what: 'entries',
      limit,
      declared,
      setting: 'FILE_IMPORT_MAX_ENTRIES',
    });
  }
}

/** A readable archive without a single file (empty, or directories only): nothing of it could be imported. */
export class ZipEmptyError extends FileImportError {
  constructor(name: string) {
    super('FILE_IMPORT_ZIP_EMPTY', `${name} holds no file to import`, { name });
  }
}

/** An entry's path leaves the archive (`..`, an absolute path, a drive letter): the whole archive is refused. */
export class ZipUnsafePathError extends FileImportError {
  constructor(name: string, path: string) {
    super('FILE_IMPORT_ZIP_UNSAFE_PATH', `${name} holds an entry outside the archive: ${JSON.stringify(path)}`, { name, path });
  }
}

/** A `.docx` that cannot be read: not a zip, or a document mammoth cannot read. */
export class DocxInvalidError extends FileImportError {
  constructor(name: string, reason: string) {
    super('FILE_IMPORT_DOCX_INVALID', `${name} is not a readable .docx document: ${reason}`, { name, reason });
  }
}

/**
 * A `.docx` whose XML nests deeper than a document is converted (tables in tables in tables…): refused before
 * conversion, whose readers recurse once per level.
 */
export class DocxTooDeepError extends FileImportError {
  constructor(name: string, part: string, limit: number) {
    super('FILE_IMPORT_DOCX_TOO_DEEP', `${name} nests its content deeper than ${limit} XML elements (in ${part}), the most a .docx may nest to be converted`, {
      name,
      part,
      limit,
    });
  }
}

/** Nothing to import: no files, or only empty ones. */
export class NothingToImportError extends FileImportError {
  constructor() {
    super('FILE_IMPORT_EMPTY', 'no file to import');
  }
}

/** A storage key of the run's source names no uploaded file of the organization (unknown, or its bytes never put). */
export class FileNotUploadedError extends FileImportError {
  constructor(key: string) {
    super(
      'FILE_IMPORT_NOT_UPLOADED',
      `no uploaded file has the key ${JSON.stringify(key)}: get an upload URL (POST /v1/orgs/{organizationId}/storage/upload, kind import_file) and PUT the file to it first`,
      { key },
    );
  }
}

function mib(n: number): string {
  return `${+(n / 1024 / 1024).toFixed(1)} MiB`;
}
