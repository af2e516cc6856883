import { Unzip, UnzipInflate, UnzipPassThrough } from 'fflate';
import { ZipInvalidError, ZipTooLargeError, ZipUnsafePathError } from './errors.js';
import type { FileImportLimits } from './limits.js';

/**
 * The files of a zip archive by normalized path, inflated with the limits enforced as bytes come out (a zip bomb is
 * stopped at the limit, whatever sizes its headers declare). Directory entries are skipped; an entry whose path
 * leaves the archive refuses the whole archive.
 */
export function readZip(name: string, bytes: Uint8Array, limits: FileImportLimits): Map<string, Uint8Array> {
  const files = new Map<string, Uint8Array>();
  let entries = 0;
  let total = 0;
  let failure: Error | null = null;
  const unzip = new Unzip((file) => {
    if (failure) return;
    entries++;
    if (entries > limits.maxZipEntries) {
      failure = new ZipTooLargeError(name, 'entries', limits.maxZipEntries);
      return;
    }
    const path = safePath(name, file.name);
    if (path === null) return; // a directory
    const chunks: Uint8Array[] = [];
    file.ondata = (error, chunk, final) => {
      if (failure) return;
      if (error) {
        failure = new ZipInvalidError(name, error.message);
        return;
      }
      total += chunk.byteLength;
      if (total > limits.maxZipBytes) {
        failure = new ZipTooLargeError(name, 'bytes', limits.maxZipBytes);
        file.terminate();
        return;
      }
      chunks.push(chunk);
      if (final) files.set(path, concat(chunks));
    };
    try {
      file.start();
    } catch (error) {
      failure = new ZipInvalidError(name, (error as Error).message);
    }
  });
  unzip.register(UnzipInflate);
  unzip.register(UnzipPassThrough);
  try {
    unzip.push(bytes, true);
  } catch (error) {
    if (!failure) failure = error instanceof ZipUnsafePathError ? error : new ZipInvalidError(name, (error as Error).message);
  }
  if (failure) throw failure;
  if (entries === 0 && !isZip(bytes)) throw new ZipInvalidError(name, 'no zip entries found');
  return files;
}

/** An entry's path, `/`-separated and relative; null for a directory; throws when it would leave the archive. */
function safePath(archive: string, raw: string): string | null {
  const path = raw.replace(/\\/g, '/');
  if (path.endsWith('/')) return null;
  const segments = path.split('/');
  if (path.startsWith('/') || /^[a-zA-Z]:/.test(path) || segments.includes('..') || path.includes('\0')) throw new ZipUnsafePathError(archive, raw);
  const clean = segments.filter((s) => s !== '' && s !== '.');
  return clean.length > 0 ? clean.join('/') : null;
}

function isZip(bytes: Uint8Array): boolean {
  return bytes.length >= 4 && bytes[0] === 0x50 && bytes[1] === 0x4b;
}

function concat(chunks: Uint8Array[]): Uint8Array {
  if (chunks.length === 1) return chunks[0]!;
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.byteLength, 0));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.byteLength;
  }
  return out;
}
