import type { List, ListItem } from 'mdast';
import type { BlockConverter } from '../converter.js';
import { DocumentInvalidError } from '../errors.js';
import type { DocumentBlock } from '../types.js';

/**
 * Lists ⇄ `list-ordered` (`start`), `list-unordered`, `list-tasks` (every item checked or not), each of
 * `list-item` blocks. Loose ("spread") lists keep that in their hints.
 */
export const listBlock: BlockConverter = {
  name: 'list',
  types: ['list-ordered', 'list-unordered', 'list-tasks'],
  toDocument(node, ctx) {
    if (node.type !== 'list') return null;
    const tasks = !node.ordered && node.children.length > 0 && node.children.every((i) => typeof i.checked === 'boolean');
    const nodes = node.children.map((item) => {
      const element: DocumentBlock = {
        object: 'block',
        type: 'list-item',
        data: tasks ? { checked: item.checked } : {},
        nodes: ctx.blocks(item.children, 'list-item'),
      };
      ctx.hint(element, { data: item.data as Record<string, unknown> | undefined, attrs: item.spread ? { spread: true } : undefined });
      return element;
    });
    const type = node.ordered ? 'list-ordered' : tasks ? 'list-tasks' : 'list-unordered';
    const block: DocumentBlock = { object: 'block', type, data: node.ordered ? { start: node.start ?? 1 } : {}, nodes };
    ctx.hint(block, { attrs: node.spread ? { spread: true } : undefined });
    return block;
  },
  fromDocument(block, ctx, path) {
    const ordered = block.type === 'list-ordered';
    const start = block.data?.start;
    const list: List = {
      type: 'list',
      ordered,
      start: ordered ? (typeof start === 'number' && Number.isInteger(start) && start >= 0 ? start : 1) : null,
      spread: ctx.hint(block)?.attrs?.spread === true,
      children: [],
    };
    list.children = (block.nodes ?? []).map((n, i) => {
      const at = `${path}/nodes/${i}`;
      const item = n as DocumentBlock;
      if (item?.object !== 'block' || item.type !== 'list-item') throw new DocumentInvalidError('a list holds list-item blocks', at);
      const h = ctx.hint(item);
      const checked = item.data?.checked;
      const out: ListItem = {
        type: 'listItem',
        spread: h?.attrs?.spread === true,
        checked: block.type === 'list-tasks' ? checked === true : null,
        children: ctx.blocks(item.nodes, at) as ListItem['children'],
      };
      if (h?.data) out.data = structuredClone(h.data);
      return out;
    });
    return list;
  },
};
