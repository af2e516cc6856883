/**
 * One git import or export: what its phases share from the start (src/gitsync/import/, src/gitsync/export/), and its
 * first phase, the same for both: the request's credentials, its space and the space's git state, read together.
 */
import type { GitSyncState, SpaceRecord } from '../store/index.js';
import type { GitSyncRequest } from '../temporal/contract/index.js';
import { credentialsOf, type GitSyncContext } from './context.js';
import type { GitOperationControl } from './control.js';
import { GitSyncError } from './errors.js';
import { settled } from './settled.js';
import { PhaseTimings } from './timings.js';

export interface GitRun {
  readonly ctx: GitSyncContext;
  readonly request: GitSyncRequest;
  /** Heartbeats, live progress and cancellation, from the runner (the activity). */
  readonly progress: GitOperationControl;
  readonly timings: PhaseTimings;
  /** What a failure's message must not show: the request's password, once read. */
  readonly secrets: string[];
}

export function createGitRun(ctx: GitSyncContext, request: GitSyncRequest, progress: GitOperationControl): GitRun {
  return { ctx, request, progress, timings: new PhaseTimings(), secrets: [] };
}

/** What the first phase reads. */
export interface SpaceState {
  creds: { username: string; password: string } | undefined;
  space: SpaceRecord;
  sync: GitSyncState;
}

/**
 * The credentials, the space and its git state, read at the same time (their failures in this order; the space is
 * checked by `checkSpace` before the git state's failure counts).
 */
export async function readSpaceState(run: GitRun, checkSpace: (space: SpaceRecord) => void): Promise<SpaceState> {
  const { ctx, request } = run;
  const { store } = ctx;
  const [credsRead, spaceRead, syncRead] = await Promise.allSettled([
    credentialsOf(ctx, request),
    store.spaces.get(request.spaceId),
    store.gitSync.get(request.spaceId),
  ]);
  const creds = settled(credsRead);
  if (creds) run.secrets.push(creds.password);
  const space = settled(spaceRead);
  if (!space) throw new GitSyncError('NOT_FOUND', `space not found: ${request.spaceId}`);
  checkSpace(space);
  const sync = settled(syncRead);
  return { creds, space, sync };
}
