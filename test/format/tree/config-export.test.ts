import { describe, expect, it } from 'vitest';
import { exportRevision, importTree, treeFromFiles } from '../../../src/format/index.js';

const decoder = new TextDecoder();
const CONFIG = 'root: ./docs/\n\nstructure:\n  readme: intro.md   # first page\n\nredirects:\n  old/page: guide.md\n';
const files = {
  '.gitbook.yaml': CONFIG,
  'docs/intro.md': '# Intro\n\nWelcome.\n',
  'docs/guide.md': '# Guide\n\nSteps.\n',
  'docs/SUMMARY.md': '# Table of contents\n\n* [Intro](intro.md)\n* [Guide](guide.md)\n',
  'src/app.ts': 'export {};\n',
};

describe('.gitbook.yaml on export', () => {
  it('is written with its imported bytes into a tree that holds nothing of the space (a new repository)', async () => {
    const { revision } = await importTree(treeFromFiles(files));
    expect(revision.config).toMatchObject({ configPath: '.gitbook.yaml', root: 'docs', readme: 'docs/intro.md', configText: CONFIG });
    const { changes } = await exportRevision(revision, new Map());
    expect(decoder.decode(changes.get('.gitbook.yaml')!)).toBe(CONFIG);
    // The exported tree imports to the same space layout.
    const written = Object.fromEntries([...changes].filter(([, b]) => b !== null).map(([p, b]) => [p, b as Uint8Array]));
    const again = (await importTree(treeFromFiles(written))).revision;
    expect(again.config).toMatchObject({ root: 'docs', readme: 'docs/intro.md', redirects: [{ from: 'old/page', to: 'guide.md' }] });
    expect(again.pages.map((p) => p.title)).toEqual(revision.pages.map((p) => p.title));
  });

  it('is never written into the tree it came from, nor into one whose config was removed', async () => {
    const tree = treeFromFiles(files);
    const { revision } = await importTree(tree);
    expect((await exportRevision(revision, tree)).changes.has('.gitbook.yaml')).toBe(false);
    const withoutConfig = treeFromFiles(Object.fromEntries(Object.entries(files).filter(([p]) => p !== '.gitbook.yaml')));
    expect((await exportRevision(revision, withoutConfig)).changes.has('.gitbook.yaml')).toBe(false);
  });

  it('is not kept when it is not valid UTF-8 (the bytes could not be written back the same)', async () => {
    const bad = new Uint8Array([...new TextEncoder().encode('root: ./docs/\n# '), 0xff, 0x0a]);
    const { revision } = await importTree(treeFromFiles({ ...files, '.gitbook.yaml': bad }));
    expect(revision.config.configPath).toBe('.gitbook.yaml');
    expect(revision.config.configText).toBeUndefined();
    expect((await exportRevision(revision, new Map())).changes.has('.gitbook.yaml')).toBe(false);
  });
});
