import { describe, expect, it } from 'vitest';
import {
  applyChanges,
  documents,
  exportRevision,
  importTree,
  memoryEntry,
  treeFromFiles,
  type DocumentPage,
  type GroupPage,
  type RevisionModel,
  type SourceTree,
} from '../../../src/format/index.js';

const enc = (s: string) => new TextEncoder().encode(s);
const dec = (b: Uint8Array | null | undefined) => (b ? new TextDecoder().decode(b) : b);
const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);

function doc(revision: RevisionModel, path: string): DocumentPage {
  const p = [...documents(revision.pages)].find((d) => d.git?.path === path);
  if (!p) throw new Error(`no page ${path}`);
  return p;
}

/** Repository without SUMMARY.md: the TOC is inferred from folders. */
function folderRepo(): SourceTree {
  return treeFromFiles({
    'README.md': '# Home\n\nSee [the guide](guide/) and ![logo](.gitbook/assets/logo%20one.png).\n',
    'intro.md': '# Intro\n\nRead [setup](guide/setup.md#install).\n',
    'guide/README.md': '# Guide\n\n[Back home](../README.md)\n',
    'guide/setup.md': '---\ndescription: Set it up\nicon: gear\n---\n\n# Setup\n\n<img src="../.gitbook/assets/日本語 画像.png" alt="x">\n',
    'guide/advanced/README.md': '# Advanced\n',
    'guide/advanced/tuning.md': '# Tuning\n\n![](<../../.gitbook/assets/missing (1).png>)\n',
    'reference/api.md': '# API\n',
    'reference/cli.md': '# CLI\n',
    '.gitbook/assets/logo one.png': png,
    '.gitbook/assets/日本語 画像.png': png.slice(0, 9),
    'src/code.ts': 'export const x = 1;\n',
  });
}

/** A space in a project directory whose .gitbook.yaml moves the root and the structure files. */
function projectRepo(): SourceTree {
  return treeFromFiles({
    'README.md': '# Repository readme (not part of the space)\n',
    'other-space/README.md': '# Another space\n',
    'packages/docs/.gitbook.yaml':
      'root: ./content/\nstructure:\n  readme: intro.md\n  summary: toc/SUMMARY.md\nredirects:\n  old/page: ./guide.md\n  gone: ./nothing.md\n',
    'packages/docs/content/toc/SUMMARY.md':
      '# Table of contents\n\n* [Intro](../intro.md)\n* [Guide](../guide.md "Guide label")\n  * [Detail](../guide/detail.md)\n\n## Extras\n\n* [Old](../old.md)\n* [Status](https://status.example.com)\n',
    'packages/docs/content/intro.md': '# Introduction\n\nGo to the [guide](guide.md) or [old](old.md).\n',
    'packages/docs/content/guide.md': '---\nhidden: true\n---\n\n# Guide\n\n![shot](.gitbook/assets/shot.png)\n',
    'packages/docs/content/guide/detail.md': '# Detail\n\n[Up](../guide.md#top)\n',
    'packages/docs/content/old.md': '# Old\n\n![only here](.gitbook/assets/old-only.png)\n',
    'packages/docs/content/unlisted.md': '# Not in SUMMARY\n',
    'packages/docs/content/.gitbook/assets/shot.png': png,
    'packages/docs/content/.gitbook/assets/old-only.png': png.slice(0, 10),
    'packages/docs/content/.gitbook/assets/never-used.png': png.slice(0, 8),
  });
}

