import { describe, expect, it } from 'vitest';
import type { Paragraph } from 'mdast';
import { documents, exportRevision, importTree, treeFromFiles, type DocumentPage, type RevisionModel } from '../../../src/format/index.js';
import { parsePageFile } from '../../../src/format/markdown/index.js';
import { CORPUS, importedRepo, loadRepo } from './corpus.js';
import { existsSync } from 'node:fs';
import { changedLines } from '../changed-lines.js';

const dec = (b: Uint8Array | null | undefined) => (b ? new TextDecoder('utf-8', { ignoreBOM: true }).decode(b) : b);
const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);

function doc(revision: RevisionModel, path: string): DocumentPage {
  const p = [...documents(revision.pages)].find((d) => d.git?.path === path);
  if (!p) throw new Error(`no page ${path}`);
  return p;
}

function repo() {
  return treeFromFiles({
    'SUMMARY.md': '# Table of contents\n\n* [A](a.md)\n* [B](b.md)\n* [Sub](sub/README.md)\n',
    'a.md': '# A\n\nIntro of A.\n\n![diagram](.gitbook/assets/diagram.png)\n\nOutro of A.\n',
    'b.md': '# B\n\nAll about B.\n',
    'sub/README.md': '# Sub\n',
    '.gitbook/assets/diagram.png': png,
  });
}

describe('export of edited markdown: references are re-derived from the text', () => {
  it('an edit that removes the only use of an asset deletes the asset', async () => {
    const tree = repo();
    const { revision } = await importTree(tree);
    const a = doc(revision, 'a.md');
    a.markdown = a.markdown!.replace('![diagram](.gitbook/assets/diagram.png)\n\n', '');
    const { changes, revision: after } = await exportRevision(revision, tree, { base: structuredClone(revision) });
    expect([...changes.keys()].sort()).toEqual(['.gitbook/assets/diagram.png', 'a.md']);
    expect(changes.get('.gitbook/assets/diagram.png')).toBeNull();
    expect(dec(changes.get('a.md'))).toBe('# A\n\nIntro of A.\n\nOutro of A.\n');
    expect(after.files).toEqual([]);
    expect(doc(after, 'a.md').references).toEqual([]);
  });

  it('an edit that adds a use of an asset keeps it when its former user is deleted', async () => {
    const tree = repo();
    const { revision } = await importTree(tree);
    const base = structuredClone(revision);
    const b = doc(revision, 'b.md');
    b.markdown = `${b.markdown}\n![again](.gitbook/assets/diagram.png)\n`;
    revision.pages.splice(0, 1); // delete A, the page that used the asset
    const { changes } = await exportRevision(revision, tree, { base });
    expect(changes.has('.gitbook/assets/diagram.png')).toBe(false);
    expect(changes.get('a.md')).toBeNull();
  });

  it('a link added by an edit is written as a correct relative path when its target moves', async () => {
    const tree = repo();
    const { revision } = await importTree(tree);
    const a = doc(revision, 'a.md');
    const b = doc(revision, 'b.md');
    a.markdown = a.markdown!.replace('Outro of A.', 'Outro of A, see [B](b.md).');
    // move B under Sub: its file becomes sub/b.md
    revision.pages.splice(1, 1);
    (revision.pages[1] as DocumentPage).children.push(b);
    const { changes, revision: after } = await exportRevision(revision, tree);
    expect(dec(changes.get('sub/b.md'))).toBe('# B\n\nAll about B.\n');
    expect(changes.get('b.md')).toBeNull();
    expect(dec(changes.get('a.md'))).toBe('# A\n\nIntro of A.\n\n![diagram](.gitbook/assets/diagram.png)\n\nOutro of A, see [B](sub/b.md).\n');
    expect(doc(after, 'a.md').references.find((r) => r.target.kind === 'page')).toEqual({ url: 'sub/b.md', target: { kind: 'page', pageId: b.id } });
  });

  it('a link added by an edit is rewritten when the edited page itself moves', async () => {
    const tree = repo();
    const { revision } = await importTree(tree);
    const a = doc(revision, 'a.md');
    a.markdown = a.markdown!.replace('Intro of A.', 'Intro of A; next: [B](b.md).');
    revision.pages.splice(0, 1);
    (revision.pages[1] as DocumentPage).children.push(a); // a.md → sub/a.md
    const { changes } = await exportRevision(revision, tree);
    expect(dec(changes.get('sub/a.md'))).toBe('# A\n\nIntro of A; next: [B](../b.md).\n\n![diagram](../.gitbook/assets/diagram.png)\n\nOutro of A.\n');
    expect(changes.get('a.md')).toBeNull();
  });
});

