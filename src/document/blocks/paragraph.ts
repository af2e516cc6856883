import type { Paragraph } from 'mdast';
import type { BlockConverter } from '../converter.js';

/** Paragraphs ⇄ `paragraph` (text, marks, inlines). */
export const paragraphBlock: BlockConverter = {
  name: 'paragraph',
  types: ['paragraph'],
  toDocument(node, ctx) {
    if (node.type !== 'paragraph') return null;
    return { object: 'block', type: 'paragraph', data: {}, nodes: ctx.phrasing(node.children) };
  },
  fromDocument(block, ctx, path) {
    return { type: 'paragraph', children: ctx.phrasing(block.nodes, path) } as Paragraph;
  },
};
