/**
 * One git import: fetch the ref (shallow, single branch, bare cache, no checkout), read the tree, let the converter
 * parse only the blobs that changed since the space's current revision, store the new revision (idempotency key per
 * request) and make it primary (compare-and-set), unless standalone. The phases run in this order on one context
 * (`./context.ts`); those before the tree is read may answer at once (a retry that finds its work done, a no-op).
 */
import type { GitOperationResult } from '../../temporal/contract/index.js';
import type { GitRun } from '../run.js';
import { alreadyHeld, completedByRetry, remoteUnchanged } from './already-held.js';
import { startImport } from './context.js';
import { fetchCommit } from './fetch.js';
import { parseCommitTree } from './parse.js';
import { readCommitTree } from './read-tree.js';
import { storeImport } from './store.js';

export async function runGitImport(run: GitRun): Promise<GitOperationResult> {
  const started = await startImport(run);
  const done = (await completedByRetry(started)) ?? (await remoteUnchanged(started));
  if (done) return done;
  const fetched = await fetchCommit(started);
  const held = await alreadyHeld(fetched);
  if (held) return held;
  const parsed = await parseCommitTree(await readCommitTree(fetched));
  return storeImport(parsed);
}
