/**
 * One git export: fetch the remote branch (nothing when the cache holds the head receive-pack advertises), compute
 * what Folio changed since the last synced commit (the converter writes only changed paths), refuse to overwrite
 * files the remote also changed (CONFLICT, unless `force`), build the new tree on top of the remote head, commit with
 * Folio's trailers and push without force (creating the branch when missing). A branch that moves during the push
 * fails the attempt with the retryable NON_FAST_FORWARD: the retry fetches again and re-checks conflicts, so no
 * remote commit is ever lost. An export writes no revision. The phases run in this order on one context
 * (`./context.ts`).
 */
import type { GitOperationResult } from '../../temporal/contract/index.js';
import type { GitRun } from '../run.js';
import { buildChanges } from './build.js';
import { startExport } from './context.js';
import { fetchBranch } from './fetch.js';
import { loadExport } from './load.js';
import { commitAndPush, recordUnrecorded } from './push.js';
import { checkRemoteHead } from './remote-head.js';

export async function runGitExport(run: GitRun): Promise<GitOperationResult> {
  const fetched = await fetchBranch(await startExport(run));
  const done = await checkRemoteHead(fetched);
  if (done) return done;
  const built = await buildChanges(await loadExport(fetched));
  if (built.unrecorded) return recordUnrecorded(built, built.unrecorded);
  return commitAndPush(built);
}
