import type { FileRecord, JsonObject, PageRecord, RevisionRecord } from '../../store/index.js';
import { iso, type UrlBuilder } from './urls.js';

/** Where a page or file lives: the space's primary content, or one revision. */
export interface ContentScope {
  spaceId: string;
  revisionId: string;
}

const str = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const bool = (v: unknown): boolean => v === true;

function gitBlob(data: JsonObject): { oid: string; path: string } | undefined {
  const git = data.git as { oid?: unknown; path?: unknown } | undefined;
  return git && typeof git.oid === 'string' && typeof git.path === 'string' ? { oid: git.oid, path: git.path } : undefined;
}

const visible = (v: unknown, fallback: boolean): boolean => {
  if (typeof v === 'boolean') return v;
  if (v && typeof v === 'object' && typeof (v as { visible?: unknown }).visible === 'boolean') return (v as { visible: boolean }).visible;
  return fallback;
};

/** The page layout options, from front matter `layout:` (GitBook's `{ key: { visible } }` form) over the defaults. */
export function layoutOptions(layout: unknown): Record<string, unknown> {
  const l = (layout && typeof layout === 'object' ? layout : {}) as Record<string, unknown>;
  const cover = (l.cover && typeof l.cover === 'object' ? l.cover : {}) as { size?: unknown };
  return {
    width: l.width === 'wide' ? 'wide' : 'default',
    cover: visible(l.cover, true),
    coverSize: cover.size === 'full' || cover.size === 'background' ? cover.size : 'hero',
    coverMask: 'none',
    title: visible(l.title, true),
    description: visible(l.description, true),
    tableOfContents: visible(l.tableOfContents, true),
    outline: visible(l.outline, true),
    pagination: visible(l.pagination, true),
    metadata: visible(l.metadata, true),
    tags: visible(l.tags, true),
    actions: visible(l.actions, true),
    anchors: visible(l.anchors, true),
  };
}

/** `RevisionPage` for a stored page; `content` adds `markdown` or `document` (the Document member). */
export function pageObject(
  page: PageRecord,
  scope: ContentScope,
  urls: UrlBuilder,
  content?: { markdown: string } | { document: unknown },
): Record<string, unknown> {
  const data = page.data ?? {};
  const base: Record<string, unknown> = { id: page.id, title: page.title || 'Untitled' };
  const emoji = str(data.emoji);
  if (emoji) base.emoji = emoji;
  const pages = () => page.children.filter((c) => c.kind !== 'group').map((c) => pageObject(c, scope, urls));
  if (page.kind === 'group') {
    return { ...base, kind: 'group', type: 'group', slug: page.slug ?? '', path: page.path ?? page.slug ?? '', hidden: bool(data.hidden), pages: pages() };
  }
  if (page.kind === 'link') {
    const target = data.target as { kind?: string; url?: string; pageId?: string } | undefined;
    const href = str(data.href) ?? '';
    const ref = target?.kind === 'page' && target.pageId ? { kind: 'page', page: target.pageId } : { kind: 'url', url: target?.url ?? href };
    return { ...base, kind: 'link', type: 'link', target: ref, href };
  }
  const out: Record<string, unknown> = {
    ...base,
    kind: 'sheet',
    type: 'document',
    slug: page.slug ?? '',
    path: page.path ?? '',
    // Slugs keep non-ASCII letters (and file names may hold spaces): each path segment is percent-encoded.
    urls: { app: urls.app(`/s/${scope.spaceId}/${(page.path ?? '').split('/').map(encodeURIComponent).join('/')}`) },
    hidden: bool(data.hidden),
    noIndex: bool(data.noIndex),
    layout: layoutOptions(data.layout),
    tags: [],
    pages: pages(),
  };
  const description = str(data.description);
  if (description) out.description = description;
  const icon = str(data.icon);
  if (icon) out.icon = icon;
  const linkTitle = str(data.linkTitle);
  if (linkTitle && linkTitle.length <= 100) out.linkTitle = linkTitle;
  const git = gitBlob(data);
  if (git) out.git = git;
  // Folio's addition: the page file could not be read as a page and is kept as raw bytes (exported unchanged).
  const raw = data.raw as { reason?: unknown; size?: unknown } | undefined;
  if (raw && typeof raw.reason === 'string') out.raw = { reason: raw.reason, size: typeof raw.size === 'number' ? raw.size : 0 };
  return content ? { ...out, ...content } : out;
}

/** `RevisionFile`; `downloadURL` serves the bytes (bearer token required). */
export function fileObject(file: FileRecord, scope: ContentScope, urls: UrlBuilder): Record<string, unknown> {
  const out: Record<string, unknown> = {
    id: file.id,
    name: file.name,
    contentType: file.contentType ?? 'application/octet-stream',
    downloadURL: urls.api(`/spaces/${scope.spaceId}/revisions/${scope.revisionId}/files/${encodeURIComponent(file.id)}/download`),
    size: Number(file.size),
  };
  if (file.git) out.git = { oid: file.git.oid, path: file.git.path };
  return out;
}

/** `Revision` (`type` edits, merge, …; `mergedFrom` is given for merges). */
export function revisionObject(
  revision: RevisionRecord,
  pages: PageRecord[],
  files: FileRecord[],
  urls: UrlBuilder,
  extra: { mergedFrom?: Record<string, unknown> } = {},
): Record<string, unknown> {
  const scope = { spaceId: revision.spaceId, revisionId: revision.id };
  const type = revision.type === 'merge' && extra.mergedFrom ? 'merge' : revision.type === 'update' ? 'update' : 'edits';
  const out: Record<string, unknown> = {
    object: 'revision',
    id: revision.id,
    parents: revision.parents,
    pages: pages.map((p) => pageObject(p, scope, urls)),
    files: files.map((f) => fileObject(f, scope, urls)),
    reusableContents: [],
    tags: [],
    urls: { app: urls.app(`/s/${revision.spaceId}/~/revisions/${revision.id}`) },
    createdAt: iso(revision.createdAt)!,
    type,
  };
  if (type === 'merge') out.mergedFrom = extra.mergedFrom;
  if (revision.git?.oid) {
    out.git = {
      oid: revision.git.oid,
      message: revision.git.message ?? '',
      createdByGitBook: revision.git.createdByService ?? false,
      ...(revision.git.url ? { url: revision.git.url } : {}),
      ...(revision.git.ref ? { ref: revision.git.ref } : {}),
    };
  }
  return out;
}
