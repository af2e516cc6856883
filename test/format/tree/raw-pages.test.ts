import { describe, expect, it } from 'vitest';
import { documents, exportRevision, gitBlobOid, importTree, treeFromFiles, type DocumentPage, type RevisionModel } from '../../../src/format/index.js';
import { invalidUtf8Offsets } from '../../../src/format/import/invalid-utf8.js';

/** Pages that cannot be read as pages keep their bytes (`raw`), with one typed warning each, and export unchanged. */
const enc = (s: string) => new TextEncoder().encode(s);
const LATIN = new Uint8Array([...enc('# Caf'), 0xe9, ...enc('\n\nNa'), 0xef, ...enc('ve r'), 0xe9, ...enc('sum.\n')]);
const BINARY = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0, 0, 0x0d, 0x49, 0x48, 0x44, 0x52]);
const BIG = enc(`# Big\n\n${'x'.repeat(3 * 1024 * 1024)}\n`);

function doc(revision: RevisionModel, path: string): DocumentPage {
  const p = [...documents(revision.pages)].find((d) => d.git?.path === path);
  if (!p) throw new Error(`no page ${path}`);
  return p;
}

describe('pages kept as raw bytes', () => {
  const files = {
    'README.md': '# Home\n',
    'SUMMARY.md': '# Table of contents\n\n* [Home](README.md)\n* [Latin](latin.md)\n* [Binary](binary.md)\n* [Big](big.md)\n',
    'latin.md': LATIN,
    'binary.md': BINARY,
    'big.md': BIG,
  };

  it('invalid UTF-8, NUL bytes and an oversized page: raw with the reason, one typed error warning each', async () => {
    const { revision, warnings } = await importTree(treeFromFiles(files));
    const errors = warnings.filter((w) => w.severity === 'error');
    expect(errors.map((w) => [w.code, w.path])).toEqual([
      ['FORMAT_PAGE_INVALID_UTF8', 'latin.md'],
      ['FORMAT_PAGE_BINARY', 'binary.md'],
      ['FORMAT_PAGE_TOO_LARGE', 'big.md'],
    ]);
    expect(errors[0]!.message).toContain('3 invalid bytes, first at byte 5');
    expect(errors[0]!.data).toMatchObject({ invalidBytes: 3, offset: 5, size: LATIN.byteLength });
    expect(doc(revision, 'latin.md')).toMatchObject({ markdown: null, raw: { reason: 'FORMAT_PAGE_INVALID_UTF8', size: LATIN.byteLength } });
    expect(doc(revision, 'binary.md').raw).toEqual({ reason: 'FORMAT_PAGE_BINARY', size: BINARY.byteLength });
    expect(doc(revision, 'big.md').raw).toEqual({ reason: 'FORMAT_PAGE_TOO_LARGE', size: BIG.byteLength });
    expect(doc(revision, 'README.md').raw).toBeUndefined();
  });

  it('export into a tree without them (a new repository) writes their bytes unchanged, read by blob oid', async () => {
    const { revision } = await importTree(treeFromFiles(files));
    const blobs = new Map([LATIN, BINARY, BIG].map((b) => [gitBlobOid(b), b]));
    const { changes } = await exportRevision(revision, new Map(), { readBlob: async (oid) => blobs.get(oid)! });
    expect(Buffer.from(changes.get('latin.md')!).equals(Buffer.from(LATIN))).toBe(true);
    expect(Buffer.from(changes.get('binary.md')!).equals(Buffer.from(BINARY))).toBe(true);
    expect(Buffer.from(changes.get('big.md')!).equals(Buffer.from(BIG))).toBe(true);
    // Into the tree they came from: untouched.
    const same = await exportRevision((await importTree(treeFromFiles(files))).revision, treeFromFiles(files));
    expect([...same.changes.keys()]).toEqual([]);
  });

  it('a tree without a single page: a FORMAT_NO_CONTENT error warning', async () => {
    const { warnings, stats } = await importTree(treeFromFiles({ 'notes.txt': 'x\n', 'img/logo.png': BINARY }));
    expect(stats.pages).toBe(0);
    expect(warnings.filter((w) => w.code === 'FORMAT_NO_CONTENT').map((w) => [w.severity, w.data])).toEqual([['error', { root: '', files: 2 }]]);
  });

  it('counts invalid UTF-8 bytes: stray continuation, truncated sequence, overlong form, encoded surrogate', () => {
    expect(invalidUtf8Offsets(enc('plain ✓ text 😀'))).toEqual({ count: 0, first: -1 });
    expect(invalidUtf8Offsets(new Uint8Array([0x61, 0x80, 0x62]))).toEqual({ count: 1, first: 1 });
    expect(invalidUtf8Offsets(new Uint8Array([0x61, 0xe2, 0x9c]))).toEqual({ count: 2, first: 1 });
    expect(invalidUtf8Offsets(new Uint8Array([0xc0, 0xaf]))).toEqual({ count: 2, first: 0 });
    expect(invalidUtf8Offsets(new Uint8Array([0xe0, 0x80, 0xaf]))).toEqual({ count: 3, first: 0 });
    expect(invalidUtf8Offsets(new Uint8Array([0xed, 0xa0, 0x80]))).toEqual({ count: 3, first: 0 });
  });
});
