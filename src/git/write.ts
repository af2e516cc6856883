/**
 * Writing new content into the cache: `writeTree` applies a set of file changes on top of a
 * commit's tree, writing only the changed blobs and the trees on their paths (every untouched
 * subtree keeps its id); `commit` writes a commit object with Folio's trailers.
 */
import git from 'isomorphic-git';
import { atomicFs } from './atomic-fs.js';
import type { RepoCache } from './cache.js';
import { GitInvalidPathError } from './errors.js';
import { readCommit, readTreeEntries, type TreeEntry } from './tree.js';
import { appendTrailers, type Trailer } from './trailers.js';

/** Repository-relative path → new content, or null to delete. */
export type TreeChanges = Map<string, Uint8Array | null>;

export const EMPTY_TREE = '4b825dc642cb6eb9a060e54bf8d69288fbee4904';

interface Node {
  /** Set when this path itself is changed (a file's new content, or null: delete). */
  change?: Uint8Array | null;
  children: Map<string, Node>;
}

function validatePath(p: string): string[] {
  if (p === '' || p.startsWith('/') || p.endsWith('/')) throw new GitInvalidPathError(p, 'must be relative, without leading or trailing slash');
  const parts = p.split('/');
  for (const part of parts) {
    if (part === '' || part === '.' || part === '..') throw new GitInvalidPathError(p, 'empty, "." or ".." component');
    if (part.toLowerCase() === '.git') throw new GitInvalidPathError(p, '".git" component');
    if (part.includes('\0')) throw new GitInvalidPathError(p, 'NUL byte');
  }
  return parts;
}

function buildTrie(changes: TreeChanges): Node {
  const root: Node = { children: new Map() };
  for (const [p, content] of changes) {
    const parts = validatePath(p);
    let node = root;
    for (const part of parts) {
      let next = node.children.get(part);
      if (!next) {
        next = { children: new Map() };
        node.children.set(part, next);
      }
      node = next;
    }
    node.change = content;
  }
  return root;
}

async function rewrite(cache: RepoCache, treeOid: string | null, node: Node, dir: string): Promise<string | null> {
  const entries = new Map<string, TreeEntry>();
  if (treeOid) for (const e of await readTreeEntries(cache, treeOid)) entries.set(e.path, e);
  for (const [name, child] of node.children) {
    const p = dir ? `${dir}/${name}` : name;
    const existing = entries.get(name);
    const hasChildren = child.children.size > 0;
    if (child.change !== undefined && child.change !== null && hasChildren) {
      throw new GitInvalidPathError(p, 'both a file and a directory in the same change set');
    }
    if (hasChildren) {
      if (existing && existing.type !== 'tree' && child.change !== null) {
        throw new GitInvalidPathError(p, 'is a file; delete it (null) in the same change set to turn it into a directory');
      }
      const base = existing && existing.type === 'tree' ? existing.oid : null;
      const sub = await rewrite(cache, base, child, p);
      if (sub === null) entries.delete(name);
      else entries.set(name, { mode: '040000', path: name, oid: sub, type: 'tree' });
      continue;
    }
    if (child.change === null) {
      entries.delete(name); // deletes a file, or a whole directory
      continue;
    }
    const content = child.change!;
    const oid = await git.writeBlob({ fs: atomicFs, gitdir: cache.gitdir, blob: content });
    const mode = existing && existing.type === 'blob' ? existing.mode : '100644';
    entries.set(name, { mode, path: name, oid, type: 'blob' });
  }
  if (entries.size === 0) return null;
  // Copies: isomorphic-git normalizes the modes of the entries it writes in place, and read entries are shared.
  const list = [...entries.values()].map((e) => ({ ...e }));
  // Unchanged: keep the id (and write nothing).
  if (treeOid) {
    const before = await readTreeEntries(cache, treeOid);
    if (
      before.length === list.length &&
      before.every((e) => {
        const n = entries.get(e.path);
        return n && n.oid === e.oid && n.mode === e.mode;
      })
    )
      return treeOid;
  }
  return git.writeTree({ fs: atomicFs, gitdir: cache.gitdir, tree: list });
}

/**
 * Applies `changes` to the tree of `baseCommit` (or to an empty tree) and returns the new root
 * tree id. Paths are repository-relative; a null value deletes a file (or a directory).
 * Directories left empty disappear; new files get mode 100644, changed files keep their mode.
 */
export async function writeTree(cache: RepoCache, baseCommit: string | null, changes: TreeChanges): Promise<string> {
  const base = baseCommit ? (await readCommit(cache, baseCommit)).tree : null;
  const trie = buildTrie(changes);
  const oid = await rewrite(cache, base, trie, '');
  return oid ?? (await git.writeTree({ fs: atomicFs, gitdir: cache.gitdir, tree: [] }));
}

export interface Signature {
  name: string;
  email: string;
  /** Default: now. */
  date?: Date;
  /** Minutes, as in isomorphic-git (UTC+2 is -120). Default 0. */
  timezoneOffset?: number;
}

export interface CommitOptions {
  tree: string;
  parents: string[];
  message: string;
  author: Signature;
  /** Default: the author. */
  committer?: Signature;
  /** Appended as `Key: value` lines in the message's trailer block. */
  trailers?: Trailer[] | Record<string, string>;
}

function sig(s: Signature): { name: string; email: string; timestamp: number; timezoneOffset: number } {
  return { name: s.name, email: s.email, timestamp: Math.floor((s.date ?? new Date()).getTime() / 1000), timezoneOffset: s.timezoneOffset ?? 0 };
}

/** Writes a commit object into the cache and returns its id (no ref is moved). */
export async function commit(cache: RepoCache, options: CommitOptions): Promise<string> {
  const message = appendTrailers(options.message, options.trailers ?? []);
  return git.writeCommit({
    fs: atomicFs,
    gitdir: cache.gitdir,
    commit: {
      message,
      tree: options.tree,
      parent: options.parents,
      author: sig(options.author),
      committer: sig(options.committer ?? options.author),
    },
  });
}
