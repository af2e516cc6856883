import { ConflictError } from '../errors.js';
import type { FileInput, FileRecord, PageInput, Store } from '../store/index.js';
import type { BlockConflict, BlockMergeResult } from './block-merge.js';
import { toEditable, toFileInputs, toPageInputs, type EditablePage } from './tree.js';

/** What a page is, for three-way comparison (its place in the tree excluded). */
function fingerprint(p: EditablePage | undefined): string {
  if (!p) return '∅';
  return JSON.stringify([p.kind, p.title, p.slug, p.data, p.bodyHash]);
}
const fileFingerprint = (f: FileRecord | undefined) => (f ? JSON.stringify([f.name, f.contentType, f.hash, f.path]) : '∅');

interface Entry {
  page: EditablePage;
  parent: string | null;
}
type Flat = Map<string, Entry>;

function flat(pages: EditablePage[], out: Flat = new Map(), parent: string | null = null): Flat {
  for (const page of pages) {
    out.set(page.id, { page, parent });
    flat(page.children, out, page.id);
  }
  return out;
}

/** The ids of the children of `parent` (null: the root) in one tree, in order. */
function childrenOf(tree: { pages: EditablePage[]; flat: Flat }, parent: string | null): string[] {
  if (parent === null) return tree.pages.map((p) => p.id);
  return tree.flat.get(parent)?.page.children.map((p) => p.id) ?? [];
}

/** True when `side` put the siblings it shares with `base` in another relative order. */
function reordered(base: string[], side: string[]): boolean {
  const inSide = new Set(side);
  const inBase = new Set(base);
  const a = base.filter((id) => inSide.has(id));
  const b = side.filter((id) => inBase.has(id));
  return a.some((id, i) => b[i] !== id);
}

export interface MergeConflict {
  kind: 'page' | 'file';
  id: string;
  reason: string;
  /** A page's content conflicts: the ranges of top-level blocks (of its document) both sides changed differently. */
  blocks?: BlockConflict[];
  /** The page's front matter and title (in its markdown) were changed differently on both sides. */
  head?: boolean;
}

export interface MergeResult {
  conflicts: MergeConflict[];
  pages: PageInput[];
  files: FileInput[];
}

/** The three-way merge of one page's markdown (the block merge of ./block-merge.ts, run where its budgets hold). */
export type MergeBody = (base: string, ours: string, theirs: string) => Promise<BlockMergeResult>;

export interface MergeOptions {
  /** Merges a page's markdown both sides changed; without it, such a page is a conflict. */
  mergeBody?: MergeBody;
}

const decoder = new TextDecoder();
const encoder = new TextEncoder();

/**
 * One page present on both sides: each of its fields (kind, title, slug, metadata) is taken from the side that
 * changed it; a body both sides changed is merged block by block. Returns the page or the conflict's details.
 */
