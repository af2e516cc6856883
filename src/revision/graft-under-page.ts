/**
 * An imported tree placed under one page of an existing revision (a content import's `target.page`): every other
 * page and file of the base is kept as it is (same ids, slugs, paths, data and body blobs, so byte-identical); the
 * imported pages become the last children of the target page, their paths recomputed under it (a first page's
 * empty slug, or one a sibling already has, is derived again from its title), their git paths dropped (they do not
 * come from this space's repository layout); the imported files are added beside the base's.
 */
import { NotFoundError } from '../errors.js';
import type { FileInput, FileRecord, JsonObject, PageInput, PageRecord } from '../store/index.js';
import { buildFiles, buildPages, type PageNode } from './builder.js';

export interface GraftBase {
  pages: PageRecord[];
  files: FileRecord[];
}

function baseNode(page: PageRecord): PageNode {
  return {
    id: page.id,
    kind: page.kind,
    title: page.title,
    slug: page.slug,
    path: page.path,
    data: page.data,
    body: page.bodyHash ? { hash: page.bodyHash } : null,
    children: page.children.map(baseNode),
  };
}

function withoutGit(data: JsonObject | undefined): JsonObject {
  const { git: _git, ...rest } = data ?? {};
  return rest;
}

function importedNode(page: PageInput, top: boolean, takenSlugs: Set<string>): PageNode {
  const slugTaken = top && (page.slug === undefined || page.slug === '' || takenSlugs.has(page.slug));
  return {
    id: page.id,
    kind: page.kind,
    title: page.title,
    slug: slugTaken ? null : (page.slug ?? null),
    path: page.kind === 'link' ? (page.path ?? null) : null,
    data: withoutGit(page.data),
    body: page.body ?? null,
    children: (page.children ?? []).map((c) => importedNode(c, false, takenSlugs)),
  };
}

/** The pages and files of the base with `imported` under page `pageId`; NotFoundError when the base has no such page. */
export function graftUnderPage(
  base: GraftBase,
  pageId: string,
  imported: { pages: PageInput[]; files: FileInput[] },
): { pages: PageInput[]; files: FileInput[] } {
  const nodes = base.pages.map(baseNode);
  const find = (list: PageNode[]): PageNode | null => {
    for (const n of list) {
      if (n.id === pageId) return n;
      const found = find(n.children ?? []);
      if (found) return found;
    }
    return null;
  };
  const target = find(nodes);
  if (!target) throw new NotFoundError('page', pageId);
  const children = target.children ?? [];
  const taken = new Set(children.map((c) => c.slug).filter((s): s is string => typeof s === 'string'));
  target.children = [...children, ...imported.pages.map((p) => importedNode(p, true, taken))];
  const files: FileInput[] = [
    ...buildFiles(base.files.map((f) => ({ ...f, bytes: f.hash ? { hash: f.hash } : null }))),
    ...imported.files.map(({ git: _git, ...f }) => f),
  ];
  return { pages: buildPages(nodes), files };
}
