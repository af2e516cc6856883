import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { importTree, treeFromFiles } from '../../src/format/index.js';
import { flattenPages, loadRevisionModel, modelToRevisionInput } from '../../src/revision/records.js';
import type { Store } from '../../src/store/index.js';
import { createTestStore } from '../helpers/store.js';

describe('revision records', () => {
  let store: Store;
  beforeAll(async () => {
    store = await createTestStore();
  });
  afterAll(async () => {
    await store.close();
  });

  it('stores and loads page markdown exactly, a leading BOM and CRLF line endings included', async () => {
    const bom = '\uFEFF# Welcome\r\n\r\nHello.\r\n';
    const tree = treeFromFiles({
      'README.md': bom,
      'SUMMARY.md': '# Table of contents\n\n* [Welcome](README.md)\n* [Plain](plain.md)\n',
      'plain.md': '# Plain\n\nText.\n',
    });
    const { revision } = await importTree(tree);
    await store.orgs.ensure({ id: 'acme', title: 'Acme' });
    const space = await store.spaces.create('acme', { title: 'Docs' });
    const { id } = await store.revisions.create(modelToRevisionInput(revision, { spaceId: space.id, parents: [], type: 'edits', fileBytes: new Map() }));
    const loaded = (await loadRevisionModel(store, id))!;
    const markdownByTitle = (pages: typeof revision.pages) =>
      new Map(flattenPages(pages).flatMap((p) => (p.kind === 'document' ? [[p.title, p.markdown] as const] : [])));
    const stored = markdownByTitle(loaded.model.pages);
    expect(stored.get('Welcome')).toBe(bom);
    expect(stored).toEqual(markdownByTitle(revision.pages));
  });
});
