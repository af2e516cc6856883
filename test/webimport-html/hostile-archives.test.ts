/**
 * Archives made to knock a worker over, read by the file import's converter (`convertInputFile`, what the parse pool
 * runs for each upload): a zip bomb refused from what it declares before anything is inflated, one that lies about
 * its sizes stopped at the size it declared, too many entries, corrupt archives, a `.docx` bomb and a `.docx` of
 * tables nested 20,000 deep — each a typed error naming its limit, never a stack overflow classified as invalid.
 */
import { strToU8, zipSync } from 'fflate';
import { afterAll, describe, expect, it } from 'vitest';
import {
  convertInputFile,
  DEFAULT_FILE_IMPORT_LIMITS,
  DocxTooDeepError,
  ZipInvalidError,
  ZipTooLargeError,
  ZipTooManyEntriesError,
} from '../../src/fileimport/index.js';
import { readZip } from '../../src/fileimport/zip.js';
import { ParsePool } from '../../src/parse-threads/pool.js';
import { docxParts, manyEntriesZip, nestedTablesDocx, storedEntry, zerosEntry, zerosZip, zipOf } from '../helpers/hostile-archives.js';

const MiB = 1024 * 1024;

async function failure(p: Promise<unknown>): Promise<Error & { code?: string; data?: Record<string, unknown> }> {
  const result = await p.then(
    () => null,
    (e: unknown) => e as Error,
  );
  expect(result, 'expected a failure').not.toBeNull();
  return result!;
}

describe('zip bombs', () => {
  it('refuses a 518 KB zip of 500 MiB of zeros from its declared size, inflating nothing', async () => {
    const bomb = zerosZip('zeros.md', 500 * MiB);
    expect(bomb.byteLength).toBeLessThan(600 * 1024);
    const before = process.memoryUsage().arrayBuffers;
    const err = await failure(convertInputFile({ name: 'bomb.zip', bytes: bomb }));
    // Nothing of the 500 MiB was allocated: the refusal comes from the central directory alone.
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(8 * MiB);
    expect(err).toBeInstanceOf(ZipTooLargeError);
    expect(err).toMatchObject({
      code: 'FILE_IMPORT_ZIP_TOO_LARGE',
      retryable: false,
      data: { limit: 256 * MiB, declared: 500 * MiB, setting: 'FILE_IMPORT_MAX_UNPACKED_BYTES' },
    });
    expect(err.message).toBe(
      'bomb.zip unpacks to 524288000 bytes, more than the 268435456 bytes (256 MiB) one archive may unpack to (FILE_IMPORT_MAX_UNPACKED_BYTES)',
    );
  });

  it('stops an entry that inflates past the size its headers declare, there (500 MiB claiming 1 MiB)', async () => {
    const liar = zerosZip('zeros.md', 500 * MiB, MiB);
    const err = await failure(convertInputFile({ name: 'liar.zip', bytes: liar }));
    expect(err).toBeInstanceOf(ZipInvalidError);
    expect(err.message).toBe('liar.zip is not a readable zip archive: "zeros.md" inflates to more than the 1048576 bytes its header declares');
  });

  it('counts every entry: many honest entries together over the limit are refused before inflating', async () => {
    const entries = Array.from({ length: 6 }, (_, i) => zerosEntry(`part${i}.md`, 50 * MiB));
    const err = await failure(convertInputFile({ name: 'parts.zip', bytes: zipOf(entries) }));
    expect(err).toMatchObject({ code: 'FILE_IMPORT_ZIP_TOO_LARGE', data: { declared: 300 * MiB } });
  });

  it('reads an archive within the limits, each entry one buffer of its exact size', async () => {
    const limits = { ...DEFAULT_FILE_IMPORT_LIMITS, maxZipBytes: 64 * MiB };
    const files = readZip('ok.zip', zipOf([zerosEntry('big.bin', 64 * MiB - 6), storedEntry('README.md', strToU8('# Hi\n'))]), limits);
    expect([...files.keys()]).toEqual(['big.bin', 'README.md']);
    const big = files.get('big.bin')!;
    expect(big.byteLength).toBe(64 * MiB - 6);
    expect(big.buffer.byteLength).toBeLessThanOrEqual(64 * MiB - 5);
    expect(new TextDecoder().decode(files.get('README.md'))).toBe('# Hi\n');
  });
});

