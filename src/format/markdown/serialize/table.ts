import type { Handle, State, Info } from 'mdast-util-to-markdown';
import { gfmTableToMarkdown } from 'mdast-util-gfm-table';
import type { Table, Parents } from 'mdast';
import type { Style } from '../types.js';
import { relaxTildes, tree } from './delimiter-escapes.js';
import { verifyHtmlContent } from './html-context.js';
import { verifyPlainDelimiters } from './plain-delimiters.js';
import type { CellSpaceData } from '../style/table-cells.js';

/**
 * Pipe tables. Current GitBook pads cells; the legacy exporter wrote unpadded rows with a
 * `| :--- |` delimiter row (three dashes, colons for the alignment).
 */
/** A cell re-parsed as a one-cell table (alone, `<p>…` would start an HTML block). */
const cellTree = (cell: string): string => tree(`| ${cell} |\n| --- |`);

export function tableHandler(style: Style): Handle {
  type H = (node: Table, parent: Parents | undefined, state: State, info: Info) => string;
  const padded = gfmTableToMarkdown({ tablePipeAlign: true, tableCellPadding: true }).handlers!.table as unknown as H;
  const unpadded = gfmTableToMarkdown({ tablePipeAlign: false, tableCellPadding: true }).handlers!.table as unknown as H;
  return (node: Table, parent: Parents | undefined, state: State, info: Info) => {
    const own = (node.data as { padded?: boolean } | undefined)?.padded;
    const pad = own ?? style.tablePadding;
    // Cells are serialized by the GFM handler through `containerPhrasing`: relax their escapes there,
    // before the column widths are computed.
    const containerPhrasing = state.containerPhrasing;
    state.containerPhrasing = function (this: State, ...args: Parameters<State['containerPhrasing']>) {
      if (args[0].type !== 'tableCell') return containerPhrasing.apply(this, args);
      const space = (args[0].data as CellSpaceData | undefined)?.cellSpace;
      const cell = relaxTildes(
        verifyPlainDelimiters(this, cellTree, () => verifyHtmlContent(this, cellTree, () => containerPhrasing.apply(this, args))),
        style,
        cellTree,
      );
      // The spaces of a cell beyond the one the handler writes on each side (padded: counted in the column width).
      return space && cell !== '' ? space[0].slice(1) + cell + space[1].slice(1) : cell;
    } as State['containerPhrasing'];
    let out: string;
    try {
      out = (pad ? padded : unpadded)(node, parent, state, info);
    } finally {
      state.containerPhrasing = containerPhrasing;
    }
    if (pad) return out;
    if (!style.tableDelimiterLegacy) return out;
    const lines = out.split('\n');
    // As many delimiter cells as header cells: extra cells in a body row (a source row split by a
    // stray `|`) must not widen the delimiter row, or the header no longer matches it.
    const columns = node.align?.length || (node.children[0]?.children.length ?? 0);
    const cells: string[] = [];
    for (let i = 0; i < columns; i++) {
      const a = node.align?.[i];
      cells.push(a === 'left' ? ':---' : a === 'right' ? '---:' : a === 'center' ? ':---:' : '---');
    }
    lines[1] = `| ${cells.join(' | ')} |`;
    for (let i = 0; i < lines.length; i++) {
      if (i === 1) continue;
      let line = lines[i]!;
      let prev: string;
      do {
        prev = line;
        line = line.replace(/(^|[^\\])\| \|/, '$1|  |');
      } while (line !== prev);
      lines[i] = line;
    }
    return lines.join('\n');
  };
}
