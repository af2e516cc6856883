import { describe, expect, it } from 'vitest';
import {
  inlinePageCodec,
  memoryEntry,
  PageTooComplexError,
  TooManyPagesError,
  type FormatWarning,
  type PageCodecRunner,
  type SourceEntry,
} from '../../../src/format/index.js';
import { DEFAULT_LIMITS, type ImportContext, type PageLoad } from '../../../src/format/import/context.js';
import { loadPage } from '../../../src/format/import/load-page.js';
import { checkPageLimit } from '../../../src/format/import/page-limit.js';
import { indexPrevious } from '../../../src/format/import/previous-index.js';
import { docPage, revisionOf } from './fixtures.js';

const enc = (s: string) => new TextEncoder().encode(s);
const unreadable = (oid: string, size?: number): SourceEntry => ({
  oid,
  ...(size !== undefined ? { size } : {}),
  read: () => Promise.reject(new Error('must not be read')),
});

/** One page through the page-contents phase alone. */
async function load(
  entry: SourceEntry,
  options: { maxPageBytes?: number; codec?: PageCodecRunner; previous?: ReturnType<typeof revisionOf>; id?: string } = {},
) {
  const ctx: Pick<ImportContext, 'prev' | 'limits' | 'rawUrls' | 'counts' | 'reusedFrom'> = {
    prev: indexPrevious(options.previous),
    limits: { ...DEFAULT_LIMITS, ...(options.maxPageBytes !== undefined ? { maxPageBytes: options.maxPageBytes } : {}) },
    rawUrls: new Map(),
    counts: { parsed: 0, reused: 0, unlisted: 0 },
    reusedFrom: new Map(),
  };
  const page = docPage('page.md', entry.oid, options.id ?? 'P1');
  const warnings: FormatWarning[] = [];
  await loadPage(ctx, { page, entry, tocText: 'From TOC' } satisfies PageLoad, warnings, options.codec ?? inlinePageCodec);
  return { page, warnings, ctx };
}

describe('import phase: limits', () => {
  it('the page limit counts the pages to load: at the limit is fine, one more is a typed error', () => {
    const loads = (n: number) => Array.from({ length: n }, (_, i) => ({ page: docPage(`p${i}.md`, `o${i}`), entry: unreadable(`o${i}`), tocText: undefined }));
    expect(() => checkPageLimit({ loads: loads(3), limits: { maxPages: 3, maxPageBytes: 10 } })).not.toThrow();
    expect(() => checkPageLimit({ loads: loads(4), limits: { maxPages: 3, maxPageBytes: 10 } })).toThrow(TooManyPagesError);
  });

  it('a page over the byte limit by its tree size is kept raw without being read', async () => {
    const { page, warnings, ctx } = await load(unreadable('big', 101), { maxPageBytes: 100 });
    expect(page.raw).toEqual({ reason: 'FORMAT_PAGE_TOO_LARGE', size: 101 });
    expect(page.markdown).toBeNull();
    expect(warnings.map((w) => [w.code, w.severity, w.data])).toEqual([['FORMAT_PAGE_TOO_LARGE', 'error', { size: 101, limit: 100 }]]);
    expect(ctx.counts).toEqual({ parsed: 0, reused: 0, unlisted: 0 });
  });

  it('binary and invalid UTF-8 pages keep their bytes with the offset of the first bad byte', async () => {
    const binary = await load(memoryEntry(new Uint8Array([0x23, 0x20, 0x41, 0x00, 0x42])));
    expect(binary.page.raw).toEqual({ reason: 'FORMAT_PAGE_BINARY', size: 5 });
    expect(binary.warnings[0]!.data).toEqual({ size: 5, offset: 3 });
    const latin1 = await load(memoryEntry(new Uint8Array([0x23, 0x20, 0xe9, 0x74, 0xe9])));
    expect(latin1.page.raw).toEqual({ reason: 'FORMAT_PAGE_INVALID_UTF8', size: 5 });
    expect(latin1.warnings[0]!.data).toEqual({ size: 5, invalidBytes: 2, offset: 2 });
    expect(latin1.ctx.counts.parsed).toBe(1);
  });

  it('a page over the parse budget is kept raw with the budget in its warning', async () => {
    const codec: PageCodecRunner = { ...inlinePageCodec, decode: () => Promise.reject(new PageTooComplexError('time', 250)) };
    const { page, warnings } = await load(memoryEntry(enc('# Deep\n')), { codec });
    expect(page.raw).toEqual({ reason: 'FORMAT_PAGE_TOO_COMPLEX', size: 7 });
    expect(warnings[0]!.message).toContain('over the time budget of 250 ms');
    expect(warnings[0]!.data).toEqual({ size: 7, budget: 'time', limit: 250 });
  });

  it('a symbolic link is not followed: no content, one error warning', async () => {
    const { page, warnings } = await load({ ...unreadable('link'), mode: '120000' });
    expect(page.markdown).toBeNull();
    expect(page.raw).toBeUndefined();
    expect(warnings.map((w) => w.code)).toEqual(['FORMAT_PAGE_SYMLINK']);
  });

  it('a parsed page takes its fields, title and parse warnings; an unchanged blob is reused without reading it', async () => {
    const text = '---\ndescription: About\nhidden: true\n---\n\n# Real title\n\nSee [x](other.md).\n';
    const first = await load(memoryEntry(enc(text)));
    expect(first.page).toMatchObject({ title: 'Real title', titleSource: 'heading', tocTitle: 'From TOC', description: 'About', hidden: true, markdown: text });
    expect(first.ctx.rawUrls.get('P1')).toEqual(['other.md']);
    const previous = revisionOf([{ ...first.page, references: [{ url: 'other.md', target: { kind: 'unresolved', path: 'other.md' } }] }]);
    const again = await load(unreadable(first.page.git!.oid), { previous });
    expect(again.ctx.counts).toEqual({ parsed: 0, reused: 1, unlisted: 0 });
    expect([...again.ctx.reusedFrom]).toEqual([['P1', 'P1']]);
    expect(again.page).toMatchObject({ title: 'Real title', description: 'About', hidden: true, markdown: text, derived: first.page.derived });
    expect(again.ctx.rawUrls.get('P1')).toEqual(['other.md']);
    expect(again.warnings).toEqual([]);
  });
});