describe('tree without SUMMARY.md', () => {
  it('infers the table of contents from folders and resolves links and assets', async () => {
    const tree = folderRepo();
    const { revision, warnings, stats } = await importTree(tree);
    expect(stats.pages).toBe(8);
    const top = revision.pages;
    expect(top.map((p) => p.title)).toEqual(['Home', 'Intro', 'Guide', 'Reference']);
    const guide = top[2] as DocumentPage;
    expect(guide.children.map((c) => c.title)).toEqual(['Setup', 'Advanced']);
    expect(guide.children[1]!.children.map((c) => c.title)).toEqual(['Tuning']);
    const group = top[3] as GroupPage;
    expect(group.kind).toBe('group');
    expect(group.children.map((c) => c.title)).toEqual(['API', 'CLI']);
    const home = doc(revision, 'README.md');
    expect(home.path).toBe('');
    expect(home.references.find((r) => r.url === 'guide/')?.target).toEqual({ kind: 'page', pageId: guide.id });
    const logo = revision.files.find((f) => f.name === 'logo one.png')!;
    expect(home.references.find((r) => r.url.includes('logo'))?.target).toEqual({ kind: 'file', fileId: logo.id });
    const setup = doc(revision, 'guide/setup.md');
    expect(setup).toMatchObject({ description: 'Set it up', icon: 'gear', path: 'guide/setup', slug: 'setup' });
    expect(setup.references[0]!.target.kind).toBe('file');
    expect(doc(revision, 'intro.md').references[0]!.target).toEqual({ kind: 'page', pageId: setup.id, anchor: 'install' });
    expect(warnings.filter((w) => w.code === 'FORMAT_ASSET_MISSING').map((w) => w.path)).toEqual(['guide/advanced/tuning.md']);
    expect(revision.summary.present).toBe(false);
    expect(JSON.parse(JSON.stringify(revision))).toEqual(revision);

    const exported = await exportRevision(revision, tree);
    expect([...exported.changes.keys()]).toEqual([]);
  });

  it('writes SUMMARY.md once the inferred tree changes', async () => {
    const tree = folderRepo();
    const { revision } = await importTree(tree);
    revision.pages.splice(1, 1); // remove "Intro"
    const { changes } = await exportRevision(revision, tree);
    expect([...changes.keys()].sort()).toEqual(['SUMMARY.md', 'intro.md']);
    expect(changes.get('intro.md')).toBeNull();
    const summary = dec(changes.get('SUMMARY.md'))!;
    expect(summary).toBe(
      '# Table of contents\n\n* [Home](README.md)\n* [Guide](guide/README.md)\n  * [Setup](guide/setup.md)\n  * [Advanced](guide/advanced/README.md)\n    * [Tuning](guide/advanced/tuning.md)\n\n## Reference\n\n* [API](reference/api.md)\n* [CLI](reference/cli.md)\n',
    );
  });
});

