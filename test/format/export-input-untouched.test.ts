/**
 * The export writes to a copy of its input revision that shares the input's strings and objects
 * (`revisionCopy`, src/format/export/context.ts): it must never change what it shares. Revisions with every kind of
 * change (edited, new, moved, deleted pages, a removed asset, a new title) are exported deep-frozen (a change in place
 * would throw) and compared with the export of a deep copy.
 */
import { describe, expect, it } from 'vitest';
import { documents, exportRevision, importTree, treeFromFiles, type DocumentPage, type RevisionModel, type SourceTree } from '../../src/format/index.js';
import { loadRepo } from './tree/corpus.js';

function deepFreeze<T>(value: T, seen = new Set<object>()): T {
  if (value === null || typeof value !== 'object' || seen.has(value as object) || ArrayBuffer.isView(value)) return value;
  seen.add(value as object);
  for (const v of Object.values(value as object)) deepFreeze(v, seen);
  return Object.freeze(value);
}

const png = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);

/** Edits of every kind on a fresh import: the export then has pages to write, move, create and delete. */
function edit(revision: RevisionModel): void {
  const docs = [...documents(revision.pages)].filter((d) => d.markdown !== null);
  const [first, second, third] = docs;
  first!.markdown = `${first!.markdown}\nAn edited paragraph with a [link](${second!.git?.path ?? 'x.md'}).\n`;
  second!.title = `${second!.title} (renamed)`;
  // A new page at the end, and the third page moved under the first one.
  const fresh: DocumentPage = {
    ...structuredClone(third!),
    id: 'newpage0000000000001',
    title: 'A new page',
    slug: 'a-new-page',
    path: 'a-new-page',
    markdown: '# A new page\n\nWritten in the space.\n',
    children: [],
  };
  delete fresh.git;
  revision.pages.push(fresh);
  const removeFrom = (pages: typeof revision.pages): boolean => {
    const i = pages.indexOf(third!);
    if (i >= 0) {
      pages.splice(i, 1);
      return true;
    }
    return pages.some((p) => removeFrom(p.children));
  };
  if (removeFrom(revision.pages)) first!.children.push(third!);
  // The last document page deleted.
  const last = docs[docs.length - 1]!;
  if (last !== first && last !== second && last !== third) {
    const drop = (pages: typeof revision.pages): boolean => {
      const i = pages.indexOf(last);
      if (i >= 0) {
        pages.splice(i, 1);
        return true;
      }
      return pages.some((p) => drop(p.children));
    };
    drop(revision.pages);
  }
}

async function check(tree: SourceTree, projectDirectory = ''): Promise<void> {
  const { revision: base } = await importTree(tree, { projectDirectory });
  const edited = structuredClone(base);
  edit(edited);
  const copy = await exportRevision(structuredClone(edited), tree, { base: structuredClone(base) });
  const before = structuredClone(edited);
  const frozen = await exportRevision(deepFreeze(edited), tree, { base: deepFreeze(base) });
  expect(edited).toEqual(before);
  expect([...frozen.changes.keys()].sort()).toEqual([...copy.changes.keys()].sort());
  for (const [p, bytes] of copy.changes) expect(frozen.changes.get(p), p).toEqual(bytes);
  expect(frozen.revision).toEqual(copy.revision);
  expect(frozen.changes.size).toBeGreaterThan(2);
}

describe('export leaves its input revision as it was', () => {
  it('a small space with an asset', async () => {
    await check(
      treeFromFiles({
        'SUMMARY.md': '# Table of contents\n\n* [A](a.md)\n* [B](b.md)\n* [C](c.md)\n* [D](d.md)\n',
        'a.md': '# A\n\n![diagram](.gitbook/assets/diagram.png)\n',
        'b.md': '---\ndescription: B\n---\n\n# B\n\nAll about B.\n',
        'c.md': '# C\n\nSee [A](a.md).\n',
        'd.md': '# D\n',
        '.gitbook/assets/diagram.png': png,
      }),
    );
  });

  it.each(['GitbookIO+public-docs', 'FlowiseAI+FlowiseDocs'])(
    'corpus %s',
    async (name) => {
      const repo = await loadRepo(name);
      await check(repo.tree, repo.projectDirectory);
    },
    120_000,
  );
});
