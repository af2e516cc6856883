/**
 * Hostile archives for the robustness tests and the archive benchmark, made without ever holding what they inflate
 * to: a zip (or a gzip stream) holding hundreds of MiB of zeros in a few hundred KB,
 * a zip of many entries, a `.docx` of tables nested inside each other.
 */
import { Document, Packer, Paragraph } from 'docx';
import { strToU8, unzipSync, zipSync } from 'fflate';
import { constants, crc32, deflateRawSync } from 'node:zlib';

const MiB = 1024 * 1024;

/**
 * Raw deflate data of `total` zero bytes and their CRC-32, made without compressing them all: one MiB of zeros is
 * deflated once with a full flush (which makes it independent of what precedes it) and repeated, then a final
 * empty block ends the stream. 1 GiB comes to about 1 MiB.
 */
function deflatedZeros(total: number): { data: Buffer; crc: number } {
  const zeros = Buffer.alloc(MiB);
  const piece = (n: number) => deflateRawSync(zeros.subarray(0, n), { level: constants.Z_BEST_COMPRESSION, finishFlush: constants.Z_FULL_FLUSH });
  const whole = piece(MiB);
  const parts: Buffer[] = [];
  let crc = 0;
  for (let left = total; left > 0; left -= MiB) {
    parts.push(left >= MiB ? whole : piece(left));
    crc = crc32(zeros.subarray(0, Math.min(left, MiB)), crc);
  }
  parts.push(deflateRawSync(Buffer.alloc(0)));
  return { data: Buffer.concat(parts), crc };
}

/** A gzip stream of `total` zero bytes (a 1 GiB one is about 1 MiB). */
export function gzipZeros(total: number): Buffer {
  const { data, crc } = deflatedZeros(total);
  const header = Buffer.from([0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3]);
  const trailer = Buffer.alloc(8);
  trailer.writeUInt32LE(crc >>> 0, 0);
  trailer.writeUInt32LE(total % 2 ** 32, 4);
  return Buffer.concat([header, data, trailer]);
}

/**
 * A one-entry zip whose entry `name` inflates to `total` zero bytes (500 MiB is about 510 KB). `declared` sets the
 * uncompressed size its headers claim (default: the true size, below 4 GiB).
 */
export function zerosZip(name: string, total: number, declared = total): Uint8Array {
  return zipOf([zerosEntry(name, total, declared)]);
}

/** One entry of {@link zipOf}: its name, its data as stored in the archive, and what its headers declare. */
export interface RawEntry {
  name: string;
  method: 0 | 8;
  data: Buffer;
  crc: number;
  size: number;
}

/** An entry of `total` zeros, deflated, declaring `declared` bytes. */
export function zerosEntry(name: string, total: number, declared = total): RawEntry {
  const { data, crc } = deflatedZeros(total);
  return { name, method: 8, data, crc, size: declared };
}

/** An entry stored as it is. */
export function storedEntry(name: string, content: Uint8Array): RawEntry {
  return { name, method: 0, data: Buffer.from(content), crc: crc32(content), size: content.byteLength };
}

/** A zip of `entries` in that order, with a central directory and an end record (no zip64: below 4 GiB). */
export function zipOf(entries: RawEntry[]): Uint8Array {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const nameBytes = Buffer.from(entry.name, 'utf8');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // UTF-8 name
    local.writeUInt16LE(entry.method, 8);
    local.writeUInt32LE(entry.crc >>> 0, 14);
    local.writeUInt32LE(entry.data.byteLength, 18);
    local.writeUInt32LE(entry.size, 22);
    local.writeUInt16LE(nameBytes.byteLength, 26);
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(entry.method, 10);
    central.writeUInt32LE(entry.crc >>> 0, 16);
    central.writeUInt32LE(entry.data.byteLength, 20);
    central.writeUInt32LE(entry.size, 24);
    central.writeUInt16LE(nameBytes.byteLength, 28);
    central.writeUInt32LE(offset, 42);
    locals.push(local, nameBytes, entry.data);
    centrals.push(central, nameBytes);
    offset += local.byteLength + nameBytes.byteLength + entry.data.byteLength;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.byteLength, 12);
  end.writeUInt32LE(offset, 16);
  return new Uint8Array(Buffer.concat([...locals, directory, end]));
}

/** A `.docx` made with the `docx` package, its parts (name → bytes) for tests to change. */
export async function docxParts(text = 'A document'): Promise<Record<string, Uint8Array>> {
  const doc = new Document({ sections: [{ children: [new Paragraph(text)] }] });
  return unzipSync(new Uint8Array(await Packer.toBuffer(doc)));
}

/** A zip of `count` small markdown pages (`p0.md` …), stored uncompressed. */
export function manyEntriesZip(count: number): Uint8Array {
  const files: Record<string, Uint8Array> = {};
  for (let i = 0; i < count; i++) files[`p${i}.md`] = strToU8(`# Page ${i}\n`);
  return zipSync(files, { level: 0 });
}

/** A `.docx` (made with the `docx` package) whose body is `depth` tables, each inside a cell of the one before. */
export async function nestedTablesDocx(depth: number): Promise<Uint8Array> {
  const parts = await docxParts('Nested tables');
  const xml = new TextDecoder().decode(parts['word/document.xml']);
  const open = '<w:tbl><w:tr><w:tc>';
  const close = '<w:p/></w:tc></w:tr></w:tbl>';
  const body = `${open.repeat(depth)}<w:p><w:r><w:t>deepest</w:t></w:r></w:p>${close.repeat(depth)}<w:p/>`;
  parts['word/document.xml'] = strToU8(xml.replace(/<w:body>[\s\S]*<\/w:body>/, `<w:body>${body}</w:body>`));
  return zipSync(parts);
}
