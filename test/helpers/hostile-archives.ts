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
  const { data, crc } = deflatedZeros(total);
  return oneEntryZip(name, data, crc, declared);
}

function oneEntryZip(name: string, data: Buffer, crc: number, uncompressed: number): Uint8Array {
  const nameBytes = Buffer.from(name, 'utf8');
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt16LE(0x0800, 6); // UTF-8 name
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(crc >>> 0, 14);
  local.writeUInt32LE(data.byteLength, 18);
  local.writeUInt32LE(uncompressed, 22);
  local.writeUInt16LE(nameBytes.byteLength, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt16LE(0x0800, 8);
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(crc >>> 0, 16);
  central.writeUInt32LE(data.byteLength, 20);
  central.writeUInt32LE(uncompressed, 24);
  central.writeUInt16LE(nameBytes.byteLength, 28);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.byteLength + nameBytes.byteLength, 12);
  end.writeUInt32LE(local.byteLength + nameBytes.byteLength + data.byteLength, 16);
  return new Uint8Array(Buffer.concat([local, nameBytes, data, central, nameBytes, end]));
}

/** A zip of `count` small markdown pages (`p0.md` …), stored uncompressed. */
export function manyEntriesZip(count: number): Uint8Array {
  const files: Record<string, Uint8Array> = {};
  for (let i = 0; i < count; i++) files[`p${i}.md`] = strToU8(`# Page ${i}\n`);
  return zipSync(files, { level: 0 });
}

/** A `.docx` (made with the `docx` package) whose body is `depth` tables, each inside a cell of the one before. */
export async function nestedTablesDocx(depth: number): Promise<Uint8Array> {
  const doc = new Document({ sections: [{ children: [new Paragraph('Nested tables')] }] });
  const parts = unzipSync(new Uint8Array(await Packer.toBuffer(doc)));
  const xml = new TextDecoder().decode(parts['word/document.xml']);
  const open = '<w:tbl><w:tr><w:tc>';
  const close = '<w:p/></w:tc></w:tr></w:tbl>';
  const body = `${open.repeat(depth)}<w:p><w:r><w:t>deepest</w:t></w:r></w:p>${close.repeat(depth)}<w:p/>`;
  parts['word/document.xml'] = strToU8(xml.replace(/<w:body>[\s\S]*<\/w:body>/, `<w:body>${body}</w:body>`));
  return zipSync(parts);
}
