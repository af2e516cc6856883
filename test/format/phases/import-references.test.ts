import { describe, expect, it } from 'vitest';
import { treeFromFiles, type DocumentPage, type FileModel, type LinkPage } from '../../../src/format/index.js';
import type { PageLoad, PendingLink } from '../../../src/format/import/context.js';
import { resolveReferences } from '../../../src/format/import/references.js';
import type { FormatWarning } from '../../../src/format/index.js';
import { docPage } from './fixtures.js';

const file = (id: string, path: string): FileModel => ({
  id,
  name: path.split('/').pop()!,
  path,
  contentType: 'image/png',
  role: 'asset',
  referenced: false,
  git: { oid: `oid-${id}`, path },
});

/** The reference phase alone: the destinations found in each page resolved among today's pages and files. */
function resolve(urls: Record<string, string[]>, extra: { cover?: string; pending?: PendingLink[] } = {}) {
  const tree = treeFromFiles({
    'README.md': '',
    'guide/setup.md': '',
    'guide/notes.txt': '',
    '.gitbook/assets/logo.png': '',
    '.gitbook/assets/unused.png': '',
  });
  const home = docPage('README.md', 'o1', 'P_HOME');
  const setup = docPage('guide/setup.md', 'o2', 'P_SETUP');
  if (extra.cover !== undefined) setup.cover = { ref: extra.cover };
  const loads: PageLoad[] = [home, setup].map((page) => ({ page, entry: tree.get(page.git!.path)!, tocText: undefined }));
  const files = [file('F_LOGO', '.gitbook/assets/logo.png'), file('F_UNUSED', '.gitbook/assets/unused.png')];
  const warnings: FormatWarning[] = [];
  const ctx = {
    tree,
    config: { projectDirectory: '', configPath: null, root: '', readme: 'README.md', summary: 'SUMMARY.md', redirects: [] },
    warnings,
    loads,
    pageByPath: new Map<string, DocumentPage>([
      ['README.md', home],
      ['guide/setup.md', setup],
    ]),
    filesByPath: new Map(files.map((f) => [f.path, f.id])),
    files,
    rawUrls: new Map(Object.entries(urls)),
    pendingLinks: extra.pending ?? [],
  };
  resolveReferences(ctx);
  return { home, setup, files, warnings };
}

describe('import phase: reference resolution', () => {
  it('resolves page and file destinations relative to the page; a used file is marked referenced', () => {
    const { home, setup, files, warnings } = resolve({
      P_HOME: ['guide/setup.md#install', '.gitbook/assets/logo.png'],
      P_SETUP: ['../README.md', 'https://example.com'],
    });
    expect(home.references).toEqual([
      { url: 'guide/setup.md#install', target: { kind: 'page', pageId: 'P_SETUP', anchor: 'install' } },
      { url: '.gitbook/assets/logo.png', target: { kind: 'file', fileId: 'F_LOGO' } },
    ]);
    expect(setup.references[0]).toEqual({ url: '../README.md', target: { kind: 'page', pageId: 'P_HOME' } });
    expect(setup.references[1]!.target.kind).toBe('url');
    expect(files.map((f) => f.referenced)).toEqual([true, false]);
    expect(warnings).toEqual([]);
  });

  it('reports a dead page link, a missing asset and an unmanaged file, each once, and keeps the destinations', () => {
    const { setup, warnings } = resolve({ P_SETUP: ['gone.md', '../.gitbook/assets/missing.png', 'notes.txt'] });
    expect(setup.references.map((r) => r.target.kind)).toEqual(['unresolved', 'unresolved', 'unresolved']);
    expect(warnings.map((w) => [w.code, w.data?.url])).toEqual([
      ['FORMAT_LINK_UNRESOLVED', 'gone.md'],
      ['FORMAT_ASSET_MISSING', '../.gitbook/assets/missing.png'],
      ['FORMAT_LINK_UNRESOLVED', 'notes.txt'],
    ]);
    expect(warnings[2]!.message).toContain('not a page or space file');
  });

  it('resolves a cover from the content root or the page folder, and warns for a missing one', () => {
    const found = resolve({}, { cover: '.gitbook/assets/logo.png' });
    expect(found.setup.cover).toEqual({ ref: '.gitbook/assets/logo.png', fileId: 'F_LOGO' });
    expect(found.files[0]!.referenced).toBe(true);
    const missing = resolve({}, { cover: '../.gitbook/assets/none.png' });
    expect(missing.setup.cover!.fileId).toBeUndefined();
    expect(missing.warnings.map((w) => w.code)).toEqual(['FORMAT_ASSET_MISSING']);
  });

  it('points pending SUMMARY links at their page (with the anchor); one naming no page is a warning', () => {
    const link = (title: string): LinkPage => ({
      id: 'L',
      kind: 'link',
      title,
      slug: '',
      href: `${title}.md`,
      target: { kind: 'unresolved', path: `${title}.md` },
      children: [],
    });
    const [a, b, c] = [link('a'), link('b'), link('c')];
    const { warnings } = resolve(
      {},
      {
        pending: [
          { page: a, path: 'README.md' },
          { page: b, path: 'guide/setup.md', fragment: 'top' },
          { page: c, path: 'nowhere.md' },
        ],
      },
    );
    expect(a.target).toEqual({ kind: 'page', pageId: 'P_HOME' });
    expect(b.target).toEqual({ kind: 'page', pageId: 'P_SETUP', anchor: 'top' });
    expect(c.target).toEqual({ kind: 'unresolved', path: 'c.md' });
    expect(warnings.map((w) => w.code)).toEqual(['FORMAT_LINK_UNRESOLVED']);
  });
});
