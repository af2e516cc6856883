/**
 * The file system client the object readers (`readCommit`, `readTree`, `readBlob`, `hasObject`) give isomorphic-git,
 * one per cache: it remembers what isomorphic-git asks again for every object (issue 17: on 5,000 pages about 1.2 s
 * against 0.43 s of decompression) — the `stat` of the git directory, the listing of `objects/pack`, and the loose
 * object files that do not exist. What it remembers can only be out of date by objects added since (objects are
 * immutable, files written atomically): a reader that does not find an object forgets everything and asks again
 * (`readingObjects`), so an object fetched or written after the first read is always found.
 */
import type { Stats } from 'node:fs';
import * as fsp from 'node:fs/promises';
import path from 'node:path';
import { atomicFs, isProbe, probeAnswer } from './atomic-fs.js';
/** What the reading client needs of a cache (its identity): no import of the cache module, which uses this one. */
type RepoCache = object;

const LOOSE_OBJECT = /[\\/]objects[\\/][0-9a-f]{2}[\\/][0-9a-f]{38}$/;
const PACK_DIR = /[\\/]objects[\\/]pack[\\/]?$/;

interface ReadFs {
  fs: typeof atomicFs;
  forget(): void;
  /** What went to the file system: listings of `objects/pack`, `stat`s of directories, loose-object reads. */
  readonly counts: { packListings: number; directoryStats: number; looseReads: number };
}

const perCache = new WeakMap<RepoCache, ReadFs>();

function enoent(file: string): NodeJS.ErrnoException {
  const err: NodeJS.ErrnoException = new Error(`ENOENT: no such file or directory, open '${file}'`);
  err.code = 'ENOENT';
  return err;
}

function create(): ReadFs {
  let directories = new Map<string, Promise<Stats>>();
  let packLists = new Map<string, Promise<string[]>>();
  let absent = new Set<string>();
  const counts = { packListings: 0, directoryStats: 0, looseReads: 0 };
  const readFile = (async (file: string, options?: unknown) => {
    if (isProbe(file)) return probeAnswer();
    const f = String(file);
    const loose = LOOSE_OBJECT.test(f);
    if (loose && absent.has(f)) throw enoent(f);
    if (loose) counts.looseReads++;
    try {
      return await (fsp.readFile as (f: string, o?: unknown) => Promise<Buffer | string>)(f, options);
    } catch (err) {
      if (loose && (err as NodeJS.ErrnoException).code === 'ENOENT') absent.add(f);
      throw err;
    }
  }) as typeof fsp.readFile;
  const stat = (async (p: string) => {
    const key = path.resolve(String(p));
    const known = directories.get(key);
    if (known) return known;
    const s = await fsp.stat(key);
    if (s.isDirectory()) {
      counts.directoryStats++;
      directories.set(key, Promise.resolve(s));
    }
    return s;
  }) as typeof fsp.stat;
  const readdir = (async (dir: string, options?: unknown) => {
    const d = String(dir);
    if (options !== undefined || !PACK_DIR.test(d)) return (fsp.readdir as (d: string, o?: unknown) => Promise<unknown>)(d, options);
    let list = packLists.get(d);
    if (!list) {
      counts.packListings++;
      list = fsp.readdir(d);
      packLists.set(d, list);
      list.catch(() => packLists.delete(d));
    }
    return [...(await list)];
  }) as typeof fsp.readdir;
  return {
    fs: { promises: { ...atomicFs.promises, readFile, stat, readdir } },
    forget() {
      directories = new Map();
      packLists = new Map();
      absent = new Set();
    },
    counts,
  };
}

/** Forgets the cache's reading client (the cache directory was removed). */
export function forgetReadFs(cache: RepoCache): void {
  perCache.delete(cache);
}

/** The reading client of this cache (created on first use). */
export function readFsOf(cache: RepoCache): ReadFs {
  let r = perCache.get(cache);
  if (!r) {
    r = create();
    perCache.set(cache, r);
  }
  return r;
}

/**
 * Runs a read of objects with the cache's reading client; when it does not find an object (`isMissing`), runs it
 * once more after forgetting what the client remembered.
 */
export async function readingObjects<T>(cache: RepoCache, isMissing: (err: unknown) => boolean, read: (fs: typeof atomicFs) => Promise<T>): Promise<T> {
  const r = readFsOf(cache);
  try {
    return await read(r.fs);
  } catch (err) {
    if (!isMissing(err)) throw err;
    r.forget();
    return read(r.fs);
  }
}
