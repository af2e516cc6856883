/**
 * The run's result: the translated model stored as a revision of the result space (keyed by the run, so a retry
 * stores nothing twice; the source's files and raw pages by their blobs) and made its primary revision.
 */
import { flattenPages, modelToRevisionInput, type LoadedRevision } from '../../revision/records.js';
import type { Store, TranslationRecord } from '../../store/index.js';

export async function writeResult(
  store: Store,
  t: TranslationRecord,
  run: number,
  loaded: LoadedRevision,
): Promise<{ resultSpaceId: string; resultRevisionId: string }> {
  const resultSpaceId = await resultSpace(store, t, run);
  const space = await store.spaces.get(resultSpaceId);
  const fileBytes = new Map<string, { hash: string }>();
  for (const [id, hash] of loaded.fileHashes) fileBytes.set(id, { hash });
  const rawPageBytes = new Map<string, { hash: string }>();
  for (const page of flattenPages(loaded.model.pages)) {
    if (page.kind === 'document' && page.markdown === null && page.git?.oid) {
      const hash = loaded.hashByGitOid.get(page.git.oid);
      if (hash) rawPageBytes.set(page.id, { hash });
    }
  }
  const { id: resultRevisionId } = await store.revisions.create(
    modelToRevisionInput(loaded.model, {
      spaceId: resultSpaceId,
      parents: space?.revisionId ? [space.revisionId] : [],
      type: 'translation',
      idempotencyKey: `translation/${t.id}/run/${run}`,
      fileBytes,
      rawPageBytes,
    }),
  );
  if (space?.revisionId !== resultRevisionId) {
    await store.spaces.setPrimaryRevision(resultSpaceId, resultRevisionId).catch(async (err: unknown) => {
      const now = await store.spaces.get(resultSpaceId);
      if (now?.revisionId !== resultRevisionId) throw err;
    });
  }
  return { resultSpaceId, resultRevisionId };
}

/** The result space: created on the first run (its id derived from the translation's, so a retry finds it). */
async function resultSpace(store: Store, t: TranslationRecord, run: number): Promise<string> {
  if (t.resultSpaceId) {
    const existing = await store.spaces.get(t.resultSpaceId);
    if (existing && existing.organizationId === t.organizationId) return existing.id;
  }
  // None yet, or the user deleted it: a new one (a deleted one is never written to).
  const id = t.resultSpaceId ? `${t.id}-r${run}` : `${t.id}-result`;
  let space = await store.spaces.get(id, { includeDeleted: true });
  if (!space) {
    const source = await store.spaces.get(t.sourceSpaceId, { includeDeleted: true });
    space = await store.spaces
      .create(t.organizationId, { id, title: `${source?.title ?? 'Untitled'} (${t.language})`, language: t.language })
      .catch(async (err: unknown) => {
        const now = await store.spaces.get(id, { includeDeleted: true });
        if (!now) throw err;
        return now;
      });
  }
  return await store.translations.setResultSpace(t.id, space.id, { replace: t.resultSpaceId !== null });
}
