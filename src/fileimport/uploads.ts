/**
 * The uploads of a file import run (`source.type: "file"`): each named upload must be of the run's organization and
 * stored with its bytes; each is converted on its own (one task of the parse pool per file, within the pool's time
 * and memory budgets; a `.zip` unpacked with its limits), in the order given, then laid out in GitBook format.
 */
import { ParseTaskFailedError } from '../parse-pool/errors.js';
import type { StorageUploadRecord, Store } from '../store/index.js';
import { FileImportError, FileNotUploadedError, type FileImportErrorCode } from './errors.js';
import { assembleSourceTree, type ConvertedInput, type FileImportResult, type InputFile } from './index.js';

/** The uploads a file import names, each of the run's organization and uploaded (FileNotUploadedError otherwise). */
export async function uploadedFiles(store: Store, organizationId: string, keys: readonly string[]): Promise<StorageUploadRecord[]> {
  const found = await store.uploads.get(organizationId, keys);
  const files = keys.map((key) => {
    const upload = found.get(key);
    if (!upload?.blobHash) throw new FileNotUploadedError(key);
    return upload;
  });
  const stored = await store.blobs.has(files.map((f) => f.blobHash!));
  for (const f of files) if (!stored.has(f.blobHash!)) throw new FileNotUploadedError(f.key);
  return files;
}

export interface ConvertUploadsOptions {
  blobs: Store['blobs'];
  /** One file converted (`file.convert` in the parse pool, with the file import's limits). */
  convert(file: InputFile): Promise<ConvertedInput>;
  /** Before each file (`current` its name), and once all are converted (`current` empty). */
  onProgress(done: number, total: number, current: string): void;
}

/** The uploads converted one by one and laid out as one tree in GitBook format. */
export async function convertUploads(uploads: readonly StorageUploadRecord[], o: ConvertUploadsOptions): Promise<FileImportResult> {
  const converted: ConvertedInput[] = [];
  for (const [i, upload] of uploads.entries()) {
    o.onProgress(i, uploads.length, upload.name);
    const bytes = await o.blobs.get(upload.blobHash!);
    if (!bytes) throw new FileNotUploadedError(upload.key);
    converted.push(await o.convert({ name: upload.name, bytes }).catch(typedConversionFailure));
  }
  o.onProgress(uploads.length, uploads.length, '');
  return assembleSourceTree(converted);
}

/** A typed failure of the conversion (an unsafe zip, a zip bomb, an unreadable .docx) keeps its code. */
function typedConversionFailure(err: unknown): never {
  const code = err instanceof ParseTaskFailedError ? err.data.code : undefined;
  if (typeof code === 'string' && code.startsWith('FILE_IMPORT_'))
    throw new FileImportError(code as FileImportErrorCode, err instanceof Error ? err.message.replace(/^file\.convert failed: /, '') : String(err));
  throw err;
}