describe('project directory with .gitbook.yaml root and structure', () => {
  it('resolves root, structure paths and redirects relative to the project directory', async () => {
    const tree = projectRepo();
    const { revision, warnings, stats } = await importTree(tree, { projectDirectory: 'packages/docs' });
    expect(revision.config).toMatchObject({
      projectDirectory: 'packages/docs',
      configPath: 'packages/docs/.gitbook.yaml',
      root: 'packages/docs/content',
      readme: 'packages/docs/content/intro.md',
      summary: 'packages/docs/content/toc/SUMMARY.md',
    });
    expect(stats).toMatchObject({ pages: 4, unlisted: 1 });
    const guide = doc(revision, 'packages/docs/content/guide.md');
    expect(guide).toMatchObject({ hidden: true, linkTitle: 'Guide label', path: 'guide' });
    expect(doc(revision, 'packages/docs/content/intro.md')).toMatchObject({ title: 'Introduction', tocTitle: 'Intro', path: '' });
    expect(revision.config.redirects[0]).toEqual({ from: 'old/page', to: './guide.md', pageId: guide.id });
    expect(warnings.map((w) => w.code)).toEqual(expect.arrayContaining(['FORMAT_PAGE_NOT_IN_SUMMARY', 'FORMAT_REDIRECT_UNRESOLVED']));
    expect(revision.pages[2]).toMatchObject({ kind: 'group', title: 'Extras' });
    expect(revision.pages[2]!.children[1]).toMatchObject({ kind: 'link', target: { kind: 'url', url: 'https://status.example.com' } });
    expect(revision.files.map((f) => [f.name, f.referenced]).sort()).toEqual([
      ['never-used.png', false],
      ['old-only.png', true],
      ['shot.png', true],
    ]);
  });

  it('exports an edited page as exactly that file', async () => {
    const tree = projectRepo();
    const { revision } = await importTree(tree, { projectDirectory: 'packages/docs' });
    const guide = doc(revision, 'packages/docs/content/guide.md');
    guide.markdown = guide.markdown!.replace('![shot]', 'Some new text.\n\n![shot]');
    const { changes } = await exportRevision(revision, tree);
    expect([...changes.keys()]).toEqual(['packages/docs/content/guide.md']);
    expect(dec(changes.get('packages/docs/content/guide.md'))).toContain('Some new text.');
  });

  it('deleting a page rewrites SUMMARY.md, deletes its file and the asset only it used', async () => {
    const tree = projectRepo();
    const { revision } = await importTree(tree, { projectDirectory: 'packages/docs' });
    const base = structuredClone(revision);
    const extras = revision.pages[2] as GroupPage;
    extras.children.splice(0, 1); // delete "Old"
    const { changes } = await exportRevision(revision, tree, { base });
    // Without `base`, the managed paths are read from the target tree's SUMMARY.md: same result.
    expect([...(await exportRevision(revision, tree)).changes.keys()].sort()).toEqual([...changes.keys()].sort());
    expect([...changes.keys()].sort()).toEqual([
      'packages/docs/content/.gitbook/assets/old-only.png',
      'packages/docs/content/old.md',
      'packages/docs/content/toc/SUMMARY.md',
    ]);
    expect(changes.get('packages/docs/content/old.md')).toBeNull();
    expect(changes.get('packages/docs/content/.gitbook/assets/old-only.png')).toBeNull();
    expect(dec(changes.get('packages/docs/content/toc/SUMMARY.md'))).toBe(
      '# Table of contents\n\n* [Intro](../intro.md)\n* [Guide](../guide.md "Guide label")\n  * [Detail](../guide/detail.md)\n\n## Extras\n\n* [Status](https://status.example.com)\n',
    );
    // never-used.png was unreferenced before: untouched. Unmanaged files: untouched.
  });

  it('changing a title rewrites the H1 and the SUMMARY entry; moving a page rewrites links to it', async () => {
    const tree = projectRepo();
    const { revision } = await importTree(tree, { projectDirectory: 'packages/docs' });
    const detail = doc(revision, 'packages/docs/content/guide/detail.md');
    detail.title = 'Details';
    const guide = doc(revision, 'packages/docs/content/guide.md');
    // move "Old" under "Guide"
    const extras = revision.pages[2] as GroupPage;
    const [old] = extras.children.splice(0, 1);
    guide.children.push(old!);
    const { changes, revision: after } = await exportRevision(revision, tree);
    const keys = [...changes.keys()].sort();
    expect(keys).toEqual([
      'packages/docs/content/guide/detail.md',
      'packages/docs/content/guide/old.md',
      'packages/docs/content/intro.md',
      'packages/docs/content/old.md',
      'packages/docs/content/toc/SUMMARY.md',
    ]);
    expect(dec(changes.get('packages/docs/content/guide/detail.md'))).toBe('# Details\n\n[Up](../guide.md#top)\n');
    expect(changes.get('packages/docs/content/old.md')).toBeNull();
    expect(dec(changes.get('packages/docs/content/guide/old.md'))).toBe('# Old\n\n![only here](../.gitbook/assets/old-only.png)\n');
    expect(dec(changes.get('packages/docs/content/intro.md'))).toBe('# Introduction\n\nGo to the [guide](guide.md) or [old](guide/old.md).\n');
    expect(dec(changes.get('packages/docs/content/toc/SUMMARY.md'))).toContain('  * [Details](../guide/detail.md)\n  * [Old](../guide/old.md)\n');
    // Re-importing the exported tree gives the same ids.
    const next = applyChanges(tree, changes);
    const again = await importTree(next, { projectDirectory: 'packages/docs', previous: { revision: after, tree } });
    expect([...documents(again.revision.pages)].map((p) => p.id).sort()).toEqual([...documents(after.pages)].map((p) => p.id).sort());
    expect(again.stats.parsed).toBe(0);
  });
});

