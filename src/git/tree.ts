/**
 * Reading commits, trees and blobs straight from the cache's object store: no working tree.
 * `readTree` returns a lazy SourceTree (every blob read on demand); `diffTrees` compares two
 * commits and descends only into subtrees whose ids differ.
 */
import git from 'isomorphic-git';
import { readingObjects } from './read-fs.js';
import type { RepoCache } from './cache.js';
import { GitFileTooLargeError, GitObjectNotFoundError } from './errors.js';
import { parseTrailers, type Trailer } from './trailers.js';
import { objectSize, objectSizes } from './object-size.js';
import { knownTreesOf, rememberTree } from './known-trees.js';
import type { SourceEntry, SourceTree } from '../format/index.js';

export const DEFAULT_MAX_FILE_BYTES = 100 * 1024 * 1024;

/** A file of a commit's tree: Folio's one source tree type (src/format/source-entry.ts). */
export type SourceFile = SourceEntry;
export type { SourceTree };

export interface TreeOptions {
  /** Only the files under this directory (repository-relative, no leading slash). Keys stay repository-relative. */
  prefix?: string;
  /** Blobs larger than this fail with FILE_TOO_LARGE when read (default 100 MB). */
  maxFileBytes?: number;
}

export interface TreeEntry {
  mode: string;
  path: string;
  oid: string;
  type: 'blob' | 'tree' | 'commit';
}

export interface CommitInfo {
  oid: string;
  tree: string;
  parents: string[];
  message: string;
  author: { name: string; email: string; timestamp: number; timezoneOffset: number };
  committer: { name: string; email: string; timestamp: number; timezoneOffset: number };
  trailers: Trailer[];
}

function normalizePrefix(prefix: string | undefined): string {
  if (!prefix) return '';
  const p = prefix.replace(/^\.?\/+/, '').replace(/\/+$/, '');
  return p === '.' ? '' : p;
}

function isMissing(err: unknown): boolean {
  const code = (err as { code?: string }).code;
  return code === 'NotFoundError' || code === 'ObjectTypeError';
}

export async function readCommit(cache: RepoCache, oid: string): Promise<CommitInfo> {
  try {
    const { commit } = await readingObjects(cache, isMissing, (fs) => git.readCommit({ fs, gitdir: cache.gitdir, cache: cache.objectCache, oid }));
    return {
      oid,
      tree: commit.tree,
      parents: commit.parent,
      message: commit.message,
      author: commit.author,
      committer: commit.committer,
      trailers: parseTrailers(commit.message),
    };
  } catch (err) {
    if (isMissing(err)) throw new GitObjectNotFoundError('commit', oid);
    throw err;
  }
}

/** The entries of one tree object. Read-only (the list and its entries): the next reader of the same tree gets them too. */
export async function readTreeEntries(cache: RepoCache, treeOid: string): Promise<TreeEntry[]> {
  const known = knownTreesOf(cache.gitdir);
  const hit = known.trees.get(treeOid);
  if (hit) {
    known.hits++;
    known.trees.delete(treeOid);
    known.trees.set(treeOid, hit);
    return hit as TreeEntry[];
  }
  try {
    const { tree } = await readingObjects(cache, isMissing, (fs) => git.readTree({ fs, gitdir: cache.gitdir, cache: cache.objectCache, oid: treeOid }));
    const entries = Object.freeze((tree as TreeEntry[]).map((e) => ({ mode: e.mode, path: e.path, oid: e.oid, type: e.type })));
    rememberTree(known, treeOid, entries);
    return entries as TreeEntry[];
  } catch (err) {
    if (isMissing(err)) throw new GitObjectNotFoundError('tree', treeOid);
    throw err;
  }
}

/** The tree id at `prefix` inside a commit's tree, or null when there is no such directory. */
export async function resolveTreeAt(cache: RepoCache, commit: string, prefix?: string): Promise<string | null> {
  let tree = (await readCommit(cache, commit)).tree;
  const p = normalizePrefix(prefix);
  if (!p) return tree;
  for (const part of p.split('/')) {
    const entry = (await readTreeEntries(cache, tree)).find((e) => e.path === part);
    if (!entry || entry.type !== 'tree') return null;
    tree = entry.oid;
  }
  return tree;
}

