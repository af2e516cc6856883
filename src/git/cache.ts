/**
 * The local bare-repository cache: one directory per key under the directory of its tenant,
 * `<root>/orgs/<organizationId>/<spaceId>/<key>`. Organization and space come from the server's own records,
 * never from a request body: the key (the caller's `repoCacheID`, else a hash of the credential-free URL and
 * the ref) only selects a cache within one space, so no two spaces ever share objects. Writers (fetch, push,
 * removal) serialise on a lock that works across processes (an exclusive `mkdir`, refreshed
 * while held, taken over when its owner is dead or it went stale) and within a process (a queue).
 * Readers need no lock: objects are immutable and every file is written atomically.
 */
import { createHash, randomBytes } from 'node:crypto';
import * as fsp from 'node:fs/promises';
import path from 'node:path';
import git from 'isomorphic-git';
import { atomicFs } from './atomic-fs.js';
import { splitUrlCredentials } from '../net/url-credentials.js';
import { spaceCacheDir, type CacheScope } from './cache-layout.js';
import { GitCacheLockedError } from './errors.js';
import { forgetObjectSizes } from './object-size.js';
import { forgetTrees } from './known-trees.js';
import { forgetReadFs } from './read-fs.js';

export interface RepoCache {
  /** The cache key (directory name under the space's directory). */
  readonly key: string;
  /** Path of the bare repository. */
  readonly gitdir: string;
  /** The space's cache directory (`<root>/orgs/<org>/<space>`): holds the cache, its lock and its trash. */
  readonly root: string;
  /** isomorphic-git's in-memory object cache (parsed pack indexes), shared by calls on this cache. */
  readonly objectCache: object;
}

export interface CacheKeyInput {
  url: string;
  ref: string;
  /** When given, the key: the same ID always maps to the same directory. */
  repoCacheID?: string;
}

const SAFE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/;

export function cacheKey(input: CacheKeyInput): string {
  if (input.repoCacheID !== undefined) {
    // A name that could be mistaken for a lock directory (`<key>.lock`) is hashed like any unsafe one.
    if (SAFE_ID.test(input.repoCacheID) && !input.repoCacheID.includes('.lock')) return `id-${input.repoCacheID}`;
    return `id-${createHash('sha256').update(input.repoCacheID).digest('hex').slice(0, 32)}`;
  }
  const { url } = splitUrlCredentials(input.url);
  return createHash('sha256').update(`${url}\n${input.ref}`).digest('hex').slice(0, 32);
}

/**
 * isomorphic-git's object cache (the pack indexes it parsed, the packfiles it read) of the most recently opened caches,
 * by git directory: the next operation on the same space's cache does not read and parse its packs again. Packs are
 * immutable and a fetch adds new ones under new names (found by the reading client, `read-fs.ts`); a removed cache's
 * entry is dropped (`removeCache`). Few are kept: each holds its packfiles in memory.
 */
const objectCaches = new Map<string, object>();
const KEPT_OBJECT_CACHES = 2;

function objectCacheOf(gitdir: string): object {
  let kept = objectCaches.get(gitdir);
  if (kept) objectCaches.delete(gitdir);
  else kept = {};
  objectCaches.set(gitdir, kept);
  if (objectCaches.size > KEPT_OBJECT_CACHES) objectCaches.delete(objectCaches.keys().next().value!);
  return kept;
}

/** Opens (creating and initialising when needed) the space's bare repository cache for a remote. */
export async function openCache(options: CacheKeyInput & { root: string; scope: CacheScope }): Promise<RepoCache> {
  const root = spaceCacheDir(options.root, options.scope);
  const key = cacheKey(options);
  const gitdir = path.join(root, key);
  const cache: RepoCache = { key, gitdir, root, objectCache: objectCacheOf(gitdir) };
  await fsp.mkdir(root, { recursive: true });
  try {
    await fsp.access(path.join(cache.gitdir, 'config'));
  } catch {
    await withCacheLock(cache, async () => {
      await git.init({ fs: atomicFs, gitdir: cache.gitdir, bare: true, defaultBranch: 'main' });
      // isomorphic-git records fetched refs through the `origin` refspec (the URL is always passed explicitly).
      await git.setConfig({ fs: atomicFs, gitdir: cache.gitdir, path: 'remote.origin.fetch', value: '+refs/heads/*:refs/remotes/origin/*' });
    });
  }
  return cache;
}

