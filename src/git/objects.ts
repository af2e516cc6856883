/** Small object-store queries on a cache: existence and shallow boundaries. */
import * as fsp from 'node:fs/promises';
import path from 'node:path';
import git from 'isomorphic-git';
import { readingObjects } from './read-fs.js';
import type { RepoCache } from './cache.js';

export async function hasObject(cache: RepoCache, oid: string): Promise<boolean> {
  if (!/^[0-9a-f]{40}$/.test(oid)) return false;
  try {
    await readingObjects(
      cache,
      () => true,
      (fs) => git.readObject({ fs, gitdir: cache.gitdir, cache: cache.objectCache, oid, format: 'deflated' }),
    );
    return true;
  } catch {
    return false;
  }
}

/** The commits at which the cached history is cut off. */
export async function readShallow(cache: RepoCache): Promise<Set<string>> {
  try {
    const text = await fsp.readFile(path.join(cache.gitdir, 'shallow'), 'utf8');
    return new Set(
      text
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => /^[0-9a-f]{40}$/.test(l)),
    );
  } catch {
    return new Set();
  }
}

/**
 * Whether the cached history is cut off somewhere: a commit listed in the shallow file whose
 * parents are not all present (a root commit listed there cuts nothing off).
 */
export async function isShallow(cache: RepoCache): Promise<boolean> {
  for (const oid of await readShallow(cache)) {
    try {
      const { commit } = await readingObjects(
        cache,
        () => true,
        (fs) => git.readCommit({ fs, gitdir: cache.gitdir, cache: cache.objectCache, oid }),
      );
      for (const parent of commit.parent) if (!(await hasObject(cache, parent))) return true;
    } catch {
      return true;
    }
  }
  return false;
}