export async function readBlob(cache: RepoCache, oid: string, options: { path?: string; maxFileBytes?: number; knownSize?: number } = {}): Promise<Uint8Array> {
  const limit = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const known = options.knownSize ?? (await objectSize(cache, oid));
  if (known !== undefined && known > limit) throw new GitFileTooLargeError(options.path ?? oid, known, limit);
  try {
    const { blob } = await readingObjects(cache, isMissing, (fs) => git.readBlob({ fs, gitdir: cache.gitdir, cache: cache.objectCache, oid }));
    if (blob.byteLength > limit) throw new GitFileTooLargeError(options.path ?? oid, blob.byteLength, limit);
    return blob;
  } catch (err) {
    if (isMissing(err)) throw new GitObjectNotFoundError('blob', oid);
    throw err;
  }
}

/** Every file of a commit (recursively), keyed by repository-relative path; blobs are read lazily. */
export async function readTree(cache: RepoCache, commit: string, options: TreeOptions = {}): Promise<SourceTree> {
  const prefix = normalizePrefix(options.prefix);
  const out: SourceTree = new Map();
  const root = await resolveTreeAt(cache, commit, prefix);
  if (root === null) return out;
  const limit = options.maxFileBytes ?? DEFAULT_MAX_FILE_BYTES;
  const blobs: Array<[string, TreeEntry]> = [];
  const walk = async (treeOid: string, dir: string): Promise<void> => {
    for (const e of await readTreeEntries(cache, treeOid)) {
      const p = dir ? `${dir}/${e.path}` : e.path;
      if (e.type === 'tree') await walk(e.oid, p);
      else if (e.type === 'blob') blobs.push([p, e]);
      // type 'commit' (submodule): no object in this repository, skipped.
    }
  };
  await walk(root, prefix);
  const sizes = await objectSizes(
    cache,
    blobs.map(([, e]) => e.oid),
  );
  for (const [p, e] of blobs) {
    const oid = e.oid;
    const size = sizes.get(oid);
    const file: SourceFile = {
      oid,
      mode: e.mode,
      read: () => readBlob(cache, oid, size === undefined ? { path: p, maxFileBytes: limit } : { path: p, maxFileBytes: limit, knownSize: size }),
    };
    if (size !== undefined) file.size = size;
    out.set(p, file);
  }
  return out;
}

export interface TreeDiff {
  added: string[];
  modified: string[];
  deleted: string[];
}

/** Paths added, modified (content or mode) and deleted from commit `a` to commit `b`. */
export async function diffTrees(cache: RepoCache, commitA: string, commitB: string, options: { prefix?: string } = {}): Promise<TreeDiff> {
  const prefix = normalizePrefix(options.prefix);
  const [ta, tb] = await Promise.all([resolveTreeAt(cache, commitA, prefix), resolveTreeAt(cache, commitB, prefix)]);
  const diff: TreeDiff = { added: [], modified: [], deleted: [] };
  const listAll = async (tree: string, dir: string, into: string[]): Promise<void> => {
    for (const e of await readTreeEntries(cache, tree)) {
      const p = `${dir}${e.path}`;
      if (e.type === 'tree') await listAll(e.oid, `${p}/`, into);
      else if (e.type === 'blob') into.push(p);
    }
  };
  const compare = async (a: string | null, b: string | null, dir: string): Promise<void> => {
    if (a === b) return;
    if (a === null) return listAll(b!, dir, diff.added);
    if (b === null) return listAll(a, dir, diff.deleted);
    const ea = new Map((await readTreeEntries(cache, a)).filter((e) => e.type !== 'commit').map((e) => [e.path, e]));
    const eb = new Map((await readTreeEntries(cache, b)).filter((e) => e.type !== 'commit').map((e) => [e.path, e]));
    for (const [name, x] of ea) {
      const y = eb.get(name);
      const p = `${dir}${name}`;
      if (!y) {
        if (x.type === 'tree') await listAll(x.oid, `${p}/`, diff.deleted);
        else diff.deleted.push(p);
      } else if (x.type === 'tree' && y.type === 'tree') {
        await compare(x.oid, y.oid, `${p}/`);
      } else if (x.type === 'tree') {
        await listAll(x.oid, `${p}/`, diff.deleted);
        diff.added.push(p);
      } else if (y.type === 'tree') {
        diff.deleted.push(p);
        await listAll(y.oid, `${p}/`, diff.added);
      } else if (x.oid !== y.oid || x.mode !== y.mode) {
        diff.modified.push(p);
      }
    }
    for (const [name, y] of eb) {
      if (ea.has(name)) continue;
      const p = `${dir}${name}`;
      if (y.type === 'tree') await listAll(y.oid, `${p}/`, diff.added);
      else diff.added.push(p);
    }
  };
  await compare(ta, tb, prefix ? `${prefix}/` : '');
  diff.added.sort();
  diff.modified.sort();
  diff.deleted.sort();
  return diff;
}
