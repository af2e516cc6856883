/**
 * The shallow file across an interrupted fetch. isomorphic-git writes a fetch's new shallow list (and the
 * remote-tracking ref) before the pack and its index: a fetch that fails, is cancelled or is killed between the two
 * leaves a list without the commits the server "unshallowed" for a pack that never arrived, although the cache holds
 * them without their parents. The cache then looks complete: a deepen never runs (the sync base is "not in the
 * history") and a push walks into the missing parents (OBJECT_NOT_FOUND, on every retry). Restoring the list as it
 * was before the whole fetch is no better once an earlier round of it succeeded (its commits go unlisted).
 * So the list is kept beside the cache before each round (`folio-shallow-before`) and dropped once the round's pack
 * and index are on disk. Whoever takes the cache's write lock next, or the failing fetch itself, finds it and sets the
 * list to the union of the kept list and the current one, limited to commits the cache holds: a commit listed whose
 * parents are present cuts nothing off, a commit the cache lacks cannot be cut; one missing its parents stays listed.
 * Callers hold the cache's write lock.
 */
import * as fsp from 'node:fs/promises';
import path from 'node:path';
import { atomicFs } from './atomic-fs.js';
import type { RepoCache } from './cache.js';
import { hasObject, readShallow } from './objects.js';

const JOURNAL = 'folio-shallow-before';

const journalOf = (cache: RepoCache) => path.join(cache.gitdir, JOURNAL);

/** Before a fetch round: the shallow list as it is, kept. */
export async function beginFetchRound(cache: RepoCache): Promise<void> {
  const current = await fsp.readFile(path.join(cache.gitdir, 'shallow'), 'utf8').catch(() => '');
  await atomicFs.promises.writeFile(journalOf(cache), current);
}

/** After a fetch round whose pack and index are written: nothing to repair. */
export async function endFetchRound(cache: RepoCache): Promise<void> {
  await fsp.rm(journalOf(cache), { force: true });
}

/** When a round was interrupted (its journal is there): the shallow list repaired as above. Whether it was. */
export async function repairShallow(cache: RepoCache): Promise<boolean> {
  let kept: string;
  try {
    kept = await fsp.readFile(journalOf(cache), 'utf8');
  } catch {
    return false;
  }
  const union = new Set([...kept.split('\n').map((l) => l.trim()), ...(await readShallow(cache))].filter((l) => /^[0-9a-f]{40}$/.test(l)));
  const held: string[] = [];
  for (const oid of union) if (await hasObject(cache, oid)) held.push(oid);
  const file = path.join(cache.gitdir, 'shallow');
  if (held.length > 0) await atomicFs.promises.writeFile(file, `${held.sort().join('\n')}\n`);
  else await fsp.rm(file, { force: true });
  await fsp.rm(journalOf(cache), { force: true });
  return true;
}
