import { documents, importTree, resolveSpaceConfig, type RevisionModel } from '../../format/index.js';
import { hasObject, readBlob, readTree, type SourceTree } from '../../git/index.js';
import { GitSyncError } from '../errors.js';
import { loadRevisionModel } from '../../revision/records.js';
import type { FetchedExport, LoadedExport } from './context.js';

/**
 * The revision (from the store) and the base branch's tree (from the cache), read at the same time; of the page
 * bodies only those that are not exactly their git blob (edited, new pages): the others are read from git if the
 * export must write them. So are the records of the revision the synced commit corresponds to, when it is another
 * one: export reads only its pages' and files' git paths (what it may delete), not its page bodies.
 */
export async function loadExport(run: FetchedExport): Promise<LoadedExport> {
  const { ctx, request, progress, cache, space, revisionId, baseHead, synced, syncedFound, syncedRevisionId, timings } = run;
  const { store, config } = ctx;
  progress.update({ phase: 'building tree' });
  const parseTask = ctx.parseTask(space.organizationId, 'git export', progress.signal);
  const baseRevisionId = baseHead && synced && syncedFound && syncedRevisionId && syncedRevisionId !== revisionId ? syncedRevisionId : undefined;
  const [loaded, remoteTree, loadedBase] = await Promise.all([
    loadRevisionModel(store, revisionId, { bodies: 'edited' }),
    baseHead ? readTree(cache, baseHead, { maxFileBytes: config.gitMaxFileBytes }) : Promise.resolve<SourceTree>(new Map()),
    // Usually the space's last imported revision: in the worker's memory (previous-revisions.ts).
    baseRevisionId ? ctx.previousRevisions.load({ organizationId: space.organizationId, spaceId: space.id }, baseRevisionId) : Promise.resolve(null),
  ]);
  timings.lap('load');
  let model: RevisionModel = loaded?.model ?? (await importTree(new Map(), { projectDirectory: request.projectDirectory })).revision;
  const readBlobBytes = async (oid: string): Promise<Uint8Array> => {
    if (await hasObject(cache, oid)) return readBlob(cache, oid, { maxFileBytes: config.gitMaxFileBytes });
    const hash = loaded?.hashByGitOid.get(oid);
    const bytes = hash ? await store.blobs.get(hash) : null;
    if (!bytes) throw new GitSyncError('BLOB_UNAVAILABLE', `no bytes stored for blob ${oid}`);
    return bytes;
  };
  // A space none of whose content came from a repository takes the target's layout: the `.gitbook.yaml` of the
  // request's project directory (root, structure), so its files land where the repository keeps its docs.
  const fromGit = model.config.configPath !== null || !!model.summary.git || model.files.some((f) => f.git) || [...documents(model.pages)].some((p) => p.git);
  if (!fromGit) {
    const codec = ctx.pageCodec(parseTask);
    const { config: targetConfig } = await resolveSpaceConfig(remoteTree, request.projectDirectory, (text, path) => codec.parseConfig(text, path));
    model = { ...model, config: targetConfig };
  }
  timings.lap('tree');
  return { ...run, loaded, remoteTree, loadedBase, model, readBlobBytes, parseTask };
}
