/** Removal of whole cache directories: a purged space's caches, and caches left in the pre-tenant layout. */
import { randomBytes } from 'node:crypto';
import * as fsp from 'node:fs/promises';
import path from 'node:path';
import { removeCache } from './cache.js';
import { TENANT_DIR, organizationCacheDir, spaceCacheDir, type CacheScope } from './cache-layout.js';

/**
 * Deletes every cache of a space, each under its lock (a writer still running finishes first), then the
 * space's directory with what is left in it (stale locks, trash). Idempotent.
 */
export async function removeSpaceCaches(root: string, scope: CacheScope): Promise<number> {
  const dir = spaceCacheDir(root, scope);
  let entries: string[];
  try {
    entries = await fsp.readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return 0;
    throw err;
  }
  let removed = 0;
  for (const key of entries) {
    if (key.startsWith('.') || key.includes('.lock')) continue;
    await removeCache({ key, gitdir: path.join(dir, key), root: dir, objectCache: {} });
    removed++;
  }
  const trash = path.join(organizationCacheDir(root, scope.organizationId), `.trash-${scope.spaceId}-${randomBytes(4).toString('hex')}`);
  try {
    await fsp.rename(dir, trash);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return removed;
    throw err;
  }
  await fsp.rm(trash, { recursive: true, force: true });
  return removed;
}

/**
 * Removes what an earlier version left directly under the root (`id-<repoCacheID>` and URL-hash caches shared
 * across spaces, their locks and trash): such caches are never opened again. Returns the names removed.
 */
export async function removeLegacyCaches(root: string): Promise<string[]> {
  const dir = path.resolve(root);
  let entries: string[];
  try {
    entries = await fsp.readdir(dir);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  const removed: string[] = [];
  for (const name of entries) {
    if (name === TENANT_DIR) continue;
    if (name.startsWith('.legacy-')) {
      await fsp.rm(path.join(dir, name), { recursive: true, force: true });
      continue;
    }
    const trash = path.join(dir, `.legacy-${randomBytes(4).toString('hex')}`);
    try {
      await fsp.rename(path.join(dir, name), trash);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') continue;
      throw err;
    }
    await fsp.rm(trash, { recursive: true, force: true });
    removed.push(name);
  }
  return removed;
}
