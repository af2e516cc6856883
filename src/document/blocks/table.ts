import type { AlignType, PhrasingContent, Table, TableCell, TableRow } from 'mdast';
import { toString } from 'mdast-util-to-string';
import type { BlockConverter } from '../converter.js';
import { NoDocumentForm } from '../converter.js';
import { DocumentInvalidError } from '../errors.js';
import type { DocumentBlock, DocumentFragment } from '../types.js';

const ALIGN_OF: Record<string, 'left' | 'center' | 'right'> = { left: 'left', center: 'center', right: 'right' };
const orderIndex = (i: number) => `a${String(i).padStart(6, '0')}`;

/**
 * Pipe tables ⇄ `table`: one text column definition per column (title = header text, `textAlignment`), a grid
 * view, one record per body row whose values name the fragment holding the cell (one paragraph of text).
 * Header cells with formatting, and the exact alignment row, are kept with the block.
 */
export const tableBlock: BlockConverter = {
  name: 'table',
  types: ['table'],
  toDocument(node, ctx) {
    if (node.type !== 'table') return null;
    const [header, ...body] = node.children;
    if (!header) throw new NoDocumentForm();
    const width = Math.max(node.align?.length ?? 0, ...node.children.map((r) => r.children.length));
    const columns = Array.from({ length: width }, (_, i) => `c${i + 1}`);
    const definition: Record<string, unknown> = {};
    columns.forEach((id, i) => {
      const cell = header.children[i];
      definition[id] = { id, title: cell ? toString(cell) : '', type: 'text', textAlignment: ALIGN_OF[node.align?.[i] ?? ''] ?? 'left' };
    });
    const records: Record<string, unknown> = {};
    const fragments: DocumentFragment[] = [];
    body.forEach((row, r) => {
      if (row.data && Object.keys(row.data).length > 0) throw new NoDocumentForm();
      const values: Record<string, string> = {};
      row.children.forEach((cell, c) => {
        if (cell.data && Object.keys(cell.data).length > 0) throw new NoDocumentForm();
        const fragment = `r${r + 1}-${columns[c]}`;
        values[columns[c]!] = fragment;
        fragments.push({
          object: 'fragment',
          fragment,
          type: 'table-cell',
          nodes: [{ object: 'block', type: 'paragraph', data: {}, nodes: ctx.phrasing(cell.children) }],
        });
      });
      records[`r${r + 1}`] = { orderIndex: orderIndex(r), values };
    });
    const block: DocumentBlock = {
      object: 'block',
      type: 'table',
      isVoid: true,
      data: { view: { type: 'grid', columns, hideHeader: false }, records, definition },
      fragments,
    };
    const plainHeader = header.children.every((c) => c.children.every((p) => p.type === 'text'));
    ctx.hint(block, {
      attrs: {
        align: node.align ?? null,
        ...(plainHeader ? {} : { header: header.children }),
        cells: node.children.map((r) => r.children.length),
        ...(header.data ? { headerData: header.data } : {}),
      },
    });
    return block;
  },
  fromDocument(block, ctx, path) {
    const data = (block.data ?? {}) as { view?: { columns?: unknown }; records?: Record<string, unknown>; definition?: Record<string, unknown> };
    const columns = data.view?.columns;
    if (!Array.isArray(columns) || !columns.every((c) => typeof c === 'string'))
      throw new DocumentInvalidError('a table view lists its columns', `${path}/data/view/columns`);
    const definition = data.definition ?? {};
    const attrs = ctx.hint(block)?.attrs ?? {};
    const fragments = new Map((block.fragments ?? []).map((f) => [f.fragment, f]));
    const titles = columns.map((id) => {
      const d = definition[id] as { title?: unknown } | undefined;
      return typeof d?.title === 'string' ? d.title : '';
    });
    const align = columns.map((id) => {
      const a = (definition[id] as { textAlignment?: unknown } | undefined)?.textAlignment;
      return a === 'center' || a === 'right' ? a : 'left';
    });
    const keptAlign = attrs.align as AlignType[] | null | undefined;
    const tableAlign: AlignType[] =
      Array.isArray(keptAlign) && keptAlign.length === align.length && keptAlign.every((a, i) => (ALIGN_OF[a ?? ''] ?? 'left') === align[i])
        ? keptAlign
        : align.map((a) => (a === 'left' ? null : a));
    const keptHeader = attrs.header as TableCell[] | undefined;
    const headerCells: TableCell[] =
      Array.isArray(keptHeader) && keptHeader.length === titles.length && keptHeader.every((c, i) => toString(c) === titles[i])
        ? structuredClone(keptHeader)
        : titles.map((t) => ({ type: 'tableCell', children: t === '' ? [] : [{ type: 'text', value: t }] }));
    const counts = Array.isArray(attrs.cells) ? (attrs.cells as number[]) : [];
    const header: TableRow = { type: 'tableRow', children: headerCells.slice(0, counts[0] ?? headerCells.length) };
    if (attrs.headerData) header.data = structuredClone(attrs.headerData) as TableRow['data'];
    const records = Object.entries(data.records ?? {}).map(([id, r]) => {
      const rec = r as { orderIndex?: unknown; values?: Record<string, unknown> };
      return { id, order: typeof rec.orderIndex === 'string' ? rec.orderIndex : '', values: rec.values ?? {} };
    });
    records.sort((a, b) => (a.order < b.order ? -1 : a.order > b.order ? 1 : a.id < b.id ? -1 : 1));
    const rows: TableRow[] = records.map((rec, r) => {
      const cells: TableCell[] = columns.map((id) => {
        const value = rec.values[id];
        const at = `${path}/data/records/${rec.id}/values/${id}`;
        if (value === undefined || value === null) return { type: 'tableCell', children: [] };
        if (typeof value === 'number' || typeof value === 'boolean') return { type: 'tableCell', children: [{ type: 'text', value: String(value) }] };
        if (typeof value !== 'string') throw new DocumentInvalidError('a table value is a fragment name, a number or a boolean', at);
        const fragment = fragments.get(value);
        if (!fragment) throw new DocumentInvalidError(`no fragment ${JSON.stringify(value)}`, at);
        const children: PhrasingContent[] = [];
        (fragment.nodes ?? []).forEach((n, i) => {
          if (i > 0) children.push({ type: 'break' });
          children.push(...ctx.phrasing((n as DocumentBlock).nodes, `${at}/nodes/${i}`));
        });
        return { type: 'tableCell', children };
      });
      const count = counts[r + 1];
      let used = cells.length;
      if (typeof count === 'number' && count <= cells.length && cells.slice(count).every((c) => c.children.length === 0)) used = count;
      else while (used > 0 && !(columns[used - 1]! in rec.values)) used--;
      return { type: 'tableRow', children: cells.slice(0, Math.max(used, 1)) };
    });
    return { type: 'table', align: tableAlign, children: [header, ...rows] } as Table;
  },
};
