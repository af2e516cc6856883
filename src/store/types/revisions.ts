import type { JsonObject, PageOptions, Paginated } from './common.js';

export interface RevisionGit {
  oid: string;
  message?: string;
  ref?: string;
  url?: string;
  createdByService?: boolean;
}

/** A page as given to `revisions.create`. */
export interface PageInput {
  /** Stable page id (unique within the revision). */
  id: string;
  kind: 'document' | 'group' | 'link';
  title: string;
  slug?: string;
  path?: string;
  /** Every other page field of the converter's model. */
  data?: JsonObject;
  /** The page markdown: bytes (stored once as a blob) or the hash of a stored blob. */
  body?: Uint8Array | { hash: string };
  children?: PageInput[];
  /**
   * true: the page is the same as the page of this id in the revision input's `base` (its kind, title, slug, path,
   * data and body are copied from there by the database, and the ones given here are not stored); its place in the
   * tree (parent, position, order) is this input's. A page id the base does not hold is refused.
   */
  fromBase?: boolean;
}

/** A stored page, as read back. `children` is filled by `revisions.pages` (the tree) and empty from `page`. */
export interface PageRecord {
  id: string;
  kind: 'document' | 'group' | 'link';
  title: string;
  slug: string | null;
  path: string | null;
  data: JsonObject;
  bodyHash: string | null;
  parentId: string | null;
  /** Index among its siblings. */
  position: number;
  children: PageRecord[];
}

export interface FileGit {
  oid: string;
  path: string;
}

/** A file as given to `revisions.create`. */
export interface FileInput {
  id: string;
  name: string;
  path?: string;
  contentType?: string;
  size: number;
  git?: FileGit;
  data?: JsonObject;
  bytes?: Uint8Array | { hash: string };
  /**
   * true: the file is the same as the file of this id in the revision input's `base` (every field but its position
   * is copied from there by the database; the ones given here are not stored). A file id the base does not hold is
   * refused.
   */
  fromBase?: boolean;
}

export interface FileRecord {
  id: string;
  name: string;
  path: string | null;
  contentType: string | null;
  size: number;
  git: FileGit | null;
  data: JsonObject;
  hash: string | null;
  position: number;
}

export interface RevisionInput {
  spaceId: string;
  parents: string[];
  /** 'edits' | 'merge' | 'git-import' | 'git-export' | 'template' | ... */
  type: string;
  git?: RevisionGit;
  /** Revision-level data: config, redirects, groups... */
  data?: JsonObject;
  pages: PageInput[];
  files: FileInput[];
  /** Same key (per space) → same revision, never a second one. */
  idempotencyKey?: string;
  /**
   * A revision of the same space whose pages and files the input's `fromBase` pages and files are copies of (an
   * incremental import: the unchanged rows are copied inside the database instead of being sent again).
   */
  base?: string;
}

export interface RevisionRecord {
  id: string;
  spaceId: string;
  parents: string[];
  type: string;
  git: RevisionGit | null;
  data: JsonObject;
  idempotencyKey: string | null;
  pageCount: number;
  fileCount: number;
  createdAt: Date;
}

export interface RevisionStore {
  /** One transaction. With an `idempotencyKey`, a second call returns the first revision (`created: false`). */
  create(input: RevisionInput): Promise<{ id: string; created: boolean }>;
  get(id: string): Promise<RevisionRecord | null>;
  /** The page tree (roots in order, each with `children`). NotFoundError when the revision is unknown. */
  pages(revisionId: string): Promise<PageRecord[]>;
  page(revisionId: string, pageId: string): Promise<PageRecord | null>;
  pageBody(revisionId: string, pageId: string): Promise<Uint8Array | null>;
  /** In the order given at creation. NotFoundError when the revision is unknown. */
  files(revisionId: string): Promise<FileRecord[]>;
  file(revisionId: string, fileId: string): Promise<FileRecord | null>;
  fileBytes(revisionId: string, fileId: string): Promise<Uint8Array | null>;
  /** Newest first. */
  listForSpace(spaceId: string, options: PageOptions): Promise<Paginated<RevisionRecord>>;
}