async function mergePage(
  store: Store,
  b: EditablePage | undefined,
  o: EditablePage,
  t: EditablePage,
  options: MergeOptions,
): Promise<{ page: EditablePage } | Omit<MergeConflict, 'kind' | 'id'>> {
  const fo = fingerprint(o);
  const ft = fingerprint(t);
  const fb = fingerprint(b);
  if (ft === fb || ft === fo) return { page: o };
  if (fo === fb) return { page: t };
  if (!b) return { reason: 'created on both sides with different content' };
  const fields = ['kind', 'title', 'slug', 'data'] as const;
  const page: EditablePage = { ...o };
  for (const field of fields) {
    const [vb, vo, vt] = [b[field], o[field], t[field]].map((v) => JSON.stringify(v ?? null));
    if (vt === vb || vt === vo) continue;
    if (vo !== vb) return { reason: `its ${field === 'data' ? 'metadata' : field} was changed on both sides` };
    (page as unknown as Record<string, unknown>)[field] = t[field];
  }
  if (t.bodyHash === b.bodyHash || t.bodyHash === o.bodyHash) return { page };
  if (o.bodyHash === b.bodyHash) return { page: { ...page, bodyHash: t.bodyHash } };
  if (!options.mergeBody || !b.bodyHash || !o.bodyHash || !t.bodyHash) return { reason: 'its content was changed on both sides' };
  const bodies = await store.blobs.getMany([b.bodyHash, o.bodyHash, t.bodyHash]);
  const text = (hash: string) => {
    const bytes = bodies.get(hash);
    if (!bytes) throw new Error(`page body blob ${hash} is missing from the store`);
    return decoder.decode(bytes);
  };
  const merged = await options.mergeBody(text(b.bodyHash), text(o.bodyHash), text(t.bodyHash));
  if (!merged.merged) {
    const where = merged.blocks.map(
      (c) => `primary blocks ${c.primary.from}–${c.primary.to - 1}, change request blocks ${c.changeRequest.from}–${c.changeRequest.to - 1}`,
    );
    if (merged.head) where.unshift('front matter and title');
    return { reason: `the same blocks were changed on both sides (${where.join('; ')})`, blocks: merged.blocks, ...(merged.head ? { head: true } : {}) };
  }
  return { page: { ...page, bodyHash: await store.blobs.put(encoder.encode(merged.text)) } };
}

/**
 * Three-way merge of `theirs` (a change request) into `ours` (the primary content) from their common `base`,
 * page by page and file by file. For each page, its fields (kind, title, slug, metadata) and its parent are
 * compared with the base on each side: a side that did not change one takes the other side's; both changing it
 * differently is a conflict, and so is one side deleting a page the other edited or moved. A page's markdown both
 * sides changed is merged block by block (`options.mergeBody`, ./block-merge.ts): edits of different blocks merge,
 * edits of the same block are a conflict naming the blocks. A page's position among its siblings is not compared
 * by index (siblings inserted or deleted shift it): the order of a parent's children is the side's that reordered
 * them (the primary's otherwise), with the other side's new or moved-in pages after their preceding sibling there.
 * A page whose parent the merge deletes, or moves that would make a cycle, are conflicts. Returns the merged tree,
 * or the conflicts (nothing of either side is written or lost: the merged page bodies are new blobs).
 */
export async function threeWayMerge(store: Store, baseId: string, oursId: string, theirsId: string, options: MergeOptions = {}): Promise<MergeResult> {
  const load = async (id: string): Promise<Side> => {
    const pages = toEditable(await store.revisions.pages(id));
    return { pages, flat: flat(pages), files: await store.revisions.files(id) };
  };
  const [base, ours, theirs] = await Promise.all([load(baseId), load(oursId), load(theirsId)]);
  const sides: Sides = { base, ours, theirs };
  const conflicts: MergeConflict[] = [];
  const kept = await mergePages(store, sides, options, conflicts);
  checkParents(kept, ours, conflicts);
  const files = mergeFiles(sides, conflicts);
  if (conflicts.length > 0) return { conflicts, pages: [], files: [] };
  return { conflicts, pages: toPageInputs(buildTree(sides, kept)), files: toFileInputs([...files.values()]) };
}

/** One revision's content: its page tree, the tree by page id, its files. */
interface Side {
  pages: EditablePage[];
  flat: Flat;
  files: FileRecord[];
}
interface Sides {
  base: Side;
  ours: Side;
  theirs: Side;
}

/** A merged page (content without children), its parent, and the sides it is on. */
interface Kept {
  page: EditablePage;
  parent: string | null;
  from: Array<'ours' | 'theirs'>;
}
type PageConflict = Omit<MergeConflict, 'kind' | 'id'>;

