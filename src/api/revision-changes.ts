import type { FileRecord, PageRecord } from '../store/index.js';

/** One semantic change between two revisions, in the platform API's `RevisionSemanticChange` shape. */
export type SemanticChange = Record<string, unknown> & { type: string };

type Flat = PageRecord & { parentKey: string };

/** Every page of a tree, keyed by id, with its parent's id ('' at the root). */
export function flattenPages(pages: PageRecord[], parentKey = '', out = new Map<string, Flat>()): Map<string, Flat> {
  for (const page of pages) {
    out.set(page.id, { ...page, parentKey });
    flattenPages(page.children ?? [], page.id, out);
  }
  return out;
}

const changed = (p: PageRecord) => ({ id: p.id, type: p.kind, title: p.title || 'Untitled', ...(p.path ? { path: p.path } : {}) });
const text = (v: unknown): string | undefined => (typeof v === 'string' ? v : v === undefined || v === null ? undefined : JSON.stringify(v));

function attr(before: unknown, after: unknown): { before?: string; after?: string } {
  const out: { before?: string; after?: string } = {};
  const b = text(before);
  const a = text(after);
  if (b !== undefined) out.before = b;
  if (a !== undefined) out.after = a;
  return out;
}

/**
 * Pages created, edited (title, description, slug, emoji, document body), deleted and moved (to another parent),
 * and files created, edited (bytes, name, content type) and deleted, from `before` to `after`.
 */
export function revisionChanges(
  before: { pages: PageRecord[]; files: FileRecord[] },
  after: { pages: PageRecord[]; files: FileRecord[] },
  downloadURL: (file: FileRecord) => string,
): SemanticChange[] {
  const changes: SemanticChange[] = [];
  const old = flattenPages(before.pages);
  const now = flattenPages(after.pages);
  for (const [id, page] of now) {
    const prev = old.get(id);
    if (!prev) {
      changes.push({ type: 'page_created', page: changed(page) });
      continue;
    }
    const attributes: Record<string, unknown> = {};
    if (prev.title !== page.title) attributes.title = attr(prev.title, page.title);
    if (prev.slug !== page.slug) attributes.slug = attr(prev.slug ?? '', page.slug ?? '');
    if (page.kind === 'document') {
      if (prev.data?.description !== page.data?.description) attributes.description = attr(prev.data?.description, page.data?.description);
      if (prev.data?.emoji !== page.data?.emoji) attributes.emoji = attr(prev.data?.emoji, page.data?.emoji);
      if (prev.bodyHash !== page.bodyHash) attributes.document = attr(prev.bodyHash ?? '', page.bodyHash ?? '');
    }
    if (Object.keys(attributes).length > 0) changes.push({ type: 'page_edited', page: changed(page), attributes });
    if (prev.parentKey !== page.parentKey) {
      const parent: Record<string, unknown> = {};
      const b = old.get(prev.parentKey);
      const a = now.get(page.parentKey);
      if (b) parent.before = changed(b);
      if (a) parent.after = changed(a);
      changes.push({ type: 'page_moved', page: changed(page), parent });
    }
  }
  for (const [id, page] of old) if (!now.has(id)) changes.push({ type: 'page_deleted', page: changed(page) });

  const fileRef = (f: FileRecord) => ({ id: f.id, name: f.name, contentType: f.contentType ?? 'application/octet-stream', downloadURL: downloadURL(f) });
  const oldFiles = new Map(before.files.map((f) => [f.id, f]));
  const newFiles = new Map(after.files.map((f) => [f.id, f]));
  for (const [id, file] of newFiles) {
    const prev = oldFiles.get(id);
    if (!prev) {
      changes.push({ type: 'file_created', file: fileRef(file) });
      continue;
    }
    const attributes: Record<string, unknown> = {};
    if (prev.name !== file.name) attributes.name = attr(prev.name, file.name);
    if (prev.contentType !== file.contentType) attributes.contentType = attr(prev.contentType, file.contentType);
    if (prev.hash !== file.hash || Number(prev.size) !== Number(file.size)) attributes.size = { before: Number(prev.size), after: Number(file.size) };
    if (Object.keys(attributes).length > 0) changes.push({ type: 'file_edited', file: fileRef(file), attributes });
  }
  for (const [id, file] of oldFiles) if (!newFiles.has(id)) changes.push({ type: 'file_deleted', file: fileRef(file) });
  return changes;
}
