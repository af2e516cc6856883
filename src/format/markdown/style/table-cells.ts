import type { Root, Nodes, Table } from 'mdast';
import type { Style } from '../types.js';

export interface CellSpaceData {
  /** Spaces between the cell's pipes and its content, when not one on each side (unpadded tables). */
  cellSpace?: [string, string];
}

/**
 * GitBook writes an unpadded (legacy) table cell as `| ` + its text + ` |`, and a text ending with a
 * space keeps it (`| … clock sync.  |`); the parse trims cells, so those spaces are recorded per cell.
 */
export function recordCellSpacing(text: string, tree: Root, style: Style): void {
  const walk = (node: Nodes): void => {
    if (node.type === 'table') record(node);
    if ('children' in node) for (const c of node.children as Nodes[]) walk(c);
  };
  const record = (table: Table): void => {
    const padded = (table.data as { padded?: boolean } | undefined)?.padded ?? style.tablePadding;
    if (padded) return recordPaddedCells(text, table);
    for (const row of table.children) {
      for (const cell of row.children) {
        const start = cell.position?.start.offset;
        const end = cell.position?.end.offset;
        const first = cell.children[0]?.position?.start.offset;
        const last = cell.children.at(-1)?.position?.end.offset;
        if (start === undefined || end === undefined || first === undefined || last === undefined) continue;
        const lead = text.slice(start, first).replace(/^\|/, '');
        const trail = text.slice(last, end).replace(/\|$/, '');
        if (!/^ +$/.test(lead) || !/^ +$/.test(trail) || (lead === ' ' && trail === ' ')) continue;
        ((cell.data ??= {}) as CellSpaceData).cellSpace = [lead, trail];
      }
    }
  };
  walk(tree);
}

/**
 * A padded table: GitBook pads every cell of a column to the column's width, counting spaces at the
 * start or end of a cell's text (`|  TELEM 2    |`, `` `BANK_ACCOUNT`  | ``). Spaces after the first
 * at a cell's start are its own (left-aligned or unaligned columns); spaces at its end cannot be told
 * from padding, so when the delimiter row is wider than every cell, the widest cell gets the difference.
 */
function recordPaddedCells(text: string, table: Table): void {
  const headerEnd = table.children[0]?.position?.end.offset;
  if (headerEnd === undefined) return;
  const delimLine = text.slice(headerEnd + 1, text.indexOf('\n', headerEnd + 1) >>> 0);
  const widths = delimLine
    .split('|')
    .slice(1, -1)
    .map((c) => c.trim().length);
  widths.forEach((width, col) => {
    if ((table.align?.[col] ?? null) !== null && table.align?.[col] !== 'left') return;
    let widest: { cell: Table['children'][number]['children'][number]; lead: number; len: number } | null = null;
    for (const row of table.children) {
      const cell = row.children[col];
      const start = cell?.position?.start.offset;
      const first = cell?.children[0]?.position?.start.offset;
      const last = cell?.children.at(-1)?.position?.end.offset;
      if (!cell || start === undefined || first === undefined || last === undefined) continue;
      const lead = /^\|? +$/.test(text.slice(start, first)) ? text.slice(start, first).replace(/^\|/, '').length - 1 : 0;
      if (lead > 0) ((cell.data ??= {}) as CellSpaceData).cellSpace = [' '.repeat(lead + 1), ' '];
      if (!widest || lead + last - first > widest.lead + widest.len) widest = { cell, lead, len: last - first };
    }
    const extra = widest ? width - (widest.lead + widest.len) : 0;
    if (!widest || extra <= 0 || width <= 3) return;
    ((widest.cell.data ??= {}) as CellSpaceData).cellSpace = [' '.repeat(widest.lead + 1), ' '.repeat(extra + 1)];
  });
}
