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
    if (padded) return;
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
