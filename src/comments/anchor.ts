/**
 * Where a comment's page is now. A comment keeps the page it was posted on (its id, title and path then); a later
 * revision may delete the page or move it (another path). The thread stays, and its target says what became of its
 * page: `deleted` (no such page in the current revision), `moved` (the page is at another path), `outdated` when
 * either happened.
 */
import type { CommentAnchor, PageRecord } from '../store/index.js';

export interface PageState {
  id: string;
  title?: string;
  path?: string;
  /** The page was deleted or moved since the comment was posted. */
  outdated: boolean;
  /** Folio: no page of that id in the current revision. */
  deleted?: true;
  /** Folio: the page is at another path than when the comment was posted (`path` is the current one). */
  moved?: true;
}

/** Every page of a tree by id (documents, groups and links). */
export function pagesById(pages: readonly PageRecord[], out = new Map<string, PageRecord>()): Map<string, PageRecord> {
  for (const page of pages) {
    out.set(page.id, page);
    pagesById(page.children, out);
  }
  return out;
}

/** The state of the comment's page in the current revision's pages (by id); undefined when it has no page. */
export function pageState(anchor: CommentAnchor, current: ReadonlyMap<string, PageRecord>): PageState | undefined {
  const posted = anchor.page;
  if (!posted) return undefined;
  const now = current.get(posted.id);
  if (!now)
    return {
      id: posted.id,
      ...(posted.title !== null ? { title: posted.title } : {}),
      ...(posted.path !== null ? { path: posted.path } : {}),
      outdated: true,
      deleted: true,
    };
  const moved = (now.path ?? null) !== posted.path;
  return { id: now.id, title: now.title, ...(now.path !== null ? { path: now.path } : {}), outdated: moved, ...(moved ? { moved: true as const } : {}) };
}
