/**
 * A zip archive read from its central directory (as `unzip` and every serious reader do, not by scanning local
 * headers), with its limits checked before anything is inflated and its sizes verified after: the entry count the
 * archive declares against `maxZipEntries`; the sum of the uncompressed sizes its entries declare against
 * `maxZipBytes`; then each entry inflated with its declared size as the most it may produce (an entry that inflates
 * to more stops there, as corrupt), its size and CRC-32 checked. So the bytes inflated never exceed `maxZipBytes`,
 * whatever the headers claim, and each entry is one buffer of its exact size (no chunk list, no copy) that owns its
 * ArrayBuffer (so a pool thread can move it to the worker rather than copy it). A truncated
 * archive, an entry outside the file, an unsupported method or an encrypted entry is {@link ZipInvalidError}.
 */
import { constants, crc32, inflateRawSync } from 'node:zlib';
import { ZipInvalidError, ZipTooLargeError, ZipTooManyEntriesError, ZipUnsafePathError } from './errors.js';
import type { FileImportLimits } from './limits.js';

interface CentralEntry {
  name: string;
  flags: number;
  method: number;
  crc: number;
  compressedSize: number;
  size: number;
  localOffset: number;
}

interface Directory {
  entries: number;
  offset: number;
  size: number;
  /** Where the directory must end: the (zip64) end record. */
  end: number;
}

const SIG_LOCAL = 0x04034b50;
const SIG_CENTRAL = 0x02014b50;
const SIG_END = 0x06054b50;
const SIG_ZIP64_END = 0x06064b50;
const SIG_ZIP64_LOCATOR = 0x07064b50;

/**
 * The files of a zip archive by normalized path (directories left out; an entry whose path leaves the archive
 * refuses it whole), inflated within `limits`.
 */
export function readZip(name: string, bytes: Uint8Array, limits: FileImportLimits): Map<string, Uint8Array> {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const dir = findDirectory(name, view);
  if (dir.entries > limits.maxZipEntries) throw new ZipTooManyEntriesError(name, limits.maxZipEntries, dir.entries);
  const entries = readDirectory(name, view, dir);
  const declared = entries.reduce((n, e) => n + e.size, 0);
  if (declared > limits.maxZipBytes) throw new ZipTooLargeError(name, limits.maxZipBytes, declared);
  const paths = entries.map((e) => safePath(name, e.name));
  const files = new Map<string, Uint8Array>();
  entries.forEach((entry, i) => {
    const path = paths[i];
    if (path !== null) files.set(path, inflateEntry(name, bytes, view, entry, dir.offset));
  });
  return files;
}

/** The end of central directory record (zip64 when it says so), found from the end of the file. */
function findDirectory(name: string, view: DataView): Directory {
  const length = view.byteLength;
  let at = -1;
  for (let i = length - 22; i >= Math.max(0, length - 22 - 0xffff); i--) {
    if (view.getUint32(i, true) === SIG_END && i + 22 + view.getUint16(i + 20, true) <= length) {
      at = i;
      break;
    }
  }
  if (at < 0) throw new ZipInvalidError(name, 'no end of central directory record (truncated, or not a zip)');
  const disk = view.getUint16(at + 4, true);
  const dirDisk = view.getUint16(at + 6, true);
  let dir: Directory = { entries: view.getUint16(at + 10, true), size: view.getUint32(at + 12, true), offset: view.getUint32(at + 16, true), end: at };
  const zip64 = dir.entries === 0xffff || dir.size === 0xffffffff || dir.offset === 0xffffffff;
  if (zip64 && at >= 20 && view.getUint32(at - 20, true) === SIG_ZIP64_LOCATOR) {
    const end64 = u64(name, view, at - 12);
    if (end64 + 56 > at - 20 || view.getUint32(end64, true) !== SIG_ZIP64_END) throw new ZipInvalidError(name, 'a broken zip64 end of central directory');
    dir = { entries: u64(name, view, end64 + 32), size: u64(name, view, end64 + 40), offset: u64(name, view, end64 + 48), end: end64 };
  } else if (disk !== 0 || dirDisk !== 0 || view.getUint16(at + 8, true) !== dir.entries) {
    throw new ZipInvalidError(name, 'archives split over several disks are not supported');
  }
  if (dir.offset + dir.size > dir.end) throw new ZipInvalidError(name, 'the central directory lies outside the archive');
  return dir;
}

