/**
 * What a pipeline reads a revision from: a tree of files by repository-relative path. A Git commit's tree
 * (src/git/tree.ts), a working directory (./source-tree.ts) and any later source (a website crawl, a
 * template) have this one shape; the converter (src/format) imports it.
 */

/** A file of the tree. */
export interface SourceEntry {
  /** Git blob oid (sha1 of `blob <len>\0` + bytes). */
  oid: string;
  /** Git file mode (`100644`, `100755`, `120000` = symlink: the blob holds the target). */
  mode?: string;
  /** Size in bytes, when the source gives it cheaply. */
  size?: number;
  read(): Promise<Uint8Array>;
}

/** Repository-relative path (no leading slash) → file. Only files, no directory entries. */
export type SourceTree = Map<string, SourceEntry>;
