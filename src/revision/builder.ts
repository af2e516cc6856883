/**
 * Page tree (+ files) → the store's revision records. Every pipeline that makes a revision goes through here
 * (git import, change requests and their merges, and the next ones: website import, templates, translations), so
 * ids, slugs and URL paths follow one scheme whichever way a page was made:
 *
 * - a page or file without an `id` gets a fresh one ({@link newId});
 * - a page without a `slug` gets its title's ({@link slugify}), unique among its siblings ({@link uniqueSlug}:
 *   given slugs are kept as they are and taken first, derived ones get `-2`, `-3`, … when needed);
 * - a document or group without a `path` gets its parent's path + `/` + its slug (a group adds no segment for
 *   its children; the top level's parent path is `''`); a link has no path unless given one;
 * - everything given is kept as it is.
 */
import type { FileGit, FileInput, JsonObject, PageInput, RevisionInput } from '../store/index.js';
import { newId } from '../ids.js';
import { slugify, uniqueSlug } from '../format/index.js';

export type BlobSource = Uint8Array | { hash: string };

/** A page of the tree a pipeline produced (imported, edited, generated). */
export interface PageNode {
  id?: string;
  kind: PageInput['kind'];
  title: string;
  /** URL segment; `''` for the space's first page. null or absent: derived from the title. */
  slug?: string | null;
  /** URL path. null or absent: computed from the parent's path and the slug (documents and groups). */
  path?: string | null;
  /** Every other page field. */
  data?: JsonObject;
  /** The page body: bytes or the hash of a stored blob. */
  body?: BlobSource | null;
  children?: PageNode[];
}

/** A file of the revision. */
export interface FileNode {
  id?: string;
  name: string;
  path?: string | null;
  contentType?: string | null;
  size: number;
  git?: FileGit | null;
  data?: JsonObject;
  /** The file's content: bytes or the hash of a stored blob; none: stored without a blob. */
  bytes?: BlobSource | null;
}

export interface RevisionTree {
  pages: PageNode[];
  files: FileNode[];
  /** Revision-level data (a converter's config, the SUMMARY layout, …). */
  data?: JsonObject;
}

/** The store's page records of a page tree (ids, slugs and paths filled as described above). */
export function buildPages(pages: readonly PageNode[], parentPath = ''): PageInput[] {
  const taken = new Set<string>();
  for (const page of pages) if (typeof page.slug === 'string') taken.add(page.slug);
  return pages.map((page) => {
    let slug = page.slug;
    if (typeof slug !== 'string') {
      slug = uniqueSlug(slugify(page.title), taken);
      taken.add(slug);
    }
    let path = page.path ?? undefined;
    if (path === undefined && page.kind !== 'link') path = parentPath ? `${parentPath}/${slug}` : slug;
    const childPath = page.kind === 'document' ? (path ?? parentPath) : parentPath;
    return {
      id: page.id ?? newId(),
      kind: page.kind,
      title: page.title,
      slug,
      ...(path !== undefined ? { path } : {}),
      data: page.data ?? {},
      ...(page.body ? { body: page.body } : {}),
      children: buildPages(page.children ?? [], childPath),
    };
  });
}

/** The store's file records. */
export function buildFiles(files: readonly FileNode[]): FileInput[] {
  return files.map((f) => ({
    id: f.id ?? newId(),
    name: f.name,
    ...(f.path ? { path: f.path } : {}),
    ...(f.contentType ? { contentType: f.contentType } : {}),
    size: Number(f.size),
    ...(f.git ? { git: f.git } : {}),
    data: f.data ?? {},
    ...(f.bytes ? { bytes: f.bytes } : {}),
  }));
}

/** A whole revision: the tree's records and data, with the revision's own fields (space, parents, type, …). */
export function buildRevision(tree: RevisionTree, revision: Omit<RevisionInput, 'pages' | 'files' | 'data'>): RevisionInput {
  return { ...revision, data: tree.data ?? {}, pages: buildPages(tree.pages), files: buildFiles(tree.files) };
}
