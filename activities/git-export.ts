/**
 * The export activity: fetch the remote branch (nothing when the cache holds the head receive-pack advertises), compute what Folio changed since the last synced commit
 * (the converter writes only changed paths), refuse to overwrite files the remote also changed (CONFLICT,
 * unless `force`), build the new tree on top of the remote head, commit with Folio's trailers and push
 * without force (creating the branch when missing). A branch that moves during the push fails the attempt
 * with the retryable NON_FAST_FORWARD: the retry fetches again and re-checks conflicts, so no remote commit
 * is ever lost.
 */
import { performance } from 'node:perf_hooks';
import { ApplicationFailure } from '@temporalio/activity';
import {
  AdvertisementMemo,
  commit as writeCommit,
  diffTrees,
  fetchRef,
  getTrailer,
  hasObject,
  push,
  readBlob,
  readCommit,
  readTree,
  remoteRefCommit,
  writeTree,
  GitCancelledError,
  GitRefNotFoundError,
  type SourceTree,
} from '../src/git/index.js';
import { documents, exportRevision, gitBlobOid, importTree, resolveSpaceConfig, type ExportResult, type RevisionModel } from '../src/format/index.js';
import { conflictingPaths } from '../src/gitsync/conflicts.js';
import { exportedPathsAt, exportedPathsOfBase, writtenPaths, type ExportedPaths } from '../src/gitsync/exported-paths.js';
import { describeWarnings, reportWarnings } from '../src/gitsync/warnings.js';
import { gitFailure, toFailure } from './git-failures.js';
import { loadRevisionModel } from '../src/gitsync/revision-records.js';
import { settled } from '../src/gitsync/settled.js';
import { FOLIO_REQUEST_TRAILER, FOLIO_REVISION_TRAILER, folioTrailers } from '../src/gitsync/trailers.js';
import { gitSignals, type GitOperationResult, type GitProgress, type GitSyncRequest } from '../src/temporal/contract/index.js';
import { progressReporter } from './progress.js';
import { credentialsOf, type GitSyncContext } from '../src/gitsync/context.js';

