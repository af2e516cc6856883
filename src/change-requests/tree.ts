import { buildFiles, buildPages, type PageNode } from '../revision/builder.js';
import type { FileInput, FileRecord, PageInput, PageRecord } from '../store/index.js';

/**
 * A mutable page tree node (what edits and merges work on), turned into records by the revision builder
 * (src/revision/builder.ts): a `null` slug is derived from the title (unique among siblings), a `null` path is
 * computed from the parent's path and the slug.
 */
export interface EditablePage {
  id: string;
  kind: PageRecord['kind'];
  title: string;
  slug: string | null;
  path: string | null;
  data: PageRecord['data'];
  bodyHash: string | null;
  children: EditablePage[];
}

export function toEditable(pages: PageRecord[]): EditablePage[] {
  return pages.map((p) => ({
    id: p.id,
    kind: p.kind,
    title: p.title,
    slug: p.slug,
    path: p.path,
    data: p.data ?? {},
    bodyHash: p.bodyHash,
    children: toEditable(p.children ?? []),
  }));
}

/** The page records of an edited tree (ids kept, missing slugs and paths filled by the revision builder). */
export function toPageInputs(pages: EditablePage[]): PageInput[] {
  const nodes = (list: EditablePage[]): PageNode[] =>
    list.map((p) => ({
      id: p.id,
      kind: p.kind,
      title: p.title,
      slug: p.slug,
      path: p.path,
      data: p.data,
      body: p.bodyHash ? { hash: p.bodyHash } : null,
      children: nodes(p.children),
    }));
  return buildPages(nodes(pages));
}

/** The file records of a revision's files (content by blob hash). */
export function toFileInputs(files: FileRecord[]): FileInput[] {
  return buildFiles(files.map((f) => ({ ...f, bytes: f.hash ? { hash: f.hash } : null })));
}

/** Finds a page and the sibling array holding it. */
export function locate(pages: EditablePage[], id: string): { page: EditablePage; siblings: EditablePage[]; index: number; parent: EditablePage | null } | null {
  const walk = (list: EditablePage[], parent: EditablePage | null): ReturnType<typeof locate> => {
    for (let i = 0; i < list.length; i++) {
      const page = list[i]!;
      if (page.id === id) return { page, siblings: list, index: i, parent };
      const found = walk(page.children, page);
      if (found) return found;
    }
    return null;
  };
  return walk(pages, null);
}

export function allIds(pages: EditablePage[], out = new Set<string>()): Set<string> {
  for (const p of pages) {
    out.add(p.id);
    allIds(p.children, out);
  }
  return out;
}
