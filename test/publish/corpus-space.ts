/** Helpers of the publishing tests (not a test file): a corpus repository imported as a space's primary revision. */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { importTree, memoryEntry, readWorkingTree, type RevisionModel, type SourceTree } from '../../src/format/index.js';
import { modelToRevisionInput } from '../../src/revision/records.js';
import { corpusDir } from '../../src/project-root.js';
import type { Store } from '../../src/store/index.js';

export interface ImportedSpace {
  tree: SourceTree;
  projectDirectory: string;
  revision: RevisionModel;
  revisionId: string;
}

/** The corpus repository `name` (read-only) as a source tree and its project directory. */
export async function corpusTree(name: string): Promise<{ tree: SourceTree; projectDirectory: string }> {
  const dir = join(corpusDir(), name);
  const source = readFileSync(join(corpusDir(), `${name}.source`), 'utf8');
  const root = /^root:\s*(.*)$/m.exec(source)?.[1]?.trim() ?? '.';
  const top = join(dir, '.gitbook.yaml');
  const projectDirectory = existsSync(top) && /^\s*root:/m.test(readFileSync(top, 'utf8')) ? '' : root === '.' ? '' : root;
  return { tree: await readWorkingTree(dir), projectDirectory };
}

/** Imports `tree` into the space as its new primary revision (ids kept from `previous`, as a git import does). */
export async function importIntoSpace(
  store: Store,
  spaceId: string,
  tree: SourceTree,
  projectDirectory: string,
  previous?: ImportedSpace,
): Promise<ImportedSpace> {
  const imported = await importTree(tree, { projectDirectory, ...(previous ? { previous: { revision: previous.revision, tree: previous.tree } } : {}) });
  const fileBytes = new Map<string, Uint8Array>();
  for (const f of imported.revision.files) {
    const entry = f.git ? tree.get(f.git.path) : undefined;
    if (entry) fileBytes.set(f.id, await entry.read());
  }
  const space = await store.spaces.get(spaceId);
  const { id } = await store.revisions.create(
    modelToRevisionInput(imported.revision, { spaceId, parents: space?.revisionId ? [space.revisionId] : [], type: 'git-import', fileBytes }),
  );
  await store.spaces.setPrimaryRevision(spaceId, id);
  return { tree, projectDirectory, revision: imported.revision, revisionId: id };
}

/** A copy of the tree with one file's text replaced. */
export function withFile(tree: SourceTree, path: string, text: string): SourceTree {
  const copy: SourceTree = new Map(tree);
  copy.set(path, memoryEntry(new TextEncoder().encode(text)));
  return copy;
}