describe('SUMMARY.md comments (hidden entries)', () => {
  it('stay where they stood when SUMMARY.md is rewritten; a comment after a deleted page moves to the end', async () => {
    const summary =
      '# Table of contents\n\n* [A](a.md)\n  <!-- * [A draft](a-draft.md) -->\n* [B](b.md)\n<!-- * [B draft](b-draft.md) -->\n* [C](c.md)\n\n## Group\n\n<!-- * [G draft](g.md) -->\n* [D](d.md)\n';
    const tree = treeFromFiles({ 'SUMMARY.md': summary, 'a.md': '# A\n', 'b.md': '# B\n', 'c.md': '# C\n', 'd.md': '# D\n' });
    const { revision } = await importTree(tree);
    expect((await exportRevision(revision, tree, { reserialize: true })).changes.has('SUMMARY.md')).toBe(false);
    // Rename C: SUMMARY.md is rewritten, every comment at its place.
    (revision.pages[2] as DocumentPage).tocTitle = 'See';
    const renamed = await exportRevision(revision, tree);
    expect(dec(renamed.changes.get('SUMMARY.md'))).toBe(summary.replace('[C](c.md)', '[See](c.md)'));
    // Delete B: its comment has no place any more and goes to the end.
    revision.pages.splice(1, 1);
    const deleted = await exportRevision(revision, tree);
    expect(dec(deleted.changes.get('SUMMARY.md'))).toBe(
      '# Table of contents\n\n* [A](a.md)\n  <!-- * [A draft](a-draft.md) -->\n* [See](c.md)\n\n## Group\n\n<!-- * [G draft](g.md) -->\n* [D](d.md)\n\n<!-- * [B draft](b-draft.md) -->\n',
    );
  });
});

describe('incremental import', () => {
  it('reuses unchanged pages without reading them and keeps ids, also for moved files', async () => {
    const tree = folderRepo();
    const first = await importTree(tree);
    const next: SourceTree = new Map(tree);
    next.set('intro.md', memoryEntry(enc('# Intro changed\n')));
    let reads = 0;
    for (const [p, e] of next) {
      if (p === 'intro.md') continue;
      next.set(p, {
        ...e,
        read: async () => {
          reads++;
          return e.read();
        },
      });
    }
    const second = await importTree(next, { previous: { revision: first.revision, tree } });
    expect(second.stats).toMatchObject({ parsed: 1, reused: 7 });
    expect(reads).toBe(0);
    const ids = (r: RevisionModel) => [...documents(r.pages)].map((p) => `${p.git!.path}=${p.id}`).sort();
    expect(ids(second.revision)).toEqual(ids(first.revision));
    expect(doc(second.revision, 'intro.md').title).toBe('Intro changed');
  });

  it('TOC links and groups that repeat (same href, same title) each keep their own id', async () => {
    const summary =
      '# Table of contents\n\n* [A](a.md)\n  * [Wallet](https://example.com/w)\n* [B](b.md)\n  * [Wallet](https://example.com/w)\n\n## Same\n\n* [C](c.md)\n\n## Same\n\n* [D](d.md)\n';
    const tree = treeFromFiles({ 'SUMMARY.md': summary, 'a.md': '# A\n', 'b.md': '# B\n', 'c.md': '# C\n', 'd.md': '# D\n' });
    const first = await importTree(tree);
    const second = await importTree(tree, { previous: { revision: first.revision, tree } });
    const ids = (r: RevisionModel) => {
      const out: string[] = [];
      const walk = (ps: RevisionModel['pages']) => ps.forEach((p) => (out.push(`${p.kind} ${p.title} ${p.id}`), walk(p.children)));
      walk(r.pages);
      return out;
    };
    expect(ids(second.revision)).toEqual(ids(first.revision));
  });

  it('a moved file keeps its page id (matched by blob oid)', async () => {
    const tree = treeFromFiles({ 'SUMMARY.md': '# Table of contents\n\n* [A](a.md)\n* [B](b.md)\n', 'a.md': '# A\n', 'b.md': '# B\n' });
    const first = await importTree(tree);
    const moved = treeFromFiles({ 'SUMMARY.md': '# Table of contents\n\n* [A](a.md)\n* [B](sub/b.md)\n', 'a.md': '# A\n', 'sub/b.md': '# B\n' });
    const second = await importTree(moved, { previous: { revision: first.revision, tree } });
    expect(doc(second.revision, 'sub/b.md').id).toBe(doc(first.revision, 'b.md').id);
    expect(second.stats.parsed).toBe(0);
  });
});

