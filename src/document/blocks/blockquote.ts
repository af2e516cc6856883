import type { Blockquote } from 'mdast';
import type { BlockConverter } from '../converter.js';

/** Block quotes ⇄ `blockquote`. */
export const blockquoteBlock: BlockConverter = {
  name: 'blockquote',
  types: ['blockquote'],
  toDocument(node, ctx) {
    if (node.type !== 'blockquote') return null;
    return { object: 'block', type: 'blockquote', data: {}, nodes: ctx.blocks(node.children, 'blockquote') };
  },
  fromDocument(block, ctx, path) {
    return { type: 'blockquote', children: ctx.blocks(block.nodes, path) } as Blockquote;
  },
};