/** The central directory's records (as many as the end record declares, already checked against the limit). */
function readDirectory(name: string, view: DataView, dir: Directory): CentralEntry[] {
  const entries: CentralEntry[] = [];
  const limit = dir.offset + dir.size;
  let p = dir.offset;
  for (let k = 0; k < dir.entries; k++) {
    if (p + 46 > limit || view.getUint32(p, true) !== SIG_CENTRAL) throw new ZipInvalidError(name, `central directory record ${k + 1} is missing or broken`);
    const nameLength = view.getUint16(p + 28, true);
    const extraLength = view.getUint16(p + 30, true);
    const commentLength = view.getUint16(p + 32, true);
    const next = p + 46 + nameLength + extraLength + commentLength;
    if (next > limit) throw new ZipInvalidError(name, `central directory record ${k + 1} runs past the directory`);
    const flags = view.getUint16(p + 8, true);
    const raw = new Uint8Array(view.buffer, view.byteOffset + p + 46, nameLength);
    const entry: CentralEntry = {
      name: decodeName(raw, (flags & 0x0800) !== 0),
      flags,
      method: view.getUint16(p + 10, true),
      crc: view.getUint32(p + 16, true),
      compressedSize: view.getUint32(p + 20, true),
      size: view.getUint32(p + 24, true),
      localOffset: view.getUint32(p + 42, true),
    };
    readZip64Extra(name, view, p + 46 + nameLength, extraLength, entry);
    entries.push(entry);
    p = next;
  }
  return entries;
}

/** Sizes and offset of an entry too large for the classic fields, from its zip64 extra field. */
function readZip64Extra(name: string, view: DataView, start: number, length: number, entry: CentralEntry): void {
  for (let q = start; q + 4 <= start + length;) {
    const id = view.getUint16(q, true);
    const size = view.getUint16(q + 2, true);
    if (id === 0x0001) {
      let r = q + 4;
      const take = (): number => {
        if (r + 8 > q + 4 + size) throw new ZipInvalidError(name, `a broken zip64 extra field for ${JSON.stringify(entry.name)}`);
        const v = u64(name, view, r);
        r += 8;
        return v;
      };
      if (entry.size === 0xffffffff) entry.size = take();
      if (entry.compressedSize === 0xffffffff) entry.compressedSize = take();
      if (entry.localOffset === 0xffffffff) entry.localOffset = take();
      return;
    }
    q += 4 + size;
  }
}

/** One entry's bytes: stored or inflated, at most its declared size, checked against its size and CRC-32. */
function inflateEntry(name: string, bytes: Uint8Array, view: DataView, entry: CentralEntry, dirOffset: number): Uint8Array {
  const what = JSON.stringify(entry.name);
  if (entry.flags & 0x0001) throw new ZipInvalidError(name, `${what} is encrypted`);
  const at = entry.localOffset;
  if (at + 30 > dirOffset || view.getUint32(at, true) !== SIG_LOCAL) throw new ZipInvalidError(name, `the local header of ${what} is missing`);
  const start = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
  const end = start + entry.compressedSize;
  if (end > dirOffset) throw new ZipInvalidError(name, `the data of ${what} runs past the archive`);
  let out: Uint8Array;
  if (entry.method === 0) {
    if (entry.compressedSize !== entry.size) throw new ZipInvalidError(name, `${what} is stored with two different sizes`);
    out = Uint8Array.prototype.slice.call(bytes, start, end); // a copy of its own, even when `bytes` is a Buffer
  } else if (entry.method === 8) {
    try {
      // One output buffer of the declared size (plus one byte, to see an entry that would inflate past it).
      const buffer = inflateRawSync(bytes.subarray(start, end), {
        maxOutputLength: Math.max(1, entry.size),
        chunkSize: Math.max(constants.Z_MIN_CHUNK, entry.size + 1),
      });
      // A small output sits in Node's shared buffer pool: copied out, so that each entry owns its ArrayBuffer.
      out = buffer.buffer.byteLength === buffer.byteLength || buffer.byteLength >= 64 * 1024 ? buffer : new Uint8Array(buffer);
    } catch (error) {
      if ((error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE')
        throw new ZipInvalidError(name, `${what} inflates to more than the ${entry.size} bytes its header declares`);
      throw new ZipInvalidError(name, `${what} cannot be inflated: ${(error as Error).message}`);
    }
  } else {
    throw new ZipInvalidError(name, `${what} uses compression method ${entry.method}; only stored (0) and deflated (8) entries are read`);
  }
  if (out.byteLength !== entry.size) throw new ZipInvalidError(name, `${what} inflates to ${out.byteLength} bytes, its header declares ${entry.size}`);
  if (crc32(out) >>> 0 !== entry.crc >>> 0) throw new ZipInvalidError(name, `${what} fails its CRC-32 check`);
  return out;
}

function u64(name: string, view: DataView, at: number): number {
  const value = view.getBigUint64(at, true);
  if (value > BigInt(Number.MAX_SAFE_INTEGER)) throw new ZipInvalidError(name, 'a zip64 size or offset out of range');
  return Number(value);
}

/** An entry name: UTF-8 when flagged or valid as such, else Latin-1 (close enough to the legacy code page 437). */
function decodeName(raw: Uint8Array, utf8: boolean): string {
  if (utf8) return new TextDecoder('utf-8').decode(raw);
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(raw);
  } catch {
    return new TextDecoder('latin1').decode(raw);
  }
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