describe('in the parse pool, off the event loop (as the worker runs file.convert)', () => {
  const pool = new ParsePool({ threads: 1, timeBudgetMs: 60_000 });
  afterAll(() => pool.close());

  it("moves an unpacked archive's entries to the worker whole, and keeps a refusal's code", async () => {
    const zip = zipOf([zerosEntry('big.bin', 8 * MiB), storedEntry('small.md', strToU8('# Small\n')), zerosEntry('tiny.md', 10)]);
    const converted = await pool.runWith({}, 'file.convert', { name: 'ok.zip', bytes: zip }, DEFAULT_FILE_IMPORT_LIMITS);
    expect(converted.kind).toBe('zip');
    if (converted.kind !== 'zip') return;
    expect([...converted.entries].map(([path, bytes]) => [path, bytes.byteLength])).toEqual([
      ['big.bin', 8 * MiB],
      ['small.md', 8],
      ['tiny.md', 10],
    ]);
    expect(converted.entries.get('big.bin')!.every((b) => b === 0)).toBe(true);
    expect(new TextDecoder().decode(converted.entries.get('small.md'))).toBe('# Small\n');

    const err = await failure(pool.runWith({}, 'file.convert', { name: 'bomb.zip', bytes: zerosZip('zeros.md', 500 * MiB) }, DEFAULT_FILE_IMPORT_LIMITS));
    expect(err).toMatchObject({ code: 'PARSE_TASK_FAILED', data: { code: 'FILE_IMPORT_ZIP_TOO_LARGE' } });
  });
});

describe('entry counts', () => {
  it('refuses a zip of 25,000 entries with FILE_IMPORT_ZIP_TOO_MANY_ENTRIES naming the limit, not a stack overflow', async () => {
    const err = await failure(convertInputFile({ name: 'many.zip', bytes: manyEntriesZip(25_000) }));
    expect(err).toBeInstanceOf(ZipTooManyEntriesError);
    expect(err).toMatchObject({ code: 'FILE_IMPORT_ZIP_TOO_MANY_ENTRIES', data: { limit: 20_000, declared: 25_000, setting: 'FILE_IMPORT_MAX_ENTRIES' } });
    expect(err.message).toBe('many.zip holds 25000 entries, more than the 20000 one archive may hold (FILE_IMPORT_MAX_ENTRIES)');
  });

  it('reads a zip of exactly 20,000 entries', async () => {
    const converted = await convertInputFile({ name: 'many.zip', bytes: manyEntriesZip(20_000) });
    expect(converted.kind).toBe('zip');
    if (converted.kind === 'zip') expect(converted.entries.size).toBe(20_000);
  });
});

