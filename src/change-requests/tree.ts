import type { FileInput, FileRecord, PageInput, PageRecord } from '../store/index.js';

/** A mutable page tree node (what edits and merges work on), convertible back to `PageInput`. */
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
  return pages.map((p) => ({ id: p.id, kind: p.kind, title: p.title, slug: p.slug, path: p.path, data: p.data ?? {}, bodyHash: p.bodyHash, children: toEditable(p.children ?? []) }));
}

/** Fills the `path` of new or moved pages (`null`) from the parent's path and the slug; others keep theirs. */
export function recomputePaths(pages: EditablePage[], parentPath = ''): void {
  for (const page of pages) {
    if (page.kind === 'link') continue;
    if (page.path === null) page.path = parentPath ? `${parentPath}/${page.slug ?? ''}` : (page.slug ?? '');
    recomputePaths(page.children, page.kind === 'group' ? parentPath : page.path);
  }
}

export function toPageInputs(pages: EditablePage[]): PageInput[] {
  return pages.map((p) => ({
    id: p.id,
    kind: p.kind,
    title: p.title,
    ...(p.slug !== null ? { slug: p.slug } : {}),
    ...(p.path !== null ? { path: p.path } : {}),
    data: p.data,
    ...(p.bodyHash ? { body: { hash: p.bodyHash } } : {}),
    children: toPageInputs(p.children),
  }));
}

export function toFileInputs(files: FileRecord[]): FileInput[] {
  return files.map((f) => ({
    id: f.id,
    name: f.name,
    ...(f.path ? { path: f.path } : {}),
    ...(f.contentType ? { contentType: f.contentType } : {}),
    size: Number(f.size),
    ...(f.git ? { git: f.git } : {}),
    data: f.data ?? {},
    ...(f.hash ? { bytes: { hash: f.hash } } : {}),
  }));
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

export function slugify(title: string): string {
  const slug = title
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 100);
  return slug || 'page';
}
