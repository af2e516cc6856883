import { mkdtemp, mkdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inlinePageCodec, PageTooComplexError, type DecodedPageSummary, type PageCodecRunner } from '../../src/format/index.js';
import {
  cachedPageCodec,
  computeConverterVersion,
  contentKey,
  converterVersion,
  jsonSafe,
  pruneParseCache,
  pruneParseCacheNow,
} from '../../src/parse-cache/index.js';
import type { ParseCacheStore, Store } from '../../src/store/index.js';
import { createTestStore } from '../helpers/store.js';

/** The inline codec, counting the pages it decodes. */
function countingCodec(inner: PageCodecRunner = inlinePageCodec): PageCodecRunner & { decoded: string[] } {
  const decoded: string[] = [];
  return { ...inner, concurrency: 1, decoded, decode: (text, max) => (decoded.push(text), inner.decode(text, max)) };
}

const PAGE =
  '---\ndescription: A page\nicon: book\nlist: [1, 2, {a: b}]\n---\n\n# Getting started\n\nSee [the guide](guide.md) and ![x](.gitbook/assets/x.png).\n';

describe('the parse cache', () => {
  let store: Store;
  beforeAll(async () => {
    store = await createTestStore();
    await store.orgs.ensure({ id: 'org-a', title: 'A' });
    await store.orgs.ensure({ id: 'org-b', title: 'B' });
  });
  afterAll(async () => {
    await store?.close();
  });

  it('a second codec of the same organization and converter gets the same summary without decoding', async () => {
    const first = countingCodec();
    const a = cachedPageCodec(first, { store: store.parseCache, organizationId: 'org-a', version: 'v1' });
    const direct = await inlinePageCodec.decode(PAGE, 1000);
    const fromFirst = await a.decode(PAGE, 1000);
    await a.flush();
    expect(fromFirst).toEqual(direct);
    expect(first.decoded).toHaveLength(1);
    expect(a.stats).toMatchObject({ hits: 0, decoded: 1, stored: 1 });

    const second = countingCodec();
    const b = cachedPageCodec(second, { store: store.parseCache, organizationId: 'org-a', version: 'v1' });
    const [x, y] = await Promise.all([b.decode(PAGE, 1000), b.decode(PAGE, 1000)]);
    expect(second.decoded).toHaveLength(0);
    expect(b.stats).toMatchObject({ hits: 2, decoded: 0 });
    expect(JSON.parse(JSON.stringify(x))).toEqual(JSON.parse(JSON.stringify(direct)));
    expect(y).toEqual(x);
    expect(y).not.toBe(x);
  });

  it('is keyed by organization, converter version and length limit', async () => {
    for (const [organizationId, version, max] of [
      ['org-b', 'v1', 1000],
      ['org-a', 'v2', 1000],
      ['org-a', 'v1', 2000],
    ] as const) {
      const inner = countingCodec();
      const codec = cachedPageCodec(inner, { store: store.parseCache, organizationId, version });
      await codec.decode(PAGE, max);
      expect(inner.decoded, `${organizationId} ${version} ${max}`).toHaveLength(1);
      expect(codec.stats.hits).toBe(0);
      await codec.flush();
    }
  });

  it('a text seen twice in one import is decoded once', async () => {
    const inner = countingCodec();
    const codec = cachedPageCodec(inner, { store: store.parseCache, organizationId: 'org-a', version: 'v3' });
    const text = '# Twice\n\nSame bytes in two files.\n';
    const [x, y] = await Promise.all([codec.decode(text), codec.decode(text)]);
    expect(inner.decoded).toHaveLength(1);
    expect(y).toEqual(x);
    expect(y).not.toBe(x);
    await codec.flush();
  });

  it('does not cache a page over a budget, nor a summary JSON would change', async () => {
    let calls = 0;
    const tooComplex: PageCodecRunner = {
      ...inlinePageCodec,
      decode: () => {
        calls++;
        return Promise.reject(new PageTooComplexError('time', 10));
      },
    };
    for (let i = 0; i < 2; i++) {
      const codec = cachedPageCodec(tooComplex, { store: store.parseCache, organizationId: 'org-a', version: 'v4' });
      await expect(codec.decode('# Hard\n')).rejects.toBeInstanceOf(PageTooComplexError);
      await codec.flush();
    }
    expect(calls).toBe(2);

    const odd = { fields: { frontMatter: { n: Number.NaN } }, urls: [], warnings: [] } as unknown as DecodedPageSummary;
    const oddCodec = (): PageCodecRunner & { decoded: string[] } => {
      const decoded: string[] = [];
      return { ...inlinePageCodec, decoded, decode: (text) => (decoded.push(text), Promise.resolve(structuredClone(odd))) };
    };
    const one = oddCodec();
    const c1 = cachedPageCodec(one, { store: store.parseCache, organizationId: 'org-a', version: 'v4' });
    expect((await c1.decode('# Odd\n')).fields.frontMatter).toEqual({ n: Number.NaN });
    await c1.flush();
    expect(c1.stats.stored).toBe(0);
    const two = oddCodec();
    const c2 = cachedPageCodec(two, { store: store.parseCache, organizationId: 'org-a', version: 'v4' });
    expect((await c2.decode('# Odd\n')).fields.frontMatter).toEqual({ n: Number.NaN });
    expect(two.decoded).toHaveLength(1);
  });

  it('a store that fails costs a parse, not the page', async () => {
    const broken: ParseCacheStore = {
      get: () => Promise.reject(new Error('database down')),
      put: () => Promise.reject(new Error('database down')),
      pruneOtherVersions: () => Promise.reject(new Error('database down')),
    };
    const warned: string[] = [];
    const inner = countingCodec();
    const codec = cachedPageCodec(inner, {
      store: broken,
      organizationId: 'org-a',
      version: 'v1',
      logger: { warn: (_o: unknown, m: string) => warned.push(m) } as never,
    });
    expect(await codec.decode(PAGE, 1000)).toEqual(await inlinePageCodec.decode(PAGE, 1000));
    await codec.flush();
    expect(inner.decoded).toHaveLength(1);
    expect(warned).toHaveLength(2);
  });

  it('rows of other converter versions are pruned', async () => {
    const version = converterVersion();
    const codec = cachedPageCodec(countingCodec(), { store: store.parseCache, organizationId: 'org-a', version });
    await codec.decode('# Current\n');
    await codec.flush();
    expect(await store.parseCache.pruneOtherVersions(version)).toBeGreaterThan(0);
    expect((await store.parseCache.get('org-a', 'v1', ['x'])).size).toBe(0);
    const again = countingCodec();
    const current = cachedPageCodec(again, { store: store.parseCache, organizationId: 'org-a', version });
    await current.decode('# Current\n');
    expect(again.decoded).toHaveLength(0);
    // A worker prunes while it warms up: once per store (the same promise), rows of other versions gone.
    const old = cachedPageCodec(countingCodec(), { store: store.parseCache, organizationId: 'org-a', version: 'v-old' });
    await old.decode('# Old\n');
    await old.flush();
    const oldKey = [contentKey('# Old\n', undefined)];
    expect((await store.parseCache.get('org-a', 'v-old', oldKey)).size).toBe(1);
    const first = pruneParseCacheNow(store);
    expect(pruneParseCacheNow(store)).toBe(first);
    await first;
    expect((await store.parseCache.get('org-a', 'v-old', oldKey)).size).toBe(0);
    pruneParseCache(store); // once per process, in the background; must not throw
  });

  it('the converter version changes with the converter code and the lock file', async () => {
    const dir = await mkdtemp(path.join(tmpdir(), 'folio-converter-version-'));
    try {
      await mkdir(path.join(dir, 'format', 'markdown'), { recursive: true });
      await writeFile(path.join(dir, 'format', 'index.ts'), 'export {};\n');
      await writeFile(path.join(dir, 'format', 'markdown', 'parse.ts'), 'export const a = 1;\n');
      await writeFile(path.join(dir, 'lock.json'), '{"remark":"1"}');
      const v1 = computeConverterVersion(path.join(dir, 'format'), path.join(dir, 'lock.json'));
      expect(computeConverterVersion(path.join(dir, 'format'), path.join(dir, 'lock.json'))).toBe(v1);
      await writeFile(path.join(dir, 'format', 'markdown', 'parse.ts'), 'export const a = 2;\n');
      const v2 = computeConverterVersion(path.join(dir, 'format'), path.join(dir, 'lock.json'));
      expect(v2).not.toBe(v1);
      await writeFile(path.join(dir, 'lock.json'), '{"remark":"2"}');
      expect(computeConverterVersion(path.join(dir, 'format'), path.join(dir, 'lock.json'))).not.toBe(v2);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it('jsonSafe accepts what JSON gives back unchanged only', () => {
    expect(jsonSafe({ a: [1, 'x', null, { b: true }], c: undefined })).toBe(true);
    for (const v of [new Date(0), Number.NaN, Infinity, -0, [undefined], new Map(), { a: 1n }]) expect(jsonSafe(v)).toBe(false);
  });
});