describe('corrupt archives fail, typed', () => {
  const good = zipSync({ 'a.md': strToU8('# A\n'.repeat(1000)), 'b.md': strToU8('# B\n') });
  const cases: Array<[string, Uint8Array, RegExp]> = [
    ['truncated to its first half', good.slice(0, good.length >> 1), /no end of central directory record/],
    ['truncated to 40 bytes', good.slice(0, 40), /no end of central directory record/],
    ['PK and junk', Uint8Array.from([0x50, 0x4b, 3, 4, ...new Array<number>(100).fill(7)]), /no end of central directory record/],
    ['garbled deflate data', garble(good, 40, 80), /"a.md" cannot be inflated/],
    ['a stored entry whose bytes changed', changedStored(), /"page.md" fails its CRC-32 check/],
    ['a directory pointing past the file', pointingPast(good), /central directory|local header|runs past/],
  ];
  for (const [label, bytes, reason] of cases) {
    it(`${label}: FILE_IMPORT_ZIP_INVALID`, async () => {
      const err = await failure(convertInputFile({ name: 'broken.zip', bytes }));
      expect(err).toBeInstanceOf(ZipInvalidError);
      expect(err.code).toBe('FILE_IMPORT_ZIP_INVALID');
      expect(err.message).toMatch(reason);
    });
  }

  it('an archive of no file is FILE_IMPORT_ZIP_EMPTY (it would import nothing)', async () => {
    for (const bytes of [zipSync({}), zipSync({ 'docs/': new Uint8Array(0) })]) {
      const err = await failure(convertInputFile({ name: 'empty.zip', bytes }));
      expect(err).toMatchObject({ code: 'FILE_IMPORT_ZIP_EMPTY', message: 'empty.zip holds no file to import' });
    }
  });
});

describe('.docx', () => {
  it('refuses tables nested 20,000 deep with FILE_IMPORT_DOCX_TOO_DEEP naming the limit, not a stack overflow', async () => {
    const err = await failure(convertInputFile({ name: 'deep.docx', bytes: await nestedTablesDocx(20_000) }));
    expect(err).toBeInstanceOf(DocxTooDeepError);
    expect(err).toMatchObject({ code: 'FILE_IMPORT_DOCX_TOO_DEEP', data: { part: 'word/document.xml', limit: 256 } });
    expect(err.message).toBe('deep.docx nests its content deeper than 256 XML elements (in word/document.xml), the most a .docx may nest to be converted');
  });

  it('converts tables nested within the limit', async () => {
    const converted = await convertInputFile({ name: 'nested.docx', bytes: await nestedTablesDocx(40) });
    expect(converted.kind).toBe('page');
    if (converted.kind === 'page') expect(converted.page.markdown).toContain('deepest');
  });

  it('refuses a .docx whose document.xml is 500 MiB of zeros before mammoth inflates it', async () => {
    const parts = await docxParts();
    const entries = Object.entries(parts)
      .filter(([name]) => name !== 'word/document.xml')
      .map(([name, bytes]) => storedEntry(name, bytes));
    const bomb = zipOf([...entries, zerosEntry('word/document.xml', 500 * MiB)]);
    const before = process.memoryUsage().arrayBuffers;
    const err = await failure(convertInputFile({ name: 'bomb.docx', bytes: bomb }));
    expect(process.memoryUsage().arrayBuffers - before).toBeLessThan(8 * MiB);
    expect(err).toMatchObject({ code: 'FILE_IMPORT_ZIP_TOO_LARGE', data: { setting: 'FILE_IMPORT_MAX_UNPACKED_BYTES' } });
  });

  it('a .docx that is no zip is FILE_IMPORT_DOCX_INVALID', async () => {
    const err = await failure(convertInputFile({ name: 'x.docx', bytes: strToU8('not a zip at all') }));
    expect(err).toMatchObject({ code: 'FILE_IMPORT_DOCX_INVALID' });
  });
});

function garble(bytes: Uint8Array, from: number, to: number): Uint8Array {
  const out = bytes.slice();
  for (let i = from; i < to; i++) out[i] = 0x55;
  return out;
}

/** A stored entry whose content changed after its CRC was written. */
function changedStored(): Uint8Array {
  const zip = zipOf([storedEntry('page.md', strToU8('# Page\n\nHello.\n'))]);
  const at = 30 + 'page.md'.length + 2;
  zip[at] = zip[at]! ^ 0xff;
  return zip;
}

/** The end record's directory offset pushed past the end of the file. */
function pointingPast(bytes: Uint8Array): Uint8Array {
  const out = bytes.slice();
  const view = new DataView(out.buffer);
  view.setUint32(out.length - 22 + 16, out.length + 1000, true);
  return out;
}
