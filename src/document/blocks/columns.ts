import type { BlockConverter } from '../converter.js';
import { NoDocumentForm } from '../converter.js';
import { containerFromDocument, containerToDocument, type ItemMapping } from './container.js';

const ALIGN = ['top', 'middle', 'bottom'];

const columns: ItemMapping = {
  tag: 'columns',
  itemTag: 'column',
  type: 'columns',
  itemType: 'column',
  order: ['width', 'valign'],
  toData(v) {
    const out: Record<string, unknown> = {};
    if (v.width !== undefined) {
      const m = /^(\d+(?:\.\d+)?)%$/.exec(v.width);
      if (!m || String(Number(m[1])) !== m[1]) throw new NoDocumentForm();
      out.width = { unit: '%', value: Number(m[1]) };
    }
    if (v.valign !== undefined) {
      if (!ALIGN.includes(v.valign)) throw new NoDocumentForm();
      out.verticalAlignment = v.valign;
    }
    return out;
  },
  fromData(d) {
    const w = d.width as { unit?: unknown; value?: unknown } | number | undefined;
    const width = typeof w === 'number' ? `${w}%` : w && w.unit === '%' && typeof w.value === 'number' ? `${w.value}%` : undefined;
    const valign = typeof d.verticalAlignment === 'string' && ALIGN.includes(d.verticalAlignment) ? d.verticalAlignment : undefined;
    return { width, valign };
  },
};

/** Columns: `{% columns %}` / `{% column width="50%" valign="middle" %}` ⇄ `columns` of `column` (`width`, `verticalAlignment`). */
export const columnsBlock: BlockConverter = {
  name: 'columns',
  types: ['columns'],
  toDocument: (node, ctx) => containerToDocument(node, ctx, columns),
  fromDocument: (block, ctx, path) => containerFromDocument(block, ctx, path, columns),
};
