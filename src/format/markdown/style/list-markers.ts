import type { Root, Nodes, List, ListItem } from 'mdast';
import type { Style } from '../types.js';

/** GitBook's rule: a list item whose blocks are separated by blank lines gets a "wide" marker (`*   `). */
export function ruleMarkerWidth(style: Style, markerLength: number, item: ListItem): number {
  const size = markerLength + 1;
  if (style.listItemIndent === 'tab' || (style.listItemIndent === 'mixed' && item.spread)) return Math.ceil(size / 4) * 4;
  return size;
}

/**
 * Record list syntax the file-level style does not predict: a list's marker character when it
 * differs from the file's bullet, an item's marker width when it differs from GitBook's rule,
 * and an ordered item's number when it is not the counted one.
 */
export function recordListMarkers(text: string, tree: Root, style: Style): void {
  const walk = (node: Nodes): void => {
    if (node.type === 'list') recordList(node);
    if ('children' in node) for (const c of node.children as Nodes[]) walk(c);
  };
  const recordList = (list: List): void => {
    let firstMarker: string | null = null;
    list.children.forEach((item, index) => {
      const off = item.position?.start.offset;
      if (off === undefined) return;
      const m = /^(?:([*+-])|(\d{1,9})([.)]))([ \t]*)/.exec(text.slice(off, off + 16));
      if (!m) return;
      const marker = m[1] ?? m[3]!;
      firstMarker ??= marker;
      // An item whose marker GitBook wrote right of the list's first one (`  * Modules…` after `*  **App modules**`:
      // a list nested under a text starting with a space, which a parser reads as items of the outer list).
      const shift = (item.position?.start.column ?? 0) - (list.position?.start.column ?? 0);
      if (index > 0 && shift >= 1 && shift <= 3) ((item.data ??= {}) as Record<string, unknown>).itemIndent = ' '.repeat(shift);
      const bulletText = m[1] ?? m[2]! + m[3]!;
      if (list.ordered) {
        const expected = (list.start ?? 1) + (style.incrementListMarker ? index : 0);
        if (Number(m[2]) !== expected || String(Number(m[2])) !== m[2])
          (item.data ??= {} as never as ListItem['data'] & object) && ((item.data as Record<string, unknown>).number = m[2]);
      }
      // GitBook's 2020 exporter wrote an item starting with a list on one line (`* - style`, `1. 1. If`).
      const first = item.children[0];
      if (first?.type === 'list' && first.position?.start.line === item.position?.start.line)
        ((item.data ??= {}) as Record<string, unknown>).listOnMarkerLine = true;
      const rest = text.slice(off + m[0].length, off + m[0].length + 1);
      if (rest === '\n' || rest === '' || m[4]!.includes('\t')) return;
      const width = bulletText.length + m[4]!.length;
      if (m[4]!.length > 4) return; // indented code inside the item: width is 1 space
      const expected = ruleMarkerWidth(style, bulletText.length, item);
      if (width !== expected) ((item.data ??= {}) as Record<string, unknown>).markerWidth = width;
      recordContentIndent(text, item, width);
    });
    const expectedMarker = list.ordered ? style.orderedDelimiter : null;
    if (firstMarker !== null && expectedMarker !== null && firstMarker !== expectedMarker) ((list.data ??= {}) as Record<string, unknown>).marker = firstMarker;
    if (firstMarker !== null && !list.ordered && firstMarker !== style.bullet) ((list.data ??= {}) as Record<string, unknown>).marker = firstMarker;
  };
  walk(tree);
}

/**
 * GitBook's 2018 exporter wrote a narrow marker (`* MSPS`) but indented the item's later blocks by four
 * (`    or MS/s`); the parse strips the extra spaces, so an item whose blocks after the first start
 * further right than its marker width (by less than a code indent) records that indentation.
 */
function recordContentIndent(text: string, item: ListItem, width: number): void {
  const second = item.children[1];
  const column = second?.position?.start.column;
  const line = second?.position?.start.line;
  if (!second || column === undefined || line === undefined || !item.position || line === item.position.start.line) return;
  const indent = column - item.position.start.column;
  if (indent <= width || indent >= width + 4) return;
  // Indented code would take the extra spaces as content; every later block must start at that column.
  const unfenced = (n: Nodes) => n.type === 'code' && n.position?.start.offset !== undefined && !/^[`~]/.test(text.slice(n.position.start.offset));
  if (item.children.some(unfenced)) return;
  if (item.children.slice(1).some((c) => c.position?.start.column !== column)) return;
  ((item.data ??= {}) as Record<string, unknown>).contentIndent = indent;
}
