import { describe, expect, it } from 'vitest';
import { treeFromFiles, type DocumentPage, type GroupPage, type LinkPage } from '../../../src/format/index.js';
import { createImportContext } from '../../../src/format/import/context.js';
import { buildPageTree } from '../../../src/format/import/page-tree.js';
import { readToc } from '../../../src/format/import/toc.js';

/** The summary-resolution phase alone: SUMMARY entries → page tree, loads, pending links and warnings (no ids, nothing read). */
async function tree(summary: string, files: Record<string, string> = {}) {
  const ctx = await createImportContext(treeFromFiles({ 'SUMMARY.md': summary, 'README.md': '# Home\n', ...files }), {});
  await readToc(ctx);
  ctx.warnings.length = 0;
  buildPageTree(ctx);
  return ctx;
}

describe('import phase: summary resolution (page tree)', () => {
  it('turns entries into documents, links and groups, in TOC order, without ids or contents', async () => {
    const ctx = await tree(
      '# Table of contents\n\n* [Home](README.md)\n* [Guide](guide.md "Label")\n  * [Status](https://status.example.com)\n\n## Extra Things\n\n* [Deep](a/b.md)\n',
      { 'guide.md': '# Guide\n', 'a/b.md': '# B\n' },
    );
    expect(ctx.pages.map((p) => p.kind)).toEqual(['document', 'document', 'group']);
    const guide = ctx.pages[1] as DocumentPage;
    expect(guide).toMatchObject({ id: '', title: 'Guide', titleSource: 'summary', linkTitle: 'Label', markdown: null, git: { path: 'guide.md' } });
    expect(guide.children[0]).toMatchObject({ kind: 'link', href: 'https://status.example.com', target: { kind: 'url', url: 'https://status.example.com' } });
    const group = ctx.pages[2] as GroupPage;
    expect(group).toMatchObject({ title: 'Extra Things', slug: 'extra-things' });
    expect(group.children[0]).toMatchObject({ kind: 'document', git: { path: 'a/b.md' } });
    expect(ctx.loads.map((l) => l.page.git!.path)).toEqual(['README.md', 'guide.md', 'a/b.md']);
    expect([...ctx.pageByPath.keys()]).toEqual(['README.md', 'guide.md', 'a/b.md']);
    expect(ctx.warnings).toEqual([]);
  });

  it('keeps unusable entries as links with one warning each; an anchor or a second listing waits for the page id', async () => {
    const ctx = await tree(
      '# Table of contents\n\n* [Home](README.md)\n* [Gone](gone.md)\n* [Picture](logo.png)\n* [Up](../outside.md)\n* [Again](README.md)\n* [Section](README.md#install)\n',
      { 'logo.png': 'x' },
    );
    const links = ctx.pages.slice(1) as LinkPage[];
    expect(links.map((l) => l.kind)).toEqual(['link', 'link', 'link', 'link', 'link']);
    expect(links.map((l) => l.target)).toEqual([
      { kind: 'unresolved', path: 'gone.md' },
      { kind: 'unresolved', path: 'logo.png' },
      { kind: 'unresolved', path: '../outside.md' },
      { kind: 'unresolved', path: 'README.md' },
      { kind: 'unresolved', path: 'README.md' },
    ]);
    expect(ctx.warnings.map((w) => [w.code, w.severity, w.line])).toEqual([
      ['FORMAT_SUMMARY_MISSING_FILE', 'error', 4],
      ['FORMAT_SUMMARY_NOT_MARKDOWN', 'info', 5],
      ['FORMAT_SUMMARY_OUTSIDE_ROOT', 'error', 6],
      ['FORMAT_SUMMARY_DUPLICATE_ENTRY', 'warning', 7],
    ]);
    expect(ctx.pendingLinks.map((l) => [l.page.title, l.path, l.fragment])).toEqual([
      ['Again', 'README.md', undefined],
      ['Section', 'README.md', 'install'],
    ]);
    expect(ctx.loads).toHaveLength(1);
  });

  it('finds a percent-encoded destination under its decoded name', async () => {
    const ctx = await tree('# Table of contents\n\n* [Home](README.md)\n* [Spaced](my%20page.md)\n', { 'my page.md': '# Spaced\n' });
    expect(ctx.pages[1]).toMatchObject({ kind: 'document', git: { path: 'my page.md' } });
  });
});
