import { parsePageFile } from '../format/index.js';

/**
 * A page's markdown cut at the top-level blocks of its document (`src/document/`: the document's `nodes` are the
 * page body's top-level markdown blocks, after the front matter and the title). `head` is the front matter and the
 * title (with what follows them up to the first block); each block runs up to the next one, so the pieces put back
 * together give the page byte for byte.
 */
export interface PageBlocks {
  head: string;
  blocks: string[];
  /** Each block's markdown node type (`paragraph`, `code`, `liquidBlock`…), as `blocks`. */
  types: string[];
  /** A byte-order mark and CRLF line endings are taken off before cutting, and put back by `joinBlocks`. */
  bom: boolean;
  crlf: boolean;
}

/** Cuts a page's markdown into its blocks. A page whose blocks have no source position is one block. */
export function splitBlocks(page: string): PageBlocks {
  let text = page;
  const bom = text.startsWith('\uFEFF');
  if (bom) text = text.slice(1);
  // parsePageFile reads a page whose every line ends in CRLF as LF (and then positions count LF only).
  const crlf = /\r\n/.test(text) && !/(^|[^\r])\n/.test(text);
  if (crlf) text = text.replace(/\r\n/g, '\n');
  const parsed = parsePageFile(text);
  const starts: number[] = [];
  let lastEnd = 0;
  for (const node of parsed.document.children) {
    const start = node.position?.start.offset;
    const end = node.position?.end.offset;
    if (start === undefined || end === undefined || start < lastEnd || end < start || (node.data as { opaque?: boolean } | undefined)?.opaque) {
      return { head: '', blocks: text === '' ? [] : [text], types: text === '' ? [] : ['page'], bom, crlf };
    }
    starts.push(start);
    lastEnd = end;
  }
  if (starts.length === 0) return { head: text, blocks: [], types: [], bom, crlf };
  const blocks = starts.map((start, i) => text.slice(start, starts[i + 1] ?? text.length));
  return { head: text.slice(0, starts[0]), blocks, types: parsed.document.children.map((n) => n.type), bom, crlf };
}

export function joinBlocks(page: Pick<PageBlocks, 'head' | 'blocks' | 'bom' | 'crlf'>): string {
  const text = page.head + page.blocks.join('');
  return (page.bom ? '\uFEFF' : '') + (page.crlf ? text.replace(/\n/g, '\r\n') : text);
}

/** Pairs of equal items of `a` and `b` in order (a longest common subsequence): `match[i]` is the index in `b` of `a[i]`, or -1. */
export function lcsMatch(a: readonly string[], b: readonly string[]): number[] {
  const match = new Array<number>(a.length).fill(-1);
  // The common head and tail first: an edit touches a few blocks of a page, so the table is small.
  let lo = 0;
  while (lo < a.length && lo < b.length && a[lo] === b[lo]) match[lo] = lo++;
  let ha = a.length;
  let hb = b.length;
  while (ha > lo && hb > lo && a[ha - 1] === b[hb - 1]) match[--ha] = --hb;
  const n = ha - lo;
  const m = hb - lo;
  if (n === 0 || m === 0) return match;
  // lengths[i][j]: LCS of a[lo+i..ha) and b[lo+j..hb).
  const width = m + 1;
  const lengths = new Uint32Array((n + 1) * width);
  for (let i = n - 1; i >= 0; i--)
    for (let j = m - 1; j >= 0; j--)
      lengths[i * width + j] =
        a[lo + i] === b[lo + j] ? lengths[(i + 1) * width + j + 1]! + 1 : Math.max(lengths[(i + 1) * width + j]!, lengths[i * width + j + 1]!);
  for (let i = 0, j = 0; i < n && j < m;) {
    if (a[lo + i] === b[lo + j]) {
      match[lo + i] = lo + j;
      i++;
      j++;
    } else if (lengths[(i + 1) * width + j]! >= lengths[i * width + j + 1]!) i++;
    else j++;
  }
  return match;
}

