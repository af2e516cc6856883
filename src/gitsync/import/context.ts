/**
 * What the import phases share (src/gitsync/import/run.ts): the run, what its first phase read, and what each later
 * phase adds for the next ones — the fetched commit, its tree, the converted revision. Each stage's context extends
 * the one before, so a phase can only read what earlier phases gave.
 */
import type { ImportResult } from '../../format/index.js';
import { AdvertisementMemo, remoteRefCommit, type CommitInfo, type RepoCache, type SourceTree } from '../../git/index.js';
import type { CachedPageCodec } from '../../parse-cache/index.js';
import type { RevisionRecord } from '../../store/index.js';
import type { GitOperationResult, GitWarningReport } from '../../temporal/contract/index.js';
import type { LoadedRevision } from '../../revision/records.js';
import { GitSyncError } from '../errors.js';
import { readSpaceState, type GitRun, type SpaceState } from '../run.js';

export interface ImportContext extends GitRun, SpaceState {
  readonly scope: { organizationId: string; spaceId: string };
  /** receive-pack's advertisement, asked once: the remote ref's answer and the fetch's first one. */
  readonly advertisements: AdvertisementMemo;
  /** The remote ref's commit (or why it could not be asked), asked while the primary revision is read. */
  readonly remoteRef: Promise<{ commit: string | undefined } | { error: unknown }> | undefined;
  /** The space's primary revision when the import started. */
  readonly primary: RevisionRecord | null;
  /** The key the stored revision carries: a retry of the same request finds it. */
  readonly idempotencyKey: string;
}

/** Once the commit is fetched. */
export interface FetchedImport extends ImportContext {
  readonly cache: RepoCache;
  readonly head: string;
  readonly info: CommitInfo;
  /** The revision Folio exported as this commit, when it did (its trailer). */
  readonly trailerRevision: string | undefined;
}

/** Once the commit's tree is read. */
export interface TreeImport extends FetchedImport {
  readonly tree: SourceTree;
  /** The tree whose reads are counted (progress `filesRead`). */
  readonly counted: SourceTree;
  readonly reads: { filesRead: number };
  /** The previous revision's records without their page bodies, when there is one. */
  readonly previous: LoadedRevision | null;
}

/** Once the tree is converted. */
export interface ParsedImport extends TreeImport {
  readonly codec: CachedPageCodec;
  readonly imported: ImportResult;
  /** The parse cache's writes of the pages parsed (they never fail the import). */
  readonly parseCacheWritten: Promise<void>;
}

/**
 * The first phase: the space and its git state; a space with content may already hold the remote's commit: its ref
 * is asked for (one request) while the primary revision is read, and used only when the space holds a commit from
 * this URL. The advertisement it gets is the fetch's first answer too (one round trip less: advertisement-memo.ts).
 */
export async function startImport(run: GitRun): Promise<ImportContext> {
  const { ctx, request, progress } = run;
  const state = await readSpaceState(run, (space) => {
    if (!request.standalone && space.editMode === 'locked') throw new GitSyncError('LOCKED', `space ${space.id} is locked (editMode: locked)`);
  });
  const { creds, space } = state;
  const scope = { organizationId: space.organizationId, spaceId: space.id };
  const advertisements = new AdvertisementMemo();
  const remoteRef = space.revisionId
    ? remoteRefCommit({
        advertisements,
        policy: ctx.fetchPolicy,
        url: request.url,
        ref: request.ref,
        ...(creds ? { auth: creds } : {}),
        ...(progress.signal ? { signal: progress.signal } : {}),
      }).then(
        (commit) => ({ commit }),
        (error: unknown) => ({ error }),
      )
    : undefined;
  const primary = space.revisionId ? await ctx.store.revisions.get(space.revisionId) : null;
  run.timings.lap('read');
  return { ...run, ...state, scope, advertisements, remoteRef, primary, idempotencyKey: `git-import/${request.requestId}` };
}

/** Records this request as the space's last import of `commit`. */
export async function recordImport(run: ImportContext, commit: string, revisionId: string | undefined, warnings?: GitWarningReport): Promise<void> {
  const { ctx, request } = run;
  await ctx.store.gitSync.update(request.spaceId, {
    lastImport: {
      timestamp: request.timestamp,
      commit,
      requestId: request.requestId,
      ...(revisionId ? { revisionId } : {}),
      ...(warnings ? { warnings } : {}),
      url: request.url,
    },
  });
}

/** The answer of an import the space already holds. */
export function noop(run: ImportContext, commit: string): GitOperationResult {
  return {
    requestId: run.request.requestId,
    direction: 'import',
    outcome: 'noop',
    commit,
    detail: `the space already holds commit ${commit.slice(0, 12)}`,
  };
}