describe('bad input', () => {
  const base = (extra: Record<string, string | Uint8Array>) => treeFromFiles({ 'README.md': '# Home\n', ...extra });

  it('invalid .gitbook.yaml: defaults and an error warning', async () => {
    const { revision, warnings } = await importTree(base({ '.gitbook.yaml': 'root: [unclosed\n', 'SUMMARY.md': '* [Home](README.md)\n' }));
    expect(warnings.map((w) => w.code)).toContain('FORMAT_CONFIG_INVALID_YAML');
    expect(revision.config.root).toBe('');
    expect([...documents(revision.pages)]).toHaveLength(1);
  });

  it('binary .md, oversized page, symlink: kept as pages without content, never rewritten', async () => {
    const big = 'x'.repeat(10 * 1024 * 1024);
    const tree = base({
      'SUMMARY.md': '# Table of contents\n\n* [Home](README.md)\n* [Bin](bin.md)\n* [Big](big.md)\n* [Link](link.md)\n',
      'bin.md': new Uint8Array([0xff, 0xfe, 0x00, 0x01, 0x89]),
      'big.md': `# Big\n\n${big}\n`,
    });
    tree.set('link.md', memoryEntry(enc('README.md'), '120000'));
    const { revision, warnings } = await importTree(tree);
    expect(
      warnings
        .filter((w) => w.severity === 'error')
        .map((w) => w.code)
        .sort(),
    ).toEqual(['FORMAT_PAGE_BINARY', 'FORMAT_PAGE_SYMLINK', 'FORMAT_PAGE_TOO_LARGE']);
    const pages = [...documents(revision.pages)];
    expect(pages.map((p) => [p.title, p.markdown === null])).toEqual([
      ['Home', false],
      ['Bin', true],
      ['Big', true],
      ['Link', true],
    ]);
    expect((await exportRevision(revision, tree, { reserialize: true })).changes.size).toBe(0);
  });

  it('a symlinked SUMMARY.md or .gitbook.yaml is not followed: typed error warnings, defaults, never written over', async () => {
    const tree = base({ 'guide.md': '# Guide\n', 'real-summary.md': '# Table of contents\n\n* [Home](README.md)\n', 'real.yaml': 'root: ./elsewhere/\n' });
    tree.set('SUMMARY.md', memoryEntry(enc('real-summary.md'), '120000'));
    tree.set('.gitbook.yaml', memoryEntry(enc('real.yaml'), '120000'));
    const { revision, warnings } = await importTree(tree);
    const symlinks = warnings.filter((w) => w.code === 'FORMAT_SUMMARY_SYMLINK' || w.code === 'FORMAT_CONFIG_SYMLINK');
    expect(symlinks.map((w) => [w.code, w.severity, w.path]).sort()).toEqual([
      ['FORMAT_CONFIG_SYMLINK', 'error', '.gitbook.yaml'],
      ['FORMAT_SUMMARY_SYMLINK', 'error', 'SUMMARY.md'],
    ]);
    expect(revision.config).toMatchObject({ configPath: null, root: '' });
    // The table of contents is inferred from the folders.
    expect([...documents(revision.pages)].map((p) => p.git!.path).sort()).toEqual(['README.md', 'guide.md', 'real-summary.md']);
    expect((await exportRevision(revision, tree, { reserialize: true })).changes.has('SUMMARY.md')).toBe(false);
    revision.pages.splice(1, 1); // a TOC change: SUMMARY.md would be rewritten, but it is a symlink
    const changed = await exportRevision(revision, tree);
    expect(changed.changes.has('SUMMARY.md')).toBe(false);
    expect(changed.warnings.map((w) => w.code)).toContain('FORMAT_SUMMARY_SYMLINK');
  });

  it('page size: one limit for import and parsing; a page over it is opaque with one warning, a raised limit parses it whole', async () => {
    // ~2.1 MiB, over the default: a code listing, parsed whole under the raised limit yet cheaply (paragraphs of the
    // same size took five times the CPU).
    const filler = '```\n' + 'Some text of the page.\n'.repeat(Math.ceil((2.1 * 1024 * 1024) / 23)) + '```\n';
    const tree = base({ 'SUMMARY.md': '# Table of contents\n\n* [Home](README.md)\n* [Big](big.md)\n', 'big.md': `# Big\n\n[Home](README.md)\n\n${filler}` });
    const small = await importTree(tree);
    expect(small.warnings.filter((w) => w.path === 'big.md').map((w) => w.code)).toEqual(['FORMAT_PAGE_TOO_LARGE']);
    expect(doc(small.revision, 'big.md').markdown).toBeNull();
    const raised = await importTree(tree, { limits: { maxPageBytes: 3 * 1024 * 1024 } });
    expect(raised.warnings.filter((w) => w.path === 'big.md')).toEqual([]);
    const big = doc(raised.revision, 'big.md');
    expect(big.references.map((r) => r.target.kind)).toEqual(['page']);
  }, 120_000);

  it('duplicate SUMMARY entries, entries outside the root and missing files become links with warnings', async () => {
    const { revision, warnings } = await importTree(
      base({
        'SUMMARY.md': '# Table of contents\n\n* [Home](README.md)\n* [A](a.md)\n* [A again](a.md)\n* [Escape](../../x.md)\n* [Gone](gone.md)\n',
        'a.md': '# A\n',
      }),
    );
    expect(warnings.map((w) => w.code)).toEqual(
      expect.arrayContaining(['FORMAT_SUMMARY_DUPLICATE_ENTRY', 'FORMAT_SUMMARY_OUTSIDE_ROOT', 'FORMAT_SUMMARY_MISSING_FILE']),
    );
    const a = doc(revision, 'a.md');
    expect(revision.pages.map((p) => p.kind)).toEqual(['document', 'document', 'link', 'link', 'link']);
    expect(revision.pages[2]).toMatchObject({ kind: 'link', target: { kind: 'page', pageId: a.id } });
  });

  it('invalid front matter is a warning; the page is kept', async () => {
    const { revision, warnings } = await importTree(
      base({ 'SUMMARY.md': '* [Home](README.md)\n* [F](f.md)\n', 'f.md': '---\ndescription: [oops\n---\n\n# F\n' }),
    );
    expect(warnings.map((w) => w.code)).toContain('FORMAT_FRONT_MATTER_INVALID');
    expect(doc(revision, 'f.md')).toMatchObject({ frontMatterValid: false });
  });

  it('a root outside the repository is a typed error', async () => {
    await expect(importTree(base({ '.gitbook.yaml': 'root: ../../elsewhere\n' }))).rejects.toMatchObject({ code: 'FORMAT_ROOT_OUTSIDE_REPOSITORY' });
    await expect(importTree(base({}), { projectDirectory: '../x' })).rejects.toMatchObject({ code: 'FORMAT_ROOT_OUTSIDE_REPOSITORY' });
  });

  it('the default page limit (5000) counts document pages only, not links or groups; nothing is read before it applies', async () => {
    const make = (pages: number, links: number) => {
      const lines = ['# Table of contents', ''];
      const files = new Map<string, string>();
      for (let i = 0; i < pages; i++) {
        lines.push(`* [P${i}](p${i}.md)`);
        files.set(`p${i}.md`, `# P${i}\n`);
      }
      lines.push('', '## Links', '');
      for (let i = 0; i < links; i++) lines.push(`* [L${i}](https://example.com/${i})`, `* [Again ${i}](p${i}.md#top)`);
      files.set('SUMMARY.md', lines.join('\n') + '\n');
      return treeFromFiles(files);
    };
    // 5,001 pages: a typed error before any page is read.
    const over = make(5001, 0);
    let reads = 0;
    for (const [p, e] of over)
      if (p !== 'SUMMARY.md')
        over.set(p, {
          ...e,
          read: async () => {
            reads++;
            return e.read();
          },
        });
    await expect(importTree(over)).rejects.toMatchObject({ code: 'FORMAT_TOO_MANY_PAGES', data: { count: 5001, limit: 5000 } });
    expect(reads).toBe(0);
    // 5,000 pages and 400 link entries (external and anchor links): within the limit.
    const { stats, revision } = await importTree(make(5000, 200));
    expect(stats.pages).toBe(5000);
    expect(revision.pages.at(-1)!.children).toHaveLength(400);
  }, 120_000);

  it('more pages than the limit is a typed error', async () => {
    const files: Record<string, string> = { 'SUMMARY.md': '# T\n\n' + Array.from({ length: 6 }, (_, i) => `* [P${i}](p${i}.md)\n`).join('') };
    for (let i = 0; i < 6; i++) files[`p${i}.md`] = `# P${i}\n`;
    await expect(importTree(base(files), { limits: { maxPages: 5 } })).rejects.toMatchObject({ code: 'FORMAT_TOO_MANY_PAGES' });
    await expect(importTree(base(files), { limits: { maxPages: 6 } })).resolves.toBeTruthy();
  });
});
