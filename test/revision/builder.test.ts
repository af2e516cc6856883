import { describe, expect, it } from 'vitest';
import { buildFiles, buildPages, buildRevision, type PageNode } from '../../src/revision/builder.js';
import { newId } from '../../src/ids.js';
import { importTree } from '../../src/format/index.js';
import { treeFromFiles } from '../../src/format/source-tree.js';
import { slugify } from '../../src/format/slug.js';
import { isWithin } from '../../src/format/is-within.js';

const ID = /^[0-9A-Za-z]{20}$/;

describe('newId (the one id scheme)', () => {
  it('gives 20 base62 characters, different every time', () => {
    const ids = new Set(Array.from({ length: 200 }, () => newId()));
    expect(ids.size).toBe(200);
    for (const id of ids) expect(id).toMatch(ID);
    expect(newId(8)).toMatch(/^[0-9A-Za-z]{8}$/);
  });
});

describe('isWithin', () => {
  it('is the directory itself or below it, never a sibling with the same prefix', () => {
    expect(isWithin('docs/a.md', 'docs')).toBe(true);
    expect(isWithin('docs', 'docs')).toBe(true);
    expect(isWithin('docs2/a.md', 'docs')).toBe(false);
    expect(isWithin('anything', '')).toBe(true);
  });
});

describe('buildPages', () => {
  it("keeps what is given: ids, slugs (also the first page's empty one), paths, data and bodies", () => {
    const body = new TextEncoder().encode('# Home\n');
    const [home] = buildPages([{ id: 'home', kind: 'document', title: 'Home', slug: '', path: '', data: { hidden: false }, body, children: [] }]);
    expect(home).toEqual({ id: 'home', kind: 'document', title: 'Home', slug: '', path: '', data: { hidden: false }, body, children: [] });
  });

  it("gives new pages an id and their title's slug, unique among siblings (given slugs first)", () => {
    const pages = buildPages([
      { kind: 'document', title: 'Intro' },
      { kind: 'document', title: 'Intro', slug: 'intro' },
      { kind: 'document', title: 'intro!' },
      { kind: 'document', title: '快速開始' },
      { kind: 'document', title: '🚀' },
    ]);
    for (const p of pages) expect(p.id).toMatch(ID);
    expect(new Set(pages.map((p) => p.id)).size).toBe(5);
    expect(pages.map((p) => p.slug)).toEqual(['intro-2', 'intro', 'intro-3', '快速開始', 'page']);
    expect(pages.map((p) => p.path)).toEqual(['intro-2', 'intro', 'intro-3', '快速開始', 'page']);
  });

  it('computes missing paths: under the parent document, a group adds no segment, a link has none', () => {
    const tree: PageNode[] = [
      {
        kind: 'group',
        title: 'Guides',
        children: [
          {
            kind: 'document',
            title: 'Install',
            children: [
              { kind: 'document', title: 'On Linux' },
              { kind: 'link', title: 'Upstream', data: { href: 'https://example.com' } },
              { kind: 'document', title: 'Kept', path: 'somewhere/else' },
            ],
          },
        ],
      },
      { kind: 'document', title: 'Moved', slug: 'moved', path: null, children: [{ kind: 'document', title: 'Child', slug: 'child' }] },
    ];
    const [group, moved] = buildPages(tree);
    expect(group!.path).toBe('guides');
    const install = group!.children![0]!;
    expect(install.path).toBe('install');
    expect(install.children!.map((c) => c.path)).toEqual(['install/on-linux', undefined, 'somewhere/else']);
    expect(install.children![1]!.slug).toBe('upstream');
    expect(moved!.children![0]!.path).toBe('moved/child');
  });

  it('makes the same slug as the converter gives a SUMMARY group of the same title', async () => {
    const title = '安裝與設定 Ünïcode 🚀';
    const { revision } = await importTree(
      treeFromFiles({
        'README.md': '# Home\n',
        'SUMMARY.md': `# Table of contents\n\n* [Home](README.md)\n\n## ${title}\n\n* [Page](page.md)\n`,
        'page.md': '# Page\n',
      }),
    );
    const group = revision.pages.find((p) => p.kind === 'group')!;
    const [made] = buildPages([{ kind: 'group', title }]);
    expect(group.slug).toBe(slugify(title));
    expect(made!.slug).toBe(group.slug);
    expect(made!.slug).toBe('安裝與設定-unicode');
  });
});

describe('buildFiles and buildRevision', () => {
  it('maps files (new ones get an id, blob by bytes or hash, absent fields left out) and the revision fields', () => {
    const files = buildFiles([
      {
        id: 'f1',
        name: 'a.png',
        path: '.gitbook/assets/a.png',
        contentType: 'image/png',
        size: 3,
        git: { oid: 'abc', path: '.gitbook/assets/a.png' },
        data: { role: 'asset' },
        bytes: { hash: 'h1' },
      },
      { name: 'b.txt', path: null, contentType: null, size: 0, git: null, bytes: null },
    ]);
    expect(files[0]).toEqual({
      id: 'f1',
      name: 'a.png',
      path: '.gitbook/assets/a.png',
      contentType: 'image/png',
      size: 3,
      git: { oid: 'abc', path: '.gitbook/assets/a.png' },
      data: { role: 'asset' },
      bytes: { hash: 'h1' },
    });
    expect(files[1]).toEqual({ id: expect.stringMatching(ID), name: 'b.txt', size: 0, data: {} });
    const revision = buildRevision(
      { pages: [{ kind: 'document', title: 'A' }], files: [], data: { model: { version: 1 } } },
      { spaceId: 's1', parents: ['r0'], type: 'template', idempotencyKey: 'k' },
    );
    expect(revision).toMatchObject({ spaceId: 's1', parents: ['r0'], type: 'template', idempotencyKey: 'k', data: { model: { version: 1 } }, files: [] });
    expect(revision.pages[0]).toMatchObject({ kind: 'document', title: 'A', slug: 'a', path: 'a', data: {}, children: [] });
  });
});
