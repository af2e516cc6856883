/**
 * Typed errors of file import (`source.type: "file"`): one class per failure, each with a stable `code`. None is
 * retryable: the same bytes fail the same way.
 */
import { FolioError } from '../errors.js';

export type FileImportErrorCode =
  | 'FILE_IMPORT_ZIP_INVALID'
  | 'FILE_IMPORT_ZIP_TOO_LARGE'
  | 'FILE_IMPORT_ZIP_UNSAFE_PATH'
  | 'FILE_IMPORT_DOCX_INVALID'
  | 'FILE_IMPORT_EMPTY'
  | 'FILE_IMPORT_NOT_UPLOADED';

export class FileImportError extends FolioError {
  declare readonly code: FileImportErrorCode;
  constructor(code: FileImportErrorCode, message: string, data: Record<string, unknown> = {}) {
    super(code, message, { data, retryable: false });
  }
}

/** The archive cannot be read as a zip (truncated, not a zip, an unsupported compression method). */
export class ZipInvalidError extends FileImportError {
  constructor(name: string, reason: string) {
    super('FILE_IMPORT_ZIP_INVALID', `${name} is not a readable zip archive: ${reason}`, { name });
  }
}

/** The archive holds more entries or more uncompressed bytes than allowed (a zip bomb, or just too big). */
export class ZipTooLargeError extends FileImportError {
  constructor(name: string, what: 'entries' | 'bytes', limit: number) {
    super('FILE_IMPORT_ZIP_TOO_LARGE', `${name} exceeds the limit of ${limit} ${what === 'entries' ? 'entries' : 'uncompressed bytes'}`, { name, what, limit });
  }
}

/** An entry's path leaves the archive (`..`, an absolute path, a drive letter): the whole archive is refused. */
export class ZipUnsafePathError extends FileImportError {
  constructor(name: string, path: string) {
    super('FILE_IMPORT_ZIP_UNSAFE_PATH', `${name} holds an entry outside the archive: ${JSON.stringify(path)}`, { name, path });
  }
}

/** A `.docx` that mammoth cannot read. */
export class DocxInvalidError extends FileImportError {
  constructor(name: string, reason: string) {
    super('FILE_IMPORT_DOCX_INVALID', `${name} is not a readable .docx document: ${reason}`, { name });
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
