import { ConflictError } from '../errors.js';
import type { FileRecord, Store } from '../store/index.js';
import { locate, toEditable, toFileInputs, toPageInputs, type EditablePage } from './tree.js';

/** What a page is, for three-way comparison (its place in the tree excluded). */
function fingerprint(p: EditablePage | undefined): string {
  if (!p) return '∅';
  return JSON.stringify([p.kind, p.title, p.slug, p.data, p.bodyHash]);
}
const fileFingerprint = (f: FileRecord | undefined) => (f ? JSON.stringify([f.name, f.contentType, f.hash, f.path]) : '∅');

function flat(pages: EditablePage[], out = new Map<string, { page: EditablePage; parent: string | null; index: number }>(), parent: string | null = null) {
  pages.forEach((page, index) => {
    out.set(page.id, { page, parent, index });
    flat(page.children, out, page.id);
  });
  return out;
}

export interface MergeConflict {
  kind: 'page' | 'file';
  id: string;
  reason: string;
}

/**
 * Three-way merge of `theirs` (a change request) into `ours` (the primary content) from their common `base`,
 * page by page and file by file: a side that did not touch an item takes the other side's version; both
 * changing the same item differently (or one editing what the other deleted) is a conflict. Pages the change
 * request created are inserted under their parent (at the root when that parent is gone); pages it moved
 * follow it. Returns the merged tree, or the conflicts (nothing is written either way).
 */
export async function threeWayMerge(store: Store, baseId: string, oursId: string, theirsId: string) {
  const load = async (id: string) => ({ pages: toEditable(await store.revisions.pages(id)), files: await store.revisions.files(id) });
  const [base, ours, theirs] = await Promise.all([load(baseId), load(oursId), load(theirsId)]);
  const conflicts: MergeConflict[] = [];
  const b = flat(base.pages);
  const o = flat(ours.pages);
  const t = flat(theirs.pages);
  const result = ours.pages; // start from the primary tree, apply the change request's changes
  const ids = new Set([...b.keys(), ...t.keys()]);

  for (const id of ids) {
    const fb = fingerprint(b.get(id)?.page);
    const fo = fingerprint(o.get(id)?.page);
    const ft = fingerprint(t.get(id)?.page);
    const theirsChanged = ft !== fb;
    const oursChanged = fo !== fb;
    const tEntry = t.get(id);
    const bEntry = b.get(id);
    const moved = tEntry && bEntry && (tEntry.parent !== bEntry.parent || tEntry.index !== bEntry.index);
    if (!theirsChanged && !moved) continue;
    if (theirsChanged && oursChanged && fo !== ft) {
      conflicts.push({ kind: 'page', id, reason: !tEntry ? 'deleted in the change request, edited in the primary content' : !o.get(id) && bEntry ? 'edited in the change request, deleted in the primary content' : 'edited on both sides' });
      continue;
    }
    if (!tEntry) {
      const here = locate(result, id);
      if (here) here.siblings.splice(here.index, 1, ...here.page.children.filter((c) => t.has(c.id) && !b.has(c.id)));
      continue;
    }
    const here = locate(result, id);
    const parentId = tEntry.parent;
    if (here && !moved) {
      Object.assign(here.page, { kind: tEntry.page.kind, title: tEntry.page.title, slug: tEntry.page.slug, path: tEntry.page.path, data: tEntry.page.data, bodyHash: tEntry.page.bodyHash });
      continue;
    }
    if (!here && bEntry) continue; // deleted in primary, unchanged content in the CR (moved only): stays deleted
    const node: EditablePage = here ? here.page : { ...tEntry.page, children: [] };
    if (here) {
      here.siblings.splice(here.index, 1);
      Object.assign(node, { title: tEntry.page.title, slug: tEntry.page.slug, path: tEntry.page.path, data: tEntry.page.data, bodyHash: tEntry.page.bodyHash });
    }
    const parent = parentId ? locate(result, parentId) : null;
    const siblings = parent ? parent.page.children : result;
    siblings.splice(Math.min(tEntry.index, siblings.length), 0, node);
  }

  const bf = new Map(base.files.map((f) => [f.id, f]));
  const of = new Map(ours.files.map((f) => [f.id, f]));
  const tf = new Map(theirs.files.map((f) => [f.id, f]));
  const files = new Map(of);
  for (const id of new Set([...bf.keys(), ...tf.keys()])) {
    const fb = fileFingerprint(bf.get(id));
    const fo = fileFingerprint(of.get(id));
    const ft = fileFingerprint(tf.get(id));
    if (ft === fb) continue;
    if (fo !== fb && fo !== ft) {
      conflicts.push({ kind: 'file', id, reason: 'changed on both sides' });
      continue;
    }
    const theirsFile = tf.get(id);
    if (theirsFile) files.set(id, theirsFile);
    else files.delete(id);
  }
  return { conflicts, pages: toPageInputs(result), files: toFileInputs([...files.values()]) };
}

export function conflictError(conflicts: MergeConflict[]): ConflictError {
  const list = conflicts.map((c) => `${c.kind} ${c.id}: ${c.reason}`).join('; ');
  return new ConflictError(`the change request conflicts with the primary content: ${list}`, { conflicts });
}