describe('export of an edited page: minimal diff, changed blocks in GitBook current style', () => {
  it('a legacy-styled hand-written page keeps every unchanged byte; the edited paragraph is written in current style', async () => {
    const legacy = '# Notes\n\nFirst   paragraph, hand *written*.\n\n\n-   one\n-   two\n\nSecond paragraph.\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\n';
    const tree = treeFromFiles({ 'SUMMARY.md': '# Table of contents\n\n* [Notes](README.md)\n', 'README.md': legacy });
    const { revision } = await importTree(tree);
    const page = doc(revision, 'README.md');
    page.markdown = page.markdown!.replace('Second paragraph.', 'Second paragraph, *edited* with a snake_case word.');
    const { changes } = await exportRevision(revision, tree);
    const out = dec(changes.get('README.md'))!;
    expect(changedLines(legacy, out)).toEqual([9]);
    // GitBook's current exporter: `_` emphasis, escaped underscores.
    expect(out.split('\n')[8]).toBe('Second paragraph, _edited_ with a snake\\_case word.');
  });

  it('an edited heading and a new block: only those lines change; the model fields follow the text', async () => {
    const text = '---\ndescription: Kept\n---\n\n# Title\n\nBody one.\n\n## Old heading\n\nBody two.\n';
    const tree = treeFromFiles({ 'SUMMARY.md': '# Table of contents\n\n* [T](README.md)\n', 'README.md': text });
    const { revision } = await importTree(tree);
    const page = doc(revision, 'README.md');
    page.markdown = page.markdown!.replace('## Old heading', '## New heading').replace('Body two.\n', 'Body two.\n\n- added item\n');
    const { changes } = await exportRevision(revision, tree);
    expect(dec(changes.get('README.md'))).toBe('---\ndescription: Kept\n---\n\n# Title\n\nBody one.\n\n## New heading\n\nBody two.\n\n* added item\n');
  });

  it('a new page is written entirely in current style', async () => {
    const tree = treeFromFiles({ 'SUMMARY.md': '# Table of contents\n\n* [Home](README.md)\n', 'README.md': '# Home\n' });
    const { revision } = await importTree(tree);
    const fresh: DocumentPage = {
      id: 'newpage1',
      kind: 'document',
      title: 'Fresh',
      titleSource: 'heading',
      slug: 'fresh',
      path: 'fresh',
      hidden: false,
      noIndex: false,
      frontMatter: null,
      frontMatterValid: true,
      markdown: '# Fresh\n\n- a\n- b\n\nSome *text*.\n',
      derived: '',
      references: [],
      children: [],
    };
    revision.pages.push(fresh);
    const { changes } = await exportRevision(revision, tree);
    expect(dec(changes.get('fresh.md'))).toBe('# Fresh\n\n* a\n* b\n\nSome _text_.\n');
  });

  it('a BOM/CRLF page whose markdown lost its BOM (text decoded elsewhere) is not rewritten; an edit keeps BOM and CRLF', async () => {
    const text = '\uFEFF# Title\r\n\r\nOne.\r\n\r\nTwo.\r\n';
    const tree = treeFromFiles({ 'SUMMARY.md': '# Table of contents\n\n* [T](README.md)\n', 'README.md': text });
    const { revision } = await importTree(tree);
    const page = doc(revision, 'README.md');
    page.markdown = page.markdown!.replace(/^\uFEFF/, '');
    expect((await exportRevision(revision, tree)).changes.size).toBe(0);
    page.markdown = page.markdown.replace('Two.', 'Two, edited.');
    const { changes } = await exportRevision(revision, tree);
    expect(dec(changes.get('README.md'))).toBe('\uFEFF# Title\r\n\r\nOne.\r\n\r\nTwo, edited.\r\n');
  });

  const CORPUS_REPOS = ['NSO-developer+nso-gitbook', 'FlowiseAI+FlowiseDocs', 'wandb+gitbook'].filter((n) => existsSync(`${CORPUS}/${n}`));
  it.skipIf(CORPUS_REPOS.length === 0)(
    'on corpus pages (hand-written and 2021-era), changing one paragraph changes only its lines in the exported file',
    async () => {
      let checked = 0;
      for (const name of CORPUS_REPOS) {
        const repo = await loadRepo(name);
        // The repository's import of this run (computed by the first file that needs it, see importedRepo).
        const { revision } = await importedRepo(repo);
        const base = structuredClone(revision);
        // hand-written pages first (not in the GitBook-written list), then the others
        const pages = [...documents(revision.pages)].filter((p) => p.markdown !== null && !p.markdown.includes('\r') && !p.markdown.startsWith('\uFEFF'));
        pages.sort((x, y) => Number(repo.written.includes(x.git!.path)) - Number(repo.written.includes(y.git!.path)));
        let inRepo = 0;
        for (const page of pages) {
          if (inRepo >= 5) break;
          const original = page.markdown!;
          const parsed = parsePageFile(original);
          const para = parsed.document.children.find(
            (b): b is Paragraph => b.type === 'paragraph' && b.position!.start.line === b.position!.end.line && b.children.length > 1,
          );
          if (!para) continue;
          const edited = structuredClone(base);
          const target = doc(edited, page.git!.path);
          target.markdown = original.slice(0, para.position!.start.offset!) + 'Edited by Folio: a *new* sentence.' + original.slice(para.position!.end.offset!);
          const { changes } = await exportRevision(edited, repo.tree, { base });
          expect([...changes.keys()], `${name}/${page.git!.path}`).toEqual([page.git!.path]);
          const out = dec(changes.get(page.git!.path))!;
          expect(changedLines(original, out), `${name}/${page.git!.path}`).toEqual([para.position!.start.line]);
          expect(out.split('\n')[para.position!.start.line - 1]).toBe('Edited by Folio: a _new_ sentence.');
          inRepo++;
          checked++;
        }
      }
      expect(checked).toBeGreaterThanOrEqual(10);
    },
    300_000,
  );
});
