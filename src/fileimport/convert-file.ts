/**
 * One uploaded file made into what the tree of a file import needs, on its own (so each file is one task of the
 * parse pool, with its budgets): a markdown page kept byte for byte, a page converted from HTML or `.docx`, the
 * unpacked entries of a `.zip` (limits enforced while inflating), or a file that makes no page. The result is
 * structured-cloneable; `assembleSourceTree` (`./index.ts`) places the files of one import. Archives (`.zip`, `.docx`)
 * are unpacked within `limits`, counted before inflating (src/fileimport/zip.ts).
 */
import { docxFileToPage } from './docx-file.js';
import { ZipEmptyError } from './errors.js';
import { htmlFileToPage } from './html-file.js';
import { DEFAULT_FILE_IMPORT_LIMITS, type FileImportLimits } from './limits.js';
import { markdownTitle } from './markdown-file.js';
import type { ConvertedFile, FileImportWarning, InputFile } from './types.js';
import { decodeUtf8 } from './utf8.js';
import { readZip } from './zip.js';
import { transferWithReply } from '../parse-pool/transfer.js';

export type ConvertedInput =
  | { kind: 'markdown'; name: string; bytes: Uint8Array; title: string; warnings: FileImportWarning[] }
  | { kind: 'page'; name: string; page: ConvertedFile; warnings: FileImportWarning[] }
  | { kind: 'zip'; name: string; entries: Map<string, Uint8Array>; warnings: FileImportWarning[] }
  | { kind: 'other'; name: string; bytes: Uint8Array; warnings: FileImportWarning[] };

export function fileExtension(name: string): string {
  const m = /\.([^./\\]+)$/.exec(name);
  return m ? m[1]!.toLowerCase() : '';
}

export async function convertInputFile(file: InputFile, limits: FileImportLimits = DEFAULT_FILE_IMPORT_LIMITS): Promise<ConvertedInput> {
  const ext = fileExtension(file.name);
  const warnings: FileImportWarning[] = [];
  if (ext === 'md' || ext === 'markdown') {
    const { text, valid } = decodeUtf8(file.bytes);
    if (!valid) warnings.push({ code: 'FILE_IMPORT_INVALID_UTF8', file: file.name, message: `${file.name} is not valid UTF-8; its bytes are kept` });
    return { kind: 'markdown', name: file.name, bytes: file.bytes, title: markdownTitle(file.name, text), warnings };
  }
  if (ext === 'html' || ext === 'htm' || ext === 'xhtml') {
    const { text, valid } = decodeUtf8(file.bytes);
    if (!valid) warnings.push({ code: 'FILE_IMPORT_INVALID_UTF8', file: file.name, message: `${file.name} is not valid UTF-8; invalid bytes were replaced` });
    const { generator: _generator, refused, ...page } = htmlFileToPage(file.name, text);
    for (const message of refused) warnings.push({ code: 'FILE_IMPORT_LINK_REFUSED', file: file.name, message: `${file.name}: ${message}` });
    return { kind: 'page', name: file.name, page, warnings };
  }
  if (ext === 'docx') {
    const { messages, refused, ...page } = await docxFileToPage(file.name, file.bytes, limits);
    for (const message of messages) warnings.push({ code: 'FILE_IMPORT_DOCX_MESSAGE', file: file.name, message: `${file.name}: ${message}` });
    for (const message of refused) warnings.push({ code: 'FILE_IMPORT_LINK_REFUSED', file: file.name, message: `${file.name}: ${message}` });
    return { kind: 'page', name: file.name, page, warnings };
  }
  if (ext === 'zip') {
    const entries = readZip(file.name, file.bytes, limits);
    // A readable archive of no file (empty, or directories only) would import nothing: it fails, typed.
    if (entries.size === 0) throw new ZipEmptyError(file.name);
    transferWithReply([...entries.values()].map((bytes) => bytes.buffer));
    return { kind: 'zip', name: file.name, entries, warnings };
  }
  warnings.push({
    code: 'FILE_IMPORT_UNSUPPORTED_TYPE',
    file: file.name,
    message: `${file.name}: no page is made of .${ext || '(no extension)'} files; it is kept as a space file`,
  });
  return { kind: 'other', name: file.name, bytes: file.bytes, warnings };
}
