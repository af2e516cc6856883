import type { DocumentPage, FileModel, GroupPage, LinkPage, RevisionModel } from '../model.js';
import { allPages, documents } from '../summary/from-revision.js';

/** The previous revision's pages and files by the keys the id phases match on. */
export interface PreviousIndex {
  byPath: Map<string, DocumentPage>;
  byOid: Map<string, DocumentPage[]>;
  /** Same-keyed entries in TOC order: the n-th one today takes the n-th one's id. */
  groupsByTitle: Map<string, GroupPage[]>;
  linksByHref: Map<string, LinkPage[]>;
  otherIds: Map<string, string[]>;
  filesByPath: Map<string, FileModel>;
  filesByOid: Map<string, FileModel>;
}

function push<T>(m: Map<string, T[]>, key: string, value: T): void {
  const list = m.get(key);
  if (list) list.push(value);
  else m.set(key, [value]);
}

/**
 * `exportedPaths`: pages an export wrote where their `git` does not say (new pages, moved ones) are found by that
 * path; a moved page no longer by the path it left.
 */
export function indexPrevious(prev: RevisionModel | undefined, exportedPaths?: ReadonlyMap<string, string>): PreviousIndex {
  const idx: PreviousIndex = {
    byPath: new Map(),
    byOid: new Map(),
    groupsByTitle: new Map(),
    linksByHref: new Map(),
    otherIds: new Map(),
    filesByPath: new Map(),
    filesByOid: new Map(),
  };
  if (!prev) return idx;
  for (const p of allPages(prev.pages)) {
    if (p.kind === 'document' && p.git) {
      idx.byPath.set(p.git.path, p);
      const list = idx.byOid.get(p.git.oid) ?? [];
      list.push(p);
      idx.byOid.set(p.git.oid, list);
    } else if (p.kind === 'group') push(idx.groupsByTitle, p.untitled ? '***' : p.title, p);
    else if (p.kind === 'link') push(idx.linksByHref, p.href, p);
    else if (p.kind === 'computed') push(idx.otherIds, p.source, p.id);
  }
  if (exportedPaths?.size) {
    for (const p of documents(prev.pages)) {
      const path = exportedPaths.get(p.id);
      if (path === undefined) continue;
      if (p.git && idx.byPath.get(p.git.path) === p) idx.byPath.delete(p.git.path);
      idx.byPath.set(path, p);
    }
  }
  for (const f of prev.files) {
    if (f.git) {
      idx.filesByPath.set(f.git.path, f);
      idx.filesByOid.set(f.git.oid, f);
    }
  }
  return idx;
}