export function createGitExportActivity(ctx: GitSyncContext) {
  const { store, config } = ctx;
  return async function gitExportActivity(request: GitSyncRequest): Promise<GitOperationResult> {
    const progress = progressReporter<GitProgress>('fetching', { signal: gitSignals.progress, cancelled: (operation) => new GitCancelledError(operation) });
    const timingsMs: Record<string, number> = {};
    let mark = performance.now();
    const lap = (phase: string) => {
      const now = performance.now();
      timingsMs[phase] = Math.round((timingsMs[phase] ?? 0) + now - mark);
      mark = now;
    };
    let secrets: string[] = [];
    try {
      // The credentials, the space and its git state are read at the same time (their failures in this order).
      const [credsRead, spaceRead, syncRead] = await Promise.allSettled([
        credentialsOf(ctx, request),
        store.spaces.get(request.spaceId),
        store.gitSync.get(request.spaceId),
      ]);
      const creds = settled(credsRead);
      if (creds) secrets = [creds.password];
      const space = settled(spaceRead);
      if (!space) throw ApplicationFailure.create({ type: 'NOT_FOUND', message: `space not found: ${request.spaceId}`, nonRetryable: true });
      const revisionId = space.revisionId;
      if (!revisionId) throw ApplicationFailure.create({ type: 'NOT_FOUND', message: 'the space has no content to export', nonRetryable: true });
      const sync = settled(syncRead);
      // The branch's head as the push will see it: receive-pack's ref advertisement, asked while the revision is read
      // and the cache opened, and kept for the push (advertisement-memo.ts). When the cache already holds that commit,
      // nothing is fetched. Any failure here (no push access, …) only means the fetch below runs as before.
      const advertisements = new AdvertisementMemo();
      const pushHeadAsked = remoteRefCommit({
        advertisements,
        forPush: true,
        policy: ctx.fetchPolicy,
        url: request.url,
        ref: request.ref,
        ...(creds ? { auth: creds } : {}),
        ...(progress.signal ? { signal: progress.signal } : {}),
      }).catch(() => undefined);
      const revision = await store.revisions.get(revisionId);
      const cache = await ctx.openSpaceCache(space, request);

      // The commit of this repository the space was last in sync with, and the revision it corresponds to.
      type Mark = { timestamp: string; commit: string; revisionId?: string; url?: string };
      const marks = [sync.lastImport, sync.lastExport].filter((m): m is Mark => !!m && (m as Mark).url === request.url && !!m.commit);
      marks.sort((a, b) => Date.parse(b.timestamp) - Date.parse(a.timestamp));
      let synced: string | undefined;
      let syncedRevisionId: string | undefined;
      if (sync.lastExport?.revisionId === revisionId && (sync.lastExport as Mark).url === request.url) {
        synced = sync.lastExport.commit;
        syncedRevisionId = revisionId;
      } else if (revision?.git?.oid && revision.git.url === request.url) {
        synced = revision.git.oid;
        syncedRevisionId = revisionId;
      } else if (marks[0]) {
        synced = marks[0].commit;
        syncedRevisionId = marks[0].revisionId;
      }

      let remoteHead: string | null = null;
      let syncedFound = false;
      const fetchHead = async (ref: string) => {
        const fetched = await fetchRef({
          policy: ctx.fetchPolicy,
          cache,
          url: request.url,
          ref,
          ...(creds ? { auth: creds } : {}),
          ...(synced ? { baseCommit: synced } : {}),
          onProgress: (p) => progress.update({ phase: p.phase, loaded: p.loaded, total: p.total }),
          ...(progress.signal ? { signal: progress.signal } : {}),
        });
        // fetchRef deepened the (possibly shallow or evicted) cache until it holds the synced commit, or the whole
        // remote history is there without it (the branch was rewritten).
        syncedFound = synced !== undefined && (fetched.baseCommitFound ?? (await hasObject(cache, synced)));
        return fetched.commit;
      };
      // The commit the new commit goes on: the branch's head, or, for a branch that does not exist yet, the head of
      // the repository's default branch (the remote HEAD), so that the new branch keeps every other file of the
      // repository and only the space's files change. Only an empty repository gives a commit without parent.
      let baseHead: string | null = null;
      const pushHead = await pushHeadAsked;
      if (pushHead !== undefined && (await hasObject(cache, pushHead)) && (synced === undefined || (await hasObject(cache, synced)))) {
        // The cache holds the branch's head (and the synced commit): what a fetch would bring is there already.
        remoteHead = pushHead;
        baseHead = pushHead;
        syncedFound = synced !== undefined;
      } else {
        try {
          remoteHead = await fetchHead(request.ref);
          baseHead = remoteHead;
        } catch (err) {
          if (!(err instanceof GitRefNotFoundError)) throw err;
          try {
            baseHead = await fetchHead('HEAD');
          } catch (headErr) {
            if (!(headErr instanceof GitRefNotFoundError)) throw headErr;
          }
        }
      }
      lap('fetch');
      /** Records the export of `commitOid`, with the paths it wrote for pages whose records do not hold them. */
      const markExported = async (commitOid: string, exportedPaths?: ExportedPaths) => {
        await store.gitSync.update(request.spaceId, {
          lastExport: {
            timestamp: request.timestamp,
            commit: commitOid,
            requestId: request.requestId,
            revisionId,
            url: request.url,
            ...(exportedPaths && Object.keys(exportedPaths).length > 0 ? { exportedPaths } : {}),
          },
        });
      };

      /** Whether the cache holds `commit` of the branch's history, deepened for it when needed. */
      const holds = async (commit: string): Promise<boolean> => {
        if (await hasObject(cache, commit)) return true;
        const fetched = await fetchRef({
          policy: ctx.fetchPolicy,
          cache,
          url: request.url,
          ref: request.ref,
          ...(creds ? { auth: creds } : {}),
          baseCommit: commit,
          ...(progress.signal ? { signal: progress.signal } : {}),
        });
        return fetched.baseCommitFound ?? (await hasObject(cache, commit));
      };

      // An export of this revision the space's state does not record: an attempt pushed it and was lost before recording
      // it (this request, retried, or an earlier one). It is built again from its parent below, only to record the paths
      // it wrote: the next export finds the files of its new and moved pages by them.
      let unrecorded: { commit: string; tree: string; byThisRequest: boolean } | undefined;
      if (remoteHead) {
        const head = await readCommit(cache, remoteHead);
        const byThisRequest = getTrailer(head.message, FOLIO_REQUEST_TRAILER) === request.requestId;
        const ofThisRevision = getTrailer(head.message, FOLIO_REVISION_TRAILER) === revisionId;
        const recorded = sync.lastExport?.commit === remoteHead && sync.lastExport.url === request.url;
        const parent = head.parents[0] ?? null;
        if ((byThisRequest || ofThisRevision) && !recorded && (parent === null || (await holds(parent)))) {
          unrecorded = { commit: remoteHead, tree: head.tree, byThisRequest };
          baseHead = parent;
        } else if (byThisRequest) {
          // A retry after a push that went through: the remote head is this very export.
          await markExported(remoteHead, exportedPathsAt(sync, request.url, remoteHead));
          return {
            requestId: request.requestId,
            direction: 'export',
            outcome: 'applied',
            commit: remoteHead,
            revisionId,
            detail: `pushed ${remoteHead.slice(0, 12)}`,
          };
        } else if ((synced === remoteHead && syncedRevisionId === revisionId) || ofThisRevision) {
          // Loop protection: this very revision came from (or was exported as) the remote head. (A revision edited
          // in Folio since the last sync has a different id: it is exported.)
          await markExported(remoteHead, exportedPathsAt(sync, request.url, remoteHead));
          return {
            requestId: request.requestId,
            direction: 'export',
            outcome: 'noop',
            commit: remoteHead,
            revisionId,
            detail: `the branch already holds this revision (${remoteHead.slice(0, 12)})`,
          };
        }
      }

      progress.update({ phase: 'building tree' });
      // The revision (from the store) and the base branch's tree (from the cache) are read at the same time; of the page
      // bodies only those that are not exactly their git blob (edited, new pages): the others are read from git if
      // the export must write them.
      // So are the records of the revision the synced commit corresponds to, when it is another one: export reads only
      // its pages' and files' git paths (what it may delete), not its page bodies.
      const baseRevisionId = baseHead && synced && syncedFound && syncedRevisionId && syncedRevisionId !== revisionId ? syncedRevisionId : undefined;
      const [loaded, remoteTree, loadedBase] = await Promise.all([
        loadRevisionModel(store, revisionId, { bodies: 'edited' }),
        baseHead ? readTree(cache, baseHead, { maxFileBytes: config.gitMaxFileBytes }) : Promise.resolve<SourceTree>(new Map()),
        // Usually the space's last imported revision: in the worker's memory (previous-revisions.ts).
        baseRevisionId ? ctx.previousRevisions.load({ organizationId: space.organizationId, spaceId: space.id }, baseRevisionId) : Promise.resolve(null),
      ]);
      lap('load');
      let model: RevisionModel = loaded?.model ?? (await importTree(new Map(), { projectDirectory: request.projectDirectory })).revision;
      const readBlobBytes = async (oid: string): Promise<Uint8Array> => {
        if (await hasObject(cache, oid)) return readBlob(cache, oid, { maxFileBytes: config.gitMaxFileBytes });
        const hash = loaded?.hashByGitOid.get(oid);
        const bytes = hash ? await store.blobs.get(hash) : null;
        if (!bytes) throw gitFailure('BLOB_UNAVAILABLE', `no bytes stored for blob ${oid}`, { nonRetryable: true });
        return bytes;
      };
      // A space none of whose content came from a repository takes the target's layout: the `.gitbook.yaml` of the
      // request's project directory (root, structure), so its files land where the repository keeps its docs.
      const fromGit =
        model.config.configPath !== null || !!model.summary.git || model.files.some((f) => f.git) || [...documents(model.pages)].some((p) => p.git);
      if (!fromGit) {
        const codec = ctx.pageCodec();
        const { config: targetConfig } = await resolveSpaceConfig(remoteTree, request.projectDirectory, (text, path) => codec.parseConfig(text, path));
        model = { ...model, config: targetConfig };
      }
      lap('tree');

      let built: ExportResult;
      let conflicts: string[] = [];
      if (remoteHead && synced && !syncedFound && !request.force && !unrecorded) {
        // Without the synced commit there is no telling what the remote changed since: never overwrite blindly.
        throw ApplicationFailure.create({
          type: 'SYNC_BASE_UNAVAILABLE',
          message: `the last synced commit ${synced.slice(0, 12)} is not in the history of ${request.ref} (the branch was rewritten?): cannot check the remote's changes for conflicts; import first, or export with force`,
          details: [{ synced }],
          nonRetryable: true,
        });
      }
      if (baseHead && synced && syncedFound) {
        // What Folio changed since the synced commit, checked against what the remote changed since.
        // Usually the remote did not move since: the same tree, read once.
        const syncedTree = synced === baseHead ? remoteTree : await readTree(cache, synced, { maxFileBytes: config.gitMaxFileBytes });
        // The model that corresponds to the synced tree (unchanged pages keep their bytes); none when unknown.
        const baseModel = syncedRevisionId === revisionId ? loaded?.model : loadedBase?.model;
        // The files the export of the synced commit wrote for pages whose records do not say so.
        const exportedPaths = exportedPathsOfBase(sync, request.url, synced);
        built = await exportRevision(model, syncedTree, {
          readBlob: readBlobBytes,
          codec: ctx.pageCodec(),
          ...(loaded ? { markdownInSource: loaded.markdownInSource } : {}),
          ...(baseModel ? { base: baseModel } : {}),
          ...(exportedPaths ? { exportedPaths } : {}),
        });
        const diff = unrecorded ? null : await diffTrees(cache, synced, baseHead);
        const remoteChanged = new Set(diff ? [...diff.added, ...diff.modified, ...diff.deleted] : []);
        conflicts = conflictingPaths(built.changes, remoteChanged, (p) => remoteTree.get(p)?.oid, gitBlobOid);
        if (conflicts.length > 0 && !request.force) {
          throw ApplicationFailure.create({
            type: 'CONFLICT',
            message: `the remote branch changed ${conflicts.length} file(s) that this export also changes: ${conflicts.slice(0, 20).join(', ')}${conflicts.length > 20 ? ', …' : ''}`,
            details: [{ files: conflicts.slice(0, 200) }],
            nonRetryable: true,
          });
        }
      } else {
        // A target without the table of contents gets one, even when the TOC itself did not change.
        const forTarget = remoteTree.has(model.config.summary) || !model.summary.present ? model : { ...model, summary: { ...model.summary, fingerprint: '' } };
        built = await exportRevision(forTarget, remoteTree, {
          readBlob: readBlobBytes,
          codec: ctx.pageCodec(),
          ...(loaded ? { markdownInSource: loaded.markdownInSource } : {}),
        });
      }
      const { changes, warnings } = built;
      const exportedPaths = writtenPaths(model, built.revision);
      lap('build');
      if (unrecorded) {
        // The paths are this build's when it gives the pushed tree; otherwise they are not known.
        const same = (await writeTree(cache, baseHead, changes)) === unrecorded.tree;
        await markExported(unrecorded.commit, same ? exportedPaths : undefined);
        return {
          requestId: request.requestId,
          direction: 'export',
          outcome: unrecorded.byThisRequest ? 'applied' : 'noop',
          commit: unrecorded.commit,
          revisionId,
          detail: unrecorded.byThisRequest
            ? `pushed ${unrecorded.commit.slice(0, 12)}`
            : `the branch already holds this revision (${unrecorded.commit.slice(0, 12)})`,
        };
      }
      progress.update({ phase: 'writing', blobsWritten: [...changes.values()].filter((v) => v !== null).length });
      // Whether the export was cancelled: asked of the server now (heartbeat answers are throttled), answered while
      // the objects are written; awaited before the push, the point of no return.
      const notCancelled = progress.assertNotCancelled('export');
      notCancelled.catch(() => undefined);

      const tree = await writeTree(cache, baseHead, changes);
      if (remoteHead && tree === (await readCommit(cache, remoteHead)).tree) {
        await markExported(remoteHead, exportedPaths);
        return { requestId: request.requestId, direction: 'export', outcome: 'noop', commit: remoteHead, revisionId, detail: 'no change to export' };
      }
      // A new branch whose content the default branch already holds starts at the default branch's head (no empty
      // commit); anything else is a new commit on the base.
      const unchangedBase = !remoteHead && baseHead !== null && tree === (await readCommit(cache, baseHead)).tree;
      const newCommit = unchangedBase
        ? baseHead!
        : await writeCommit(cache, {
            tree,
            parents: baseHead ? [baseHead] : [],
            message: request.commitMessage ?? 'Folio export',
            author: config.gitAuthor,
            trailers: folioTrailers(request.spaceId, revisionId, request.requestId),
          });
      lap('write');
      progress.update({ phase: 'pushing' });
      await notCancelled;
      await push({
        policy: ctx.fetchPolicy,
        advertisements,
        cache,
        url: request.url,
        ref: request.ref,
        commit: newCommit,
        ...(creds ? { auth: creds } : {}),
        ...(progress.signal ? { signal: progress.signal } : {}),
      });
      await markExported(newCommit, exportedPaths);
      lap('push');
      const serious = warnings.filter((w) => w.severity === 'error');
      for (const w of serious) ctx.logger.warn({ spaceId: request.spaceId, requestId: request.requestId, code: w.code, path: w.path, data: w.data }, w.message);
      const exportWarnings = warnings.length ? reportWarnings(warnings) : undefined;
      return {
        requestId: request.requestId,
        direction: 'export',
        outcome: 'applied',
        commit: newCommit,
        revisionId,
        filesChanged: changes.size,
        timingsMs,
        // The final progress, for the workflow's query: returned, not signalled (activities/progress.ts).
        progress: { ...progress.current },
        detail: `pushed ${newCommit.slice(0, 12)} (${changes.size} changed path(s)${conflicts.length ? `, ${conflicts.length} conflict(s) overwritten by force` : ''})${exportWarnings ? `; ${describeWarnings(exportWarnings)}` : ''}`,
        ...(exportWarnings ? { warnings: exportWarnings } : {}),
      };
    } catch (err) {
      throw toFailure(err, secrets);
    } finally {
      progress.close();
    }
  };
}
