import { exportRevision, gitBlobOid, type ExportResult } from '../../format/index.js';
import { diffTrees, readTree } from '../../git/index.js';
import { conflictingPaths } from '../conflicts.js';
import { GitSyncError } from '../errors.js';
import { exportedPathsOfBase, writtenPaths } from '../exported-paths.js';
import type { BuiltExport, LoadedExport } from './context.js';

/**
 * The changed files: what Folio changed since the synced commit (the converter writes only changed paths), checked
 * against what the remote changed since — a file both changed is a CONFLICT, unless `force`. Without the synced
 * commit in the branch's history there is no telling what the remote changed: refused (SYNC_BASE_UNAVAILABLE).
 */
export async function buildChanges(run: LoadedExport): Promise<BuiltExport> {
  // Heartbeats go on while pages are written (a page may take the whole per-page budget).
  const stopKeepAlive = run.progress.keepAlive();
  try {
    return await build(run);
  } finally {
    stopKeepAlive();
  }
}

async function build(run: LoadedExport): Promise<BuiltExport> {
  const { ctx, request, cache, remoteHead, baseHead, synced, syncedFound, unrecorded, model, remoteTree, loaded, readBlobBytes } = run;
  let built: ExportResult;
  let conflicts: string[] = [];
  if (remoteHead && synced && !syncedFound && !request.force && !unrecorded) {
    // Without the synced commit there is no telling what the remote changed since: never overwrite blindly.
    throw new GitSyncError(
      'SYNC_BASE_UNAVAILABLE',
      `the last synced commit ${synced.slice(0, 12)} is not in the history of ${request.ref} (the branch was rewritten?): cannot check the remote's changes for conflicts; import first, or export with force`,
      { details: [{ synced }] },
    );
  }
  if (baseHead && synced && syncedFound) {
    // What Folio changed since the synced commit, checked against what the remote changed since.
    // Usually the remote did not move since: the same tree, read once.
    const syncedTree = synced === baseHead ? remoteTree : await readTree(cache, synced, { maxFileBytes: ctx.config.gitMaxFileBytes });
    // The model that corresponds to the synced tree (unchanged pages keep their bytes); none when unknown.
    const baseModel = run.syncedRevisionId === run.revisionId ? loaded?.model : run.loadedBase?.model;
    // The files the export of the synced commit wrote for pages whose records do not say so.
    const exportedPaths = exportedPathsOfBase(run.sync, request.url, synced);
    built = await exportRevision(model, syncedTree, {
      readBlob: readBlobBytes,
      codec: ctx.pageCodec(run.parseTask),
      ...(loaded ? { markdownInSource: loaded.markdownInSource } : {}),
      ...(baseModel ? { base: baseModel } : {}),
      ...(exportedPaths ? { exportedPaths } : {}),
    });
    const diff = unrecorded ? null : await diffTrees(cache, synced, baseHead);
    const remoteChanged = new Set(diff ? [...diff.added, ...diff.modified, ...diff.deleted] : []);
    conflicts = conflictingPaths(built.changes, remoteChanged, (p) => remoteTree.get(p)?.oid, gitBlobOid);
    if (conflicts.length > 0 && !request.force) {
      throw new GitSyncError(
        'CONFLICT',
        `the remote branch changed ${conflicts.length} file(s) that this export also changes: ${conflicts.slice(0, 20).join(', ')}${conflicts.length > 20 ? ', …' : ''}`,
        { details: [{ files: conflicts.slice(0, 200) }] },
      );
    }
  } else {
    // A target without the table of contents gets one, even when the TOC itself did not change.
    const forTarget = remoteTree.has(model.config.summary) || !model.summary.present ? model : { ...model, summary: { ...model.summary, fingerprint: '' } };
    built = await exportRevision(forTarget, remoteTree, {
      readBlob: readBlobBytes,
      codec: ctx.pageCodec(run.parseTask),
      ...(loaded ? { markdownInSource: loaded.markdownInSource } : {}),
    });
  }
  const exportedPaths = writtenPaths(model, built.revision);
  run.timings.lap('build');
  return { ...run, built, conflicts, exportedPaths };
}
