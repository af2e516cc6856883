/**
 * Entries of the tree objects read, by git directory (each a space's cache), for the most recently used caches: a
 * tree id names its content, so an incremental import reads only the trees that changed since the last one (the
 * others, the unchanged subtrees, come from here). Bounded by entries per cache; emptied when a cache is removed.
 */
export interface KnownTreeEntry {
  mode: string;
  path: string;
  oid: string;
  type: 'blob' | 'tree' | 'commit';
}

export interface KnownTrees {
  trees: Map<string, readonly KnownTreeEntry[]>;
  entries: number;
  /** Trees read from the object store, and trees served from here (for tests and profiling). */
  reads: number;
  hits: number;
}

const knownTrees = new Map<string, KnownTrees>();
const KNOWN_TREE_CACHES = 8;
const KNOWN_TREE_ENTRIES = 100_000;

/** The trees known of a git directory (made the most recently used). */
export function knownTreesOf(gitdir: string): KnownTrees {
  let known = knownTrees.get(gitdir);
  if (known) knownTrees.delete(gitdir);
  else known = { trees: new Map(), entries: 0, reads: 0, hits: 0 };
  knownTrees.set(gitdir, known);
  if (knownTrees.size > KNOWN_TREE_CACHES) knownTrees.delete(knownTrees.keys().next().value!);
  return known;
}

/** Remembers a tree's entries; the least recently used trees are forgotten beyond the bound. */
export function rememberTree(known: KnownTrees, oid: string, entries: readonly KnownTreeEntry[]): void {
  known.reads++;
  if (known.trees.has(oid)) return;
  known.trees.set(oid, entries);
  known.entries += entries.length;
  for (const [old, list] of known.trees) {
    if (known.entries <= KNOWN_TREE_ENTRIES) break;
    known.trees.delete(old);
    known.entries -= list.length;
  }
}

/** Forgets the trees read in a git directory (the cache was removed). */
export function forgetTrees(gitdir: string): void {
  knownTrees.delete(gitdir);
}
