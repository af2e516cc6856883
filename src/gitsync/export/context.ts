/**
 * What the export phases share (src/gitsync/export/run.ts): the run, what its first phase read, and what each later
 * phase adds for the next ones — the branch's head and the commit the export goes on, the revision and the base tree,
 * the changed files. Each stage's context extends the one before, so a phase can only read what earlier phases gave.
 */
import type { ExportResult, RevisionModel } from '../../format/index.js';
import { AdvertisementMemo, remoteRefCommit, type RepoCache, type SourceTree } from '../../git/index.js';
import type { RevisionRecord } from '../../store/index.js';
import { GitSyncError } from '../errors.js';
import type { ExportedPaths } from '../exported-paths.js';
import type { ParseTaskOptions } from '../../parse-pool/pool.js';
import type { LoadedRevision } from '../../revision/records.js';
import { readSpaceState, type GitRun, type SpaceState } from '../run.js';
import { syncBase } from './sync-base.js';

export interface ExportContext extends GitRun, SpaceState {
  /** The space's primary revision: what is exported. */
  readonly revisionId: string;
  readonly revision: RevisionRecord | null;
  /** receive-pack's advertisement, asked once: the branch's head as the push will see it, kept for the push. */
  readonly advertisements: AdvertisementMemo;
  /** That head (undefined when it could not be asked). */
  readonly pushHeadAsked: Promise<string | undefined>;
  readonly cache: RepoCache;
  /** The commit of this repository the space was last in sync with, and the revision it corresponds to. */
  readonly synced: string | undefined;
  readonly syncedRevisionId: string | undefined;
}

/** An export of this revision the space's state does not record (`./remote-head.ts`). */
export interface Unrecorded {
  commit: string;
  tree: string;
  byThisRequest: boolean;
}

/** Once the branch is fetched. */
export interface FetchedExport extends ExportContext {
  /** The branch's head; null when the branch does not exist yet. */
  readonly remoteHead: string | null;
  /** The commit the new commit goes on (the head of the default branch for a new branch; null: none). */
  baseHead: string | null;
  /** Whether the cache holds the synced commit (in the branch's history). */
  readonly syncedFound: boolean;
  unrecorded?: Unrecorded;
}

/** Once the revision and the base tree are read. */
export interface LoadedExport extends FetchedExport {
  readonly loaded: LoadedRevision | null;
  /** The tree of `baseHead` (empty without one). */
  readonly remoteTree: SourceTree;
  /** The records of the revision the synced commit corresponds to, when it is another one. */
  readonly loadedBase: LoadedRevision | null;
  /** The revision to export (with the target's layout when none of it came from a repository). */
  readonly model: RevisionModel;
  readonly readBlobBytes: (oid: string) => Promise<Uint8Array>;
  /** The export's pages are written in the parse pool as its organization's work, within one parse budget. */
  readonly parseTask: ParseTaskOptions;
}

/** Once the changed files are built. */
export interface BuiltExport extends LoadedExport {
  readonly built: ExportResult;
  /** Files the remote changed too (overwritten only with `force`). */
  readonly conflicts: string[];
  /** The paths written for pages whose records do not hold them. */
  readonly exportedPaths: ExportedPaths;
}

/**
 * The first phase: the space (with content to export) and its git state. The branch's head as the push will see it,
 * receive-pack's ref advertisement, is asked while the revision is read and the cache opened, and kept for the push
 * (advertisement-memo.ts): when the cache already holds that commit, nothing is fetched. Any failure there (no push
 * access, …) only means the branch is fetched.
 */
export async function startExport(run: GitRun): Promise<ExportContext> {
  const { ctx, request, progress } = run;
  const state = await readSpaceState(run, (space) => {
    if (!space.revisionId) throw new GitSyncError('NOT_FOUND', 'the space has no content to export');
  });
  const { creds, space, sync } = state;
  const revisionId = space.revisionId!;
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
  const revision = await ctx.store.revisions.get(revisionId);
  const cache = await ctx.openSpaceCache(space, request);
  const { synced, syncedRevisionId } = syncBase(sync, revision, revisionId, request.url);
  return { ...run, ...state, revisionId, revision, advertisements, pushHeadAsked, cache, synced, syncedRevisionId };
}

/** Records the export of `commitOid`, with the paths it wrote for pages whose records do not hold them. */
export async function markExported(run: ExportContext, commitOid: string, exportedPaths?: ExportedPaths): Promise<void> {
  const { ctx, request } = run;
  await ctx.store.gitSync.update(request.spaceId, {
    lastExport: {
      timestamp: request.timestamp,
      commit: commitOid,
      requestId: request.requestId,
      revisionId: run.revisionId,
      url: request.url,
      ...(exportedPaths && Object.keys(exportedPaths).length > 0 ? { exportedPaths } : {}),
    },
  });
}