/** A range of top-level blocks (`from` inclusive, `to` exclusive) in the primary content's and the change request's page. */
export interface BlockConflict {
  primary: { from: number; to: number };
  changeRequest: { from: number; to: number };
}

export type BlockMergeResult =
  { merged: true; text: string } | { merged: false; head: boolean; blocks: BlockConflict[]; primaryBlocks: number; changeRequestBlocks: number };

/** Three-way choice of one value: the side that changed it from the base, or a conflict (undefined). */
function pick(base: string | undefined, ours: string | undefined, theirs: string | undefined): { value: string | undefined } | undefined {
  if (theirs === base || theirs === ours) return { value: ours };
  if (ours === base) return { value: theirs };
  return undefined;
}

const same = (a: readonly string[], b: readonly string[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * Three-way merge of a page's markdown, block by block: `ours` is the primary content's page, `theirs` the change
 * request's, `base` the one both started from. Blocks that only one side changed (edited, inserted, deleted) take
 * that side's; blocks both sides changed alike are kept once; blocks both changed differently are a conflict, reported
 * as ranges of blocks of each side (nothing is merged then). The front matter and title merge as one more piece.
 */
export function mergePageText(base: string, ours: string, theirs: string): BlockMergeResult {
  if (ours === theirs || theirs === base) return { merged: true, text: ours };
  if (ours === base) return { merged: true, text: theirs };
  const [b, o, t] = [splitBlocks(base), splitBlocks(ours), splitBlocks(theirs)];
  const head = pick(b.head, o.head, t.head);
  const mo = lcsMatch(b.blocks, o.blocks);
  const mt = lcsMatch(b.blocks, t.blocks);
  const out: string[] = [];
  const conflicts: BlockConflict[] = [];
  let [i, j, k] = [0, 0, 0];
  while (i <= b.blocks.length) {
    // The next base block both sides kept (a stable point), or the end.
    let s = i;
    while (s < b.blocks.length && (mo[s]! < 0 || mt[s]! < 0)) s++;
    const [oEnd, tEnd] = s < b.blocks.length ? [mo[s]!, mt[s]!] : [o.blocks.length, t.blocks.length];
    const chunk = { b: b.blocks.slice(i, s), o: o.blocks.slice(j, oEnd), t: t.blocks.slice(k, tEnd) };
    if (same(chunk.t, chunk.b) || same(chunk.t, chunk.o)) out.push(...chunk.o);
    else if (same(chunk.o, chunk.b)) out.push(...chunk.t);
    else if (chunk.o.length === chunk.b.length && chunk.t.length === chunk.b.length) {
      // Blocks replaced in place on both sides: merged block by block (edits of neighbouring blocks do not conflict).
      chunk.b.forEach((base1, n) => {
        const one = pick(base1, chunk.o[n], chunk.t[n]);
        if (one) out.push(one.value!);
        else conflicts.push({ primary: { from: j + n, to: j + n + 1 }, changeRequest: { from: k + n, to: k + n + 1 } });
      });
    } else conflicts.push({ primary: { from: j, to: oEnd }, changeRequest: { from: k, to: tEnd } });
    if (s >= b.blocks.length) break;
    out.push(b.blocks[s]!);
    [i, j, k] = [s + 1, oEnd + 1, tEnd + 1];
  }
  if (!head || conflicts.length > 0)
    return { merged: false, head: !head, blocks: conflicts, primaryBlocks: o.blocks.length, changeRequestBlocks: t.blocks.length };
  const bom = pick(String(b.bom), String(o.bom), String(t.bom))?.value === 'true';
  const crlf = pick(String(b.crlf), String(o.crlf), String(t.crlf))?.value === 'true';
  return { merged: true, text: joinBlocks({ head: head.value!, blocks: out, bom, crlf }) };
}