/** Deletes a cache directory (under its lock, by renaming it away first). */
export async function removeCache(cache: RepoCache): Promise<void> {
  await withCacheLock(cache, async () => {
    const trash = path.join(cache.root, `.trash-${cache.key}-${randomBytes(4).toString('hex')}`);
    try {
      await fsp.rename(cache.gitdir, trash);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw err;
    }
    await fsp.rm(trash, { recursive: true, force: true });
  });
  // Nothing of the removed directory is served from memory afterwards: isomorphic-git's packfile cache, the reading client.
  for (const objects of [cache.objectCache, objectCaches.get(cache.gitdir)])
    for (const key of Reflect.ownKeys(objects ?? {})) delete (objects as Record<PropertyKey, unknown>)[key];
  objectCaches.delete(cache.gitdir);
  forgetReadFs(cache);
  forgetObjectSizes(cache.gitdir);
  forgetTrees(cache.gitdir);
}

export interface LockOptions {
  /** Give up after this long (default 10 minutes). */
  timeoutMs?: number;
  /** A lock whose heartbeat is older than this is taken over (default 2 minutes). */
  staleMs?: number;
}

const inProcess = new Map<string, Promise<unknown>>();

function lockPath(cache: RepoCache): string {
  return path.join(cache.root, `${cache.key}.lock`);
}

function pidAlive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

async function acquireDirLock(dir: string, opts: Required<LockOptions>): Promise<() => Promise<void>> {
  const started = Date.now();
  let delay = 10;
  for (;;) {
    try {
      await fsp.mkdir(dir);
      await fsp.writeFile(path.join(dir, 'owner'), JSON.stringify({ pid: process.pid, at: Date.now() }));
      const beat = setInterval(
        () => {
          const now = new Date();
          fsp.utimes(dir, now, now).catch(() => {});
        },
        Math.max(1000, Math.floor(opts.staleMs / 4)),
      );
      beat.unref();
      return async () => {
        clearInterval(beat);
        await fsp.rm(dir, { recursive: true, force: true });
      };
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    // Held by someone else: take it over when the owner is gone or the heartbeat stopped.
    try {
      const st = await fsp.stat(dir);
      let owner: { pid?: number } = {};
      try {
        owner = JSON.parse(await fsp.readFile(path.join(dir, 'owner'), 'utf8')) as { pid?: number };
      } catch {
        /* owner file not written yet */
      }
      const stale = Date.now() - st.mtimeMs > opts.staleMs;
      const dead = owner.pid !== undefined && owner.pid !== process.pid && !pidAlive(owner.pid);
      if (stale || dead) {
        const grave = `${dir}.stale-${randomBytes(4).toString('hex')}`;
        await fsp
          .rename(dir, grave)
          .then(() => fsp.rm(grave, { recursive: true, force: true }))
          .catch(() => {});
        continue;
      }
    } catch {
      continue; // vanished between mkdir and stat: try again at once
    }
    if (Date.now() - started > opts.timeoutMs) throw new GitCacheLockedError(dir, Date.now() - started);
    await new Promise((r) => setTimeout(r, delay));
    delay = Math.min(delay * 2, 500);
  }
}

/** Runs `fn` holding the cache's write lock (exclusive across processes and within this one). */
export async function withCacheLock<T>(cache: RepoCache, fn: () => Promise<T>, options: LockOptions = {}): Promise<T> {
  const opts = { timeoutMs: options.timeoutMs ?? 10 * 60_000, staleMs: options.staleMs ?? 2 * 60_000 };
  const dir = lockPath(cache);
  const previous = inProcess.get(dir) ?? Promise.resolve();
  const run = previous
    .catch(() => {})
    .then(async () => {
      const release = await acquireDirLock(dir, opts);
      try {
        return await fn();
      } finally {
        await release();
      }
    });
  const tail = run.catch(() => {});
  inProcess.set(dir, tail);
  void tail.then(() => {
    if (inProcess.get(dir) === tail) inProcess.delete(dir);
  });
  return run;
}