/** Each page of either side merged, per id kept; the conflicts are added to `conflicts`. */
async function mergePages(store: Store, { base, ours, theirs }: Sides, options: MergeOptions, conflicts: MergeConflict[]): Promise<Map<string, Kept>> {
  const kept = new Map<string, Kept>();
  const ids = new Set([...base.flat.keys(), ...ours.flat.keys(), ...theirs.flat.keys()]);
  for (const id of ids) {
    const one = await mergeEntry(store, base.flat.get(id), ours.flat.get(id), theirs.flat.get(id), options);
    if (one === null) continue;
    if ('page' in one) kept.set(id, one);
    else conflicts.push({ kind: 'page', id, ...one });
  }
  return kept;
}

/** One page id: its merged page and parent, a conflict, or null when it is deleted. */
async function mergeEntry(
  store: Store,
  b: Entry | undefined,
  o: Entry | undefined,
  t: Entry | undefined,
  options: MergeOptions,
): Promise<Kept | PageConflict | null> {
  if (!o && !t) return null; // deleted on both sides
  if (b && (!o || !t)) {
    // Deleted on one side: the deletion stands unless the other side edited or moved the page.
    const other = (o ?? t)!;
    const edited = fingerprint(other.page) !== fingerprint(b.page);
    const moved = other.parent !== b.parent;
    if (!edited && !moved) return null;
    const what = edited ? 'edited' : 'moved';
    return { reason: o ? `deleted in the change request, ${what} in the primary content` : `${what} in the change request, deleted in the primary content` };
  }
  // Present on both sides (or created on one or both).
  let page: EditablePage;
  if (o && t) {
    const one = await mergePage(store, b?.page, o.page, t.page, options);
    if (!('page' in one)) return one;
    page = one.page;
  } else page = (o ?? t)!.page;
  let parent: string | null;
  if (o && t) {
    if (t.parent === b?.parent || t.parent === o.parent) parent = o.parent;
    else if (o.parent === b?.parent) parent = t.parent;
    else return { reason: 'moved to different parents on both sides' };
  } else parent = (o ?? t)!.parent;
  return { page, parent, from: [...(o ? (['ours'] as const) : []), ...(t ? (['theirs'] as const) : [])] };
}

/** Every kept page needs a kept parent, and moves on both sides must not make a cycle. */
function checkParents(kept: Map<string, Kept>, ours: Side, conflicts: MergeConflict[]): void {
  const pageConflict = (id: string, reason: string) => conflicts.push({ kind: 'page', id, reason });
  for (const [id, entry] of kept) {
    if (entry.parent !== null && !kept.has(entry.parent)) {
      if (!conflicts.some((c) => c.id === entry.parent)) {
        const parentDeletedBy = ours.flat.has(entry.parent) ? 'the change request' : 'the primary content';
        pageConflict(id, `its parent page ${entry.parent} is deleted in ${parentDeletedBy}`);
      }
      continue;
    }
    const seen = new Set([id]);
    for (let p = entry.parent; p !== null; p = kept.get(p)?.parent ?? null) {
      if (seen.has(p)) {
        pageConflict(id, 'moves on both sides would put the page inside itself');
        break;
      }
      seen.add(p);
    }
  }
}

/** The merged files by id (the primary's, with the change request's changes); the conflicts are added to `conflicts`. */
function mergeFiles({ base, ours, theirs }: Sides, conflicts: MergeConflict[]): Map<string, FileRecord> {
  const bf = new Map(base.files.map((f) => [f.id, f]));
  const of = new Map(ours.files.map((f) => [f.id, f]));
  const tf = new Map(theirs.files.map((f) => [f.id, f]));
  const files = new Map(of);
  for (const id of new Set([...bf.keys(), ...tf.keys()])) {
    const fb = fileFingerprint(bf.get(id));
    const fo = fileFingerprint(of.get(id));
    const ft = fileFingerprint(tf.get(id));
    if (ft === fb || ft === fo) continue;
    if (fo !== fb) {
      conflicts.push({
        kind: 'file',
        id,
        reason: !tf.get(id)
          ? 'deleted in the change request, changed in the primary content'
          : !of.get(id)
            ? 'changed in the change request, deleted in the primary content'
            : 'changed on both sides',
      });
      continue;
    }
    const theirsFile = tf.get(id);
    if (theirsFile) files.set(id, theirsFile);
    else files.delete(id);
  }
  return files;
}

