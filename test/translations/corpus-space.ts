/** A space of the test store holding a corpus repository as its primary revision (imported in-process, not a test file). */
import { exportRevision, importTree, readWorkingTree, type RevisionModel } from '../../src/format/index.js';
import { loadRevisionModel, modelToRevisionInput } from '../../src/revision/records.js';
import type { Store } from '../../src/store/index.js';

export async function importCorpusSpace(store: Store, organizationId: string, dir: string, title: string): Promise<{ spaceId: string; revisionId: string }> {
  const tree = await readWorkingTree(dir);
  const imported = await importTree(tree);
  const fileBytes = new Map<string, Uint8Array>();
  for (const f of imported.revision.files) {
    const entry = f.git ? tree.get(f.git.path) : undefined;
    if (entry) fileBytes.set(f.id, await entry.read());
  }
  const space = await store.spaces.create(organizationId, { title, language: 'en' });
  const { id: revisionId } = await store.revisions.create(
    modelToRevisionInput(imported.revision, { spaceId: space.id, parents: [], type: 'git-import', fileBytes }),
  );
  await store.spaces.setPrimaryRevision(space.id, revisionId);
  return { spaceId: space.id, revisionId };
}

/** A new primary revision of the space with `edit` applied to its model (files and raw pages kept by hash). */
export async function editSpace(store: Store, spaceId: string, edit: (model: RevisionModel) => void): Promise<string> {
  const space = (await store.spaces.get(spaceId))!;
  const loaded = (await loadRevisionModel(store, space.revisionId!))!;
  edit(loaded.model);
  const fileBytes = new Map<string, { hash: string }>();
  for (const [id, hash] of loaded.fileHashes) fileBytes.set(id, { hash });
  const { id } = await store.revisions.create(modelToRevisionInput(loaded.model, { spaceId, parents: [space.revisionId!], type: 'edits', fileBytes }));
  await store.spaces.setPrimaryRevision(spaceId, id);
  return id;
}

/** The revision written out as a Git Sync tree (what an export to an empty repository writes): path → bytes. */
export async function exportedFiles(store: Store, revisionId: string): Promise<Map<string, Uint8Array>> {
  const loaded = (await loadRevisionModel(store, revisionId))!;
  const result = await exportRevision(loaded.model, new Map(), {
    readBlob: async (oid) => {
      const hash = loaded.hashByGitOid.get(oid);
      const bytes = hash ? await store.blobs.get(hash) : null;
      if (!bytes) throw new Error(`no blob for ${oid}`);
      return bytes;
    },
  });
  const out = new Map<string, Uint8Array>();
  for (const [p, bytes] of result.changes) if (bytes) out.set(p, bytes);
  return out;
}