/**
 * The ids of the kept children of `parent`, ordered: the side's that reordered them (the primary's otherwise),
 * with the other side's new or moved-in pages after their preceding sibling there.
 */
function mergedChildren({ base, ours, theirs }: Sides, members: Set<string> | undefined, parent: string | null): string[] {
  if (!members) return [];
  const b = childrenOf(base, parent);
  const o = childrenOf(ours, parent);
  const t = childrenOf(theirs, parent);
  const [primary, secondary] = reordered(b, t) && !reordered(b, o) ? [t, o] : [o, t];
  const list = primary.filter((id) => members.has(id));
  const placed = new Set(list);
  secondary.forEach((id, i) => {
    if (!members.has(id) || placed.has(id)) return;
    let before = -1;
    for (let j = i - 1; j >= 0 && before < 0; j--) before = list.indexOf(secondary[j]!);
    list.splice(before + 1, 0, id);
    placed.add(id);
  });
  for (const id of members) if (!placed.has(id)) list.push(id);
  return list;
}

/** The merged page tree of the kept pages, each with its path. */
function buildTree(sides: Sides, kept: Map<string, Kept>): EditablePage[] {
  const { ours, theirs } = sides;
  // Children per parent, ordered as described above.
  const byParent = new Map<string | null, Set<string>>();
  for (const [id, entry] of kept) {
    const set = byParent.get(entry.parent) ?? new Set<string>();
    set.add(id);
    byParent.set(entry.parent, set);
  }
  // Paths: a page keeps the path it has on a side where it sits under the same path (its nearest document
  // ancestor's) with the same slug; otherwise (moved, renamed, or under a page whose path changed) a document's
  // path is recomputed from its slug. Groups and links keep theirs (the revision builder gives a group without one).
  const oursContext = contexts(ours.pages);
  const theirsContext = contexts(theirs.pages);
  const build = (parent: string | null, context: string): EditablePage[] =>
    mergedChildren(sides, byParent.get(parent), parent).map((id) => {
      const entry = kept.get(id)!;
      let path = entry.page.path;
      if (entry.page.kind === 'document') {
        const same = entry.from.find((side) => {
          const tree = side === 'ours' ? ours : theirs;
          return (side === 'ours' ? oursContext : theirsContext).get(id) === context && tree.flat.get(id)!.page.slug === entry.page.slug;
        });
        path = same ? (same === 'ours' ? ours : theirs).flat.get(id)!.page.path : context ? `${context}/${entry.page.slug ?? ''}` : (entry.page.slug ?? '');
      }
      const node: EditablePage = { ...entry.page, path, children: [] };
      node.children = build(id, entry.page.kind === 'document' ? (path ?? context) : context);
      return node;
    });
  return build(null, '');
}

/** For each page of a tree, the path its own path is under (its nearest document ancestor's; '' at the top). */
function contexts(pages: EditablePage[], out = new Map<string, string>(), context = ''): Map<string, string> {
  for (const page of pages) {
    out.set(page.id, context);
    contexts(page.children, out, page.kind === 'document' ? (page.path ?? context) : context);
  }
  return out;
}

/** A revision's content as a merge result (what merging a change request that is not behind gives). */
export async function contentOf(store: Store, revisionId: string): Promise<MergeResult> {
  const [pages, files] = await Promise.all([store.revisions.pages(revisionId), store.revisions.files(revisionId)]);
  return { conflicts: [], pages: toPageInputs(toEditable(pages)), files: toFileInputs(files) };
}

export function conflictError(conflicts: MergeConflict[]): ConflictError {
  const list = conflicts.map((c) => `${c.kind} ${c.id}: ${c.reason}`).join('; ');
  return new ConflictError(`the change request conflicts with the primary content: ${list}`, { conflicts });
}
