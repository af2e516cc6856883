import type { Math } from 'mdast-util-math';
import type { RootContent } from 'mdast';
import type { BlockConverter } from '../converter.js';
import type { DocumentBlock } from '../types.js';
import { DocumentInvalidError } from '../errors.js';

/** Display math (`$$` lines around TeX) ⇄ `math` (`formula`). */
export const mathBlock: BlockConverter = {
  name: 'math',
  types: ['math'],
  toDocument(node, ctx) {
    if (node.type !== 'math') return null;
    const block: DocumentBlock = { object: 'block', type: 'math', isVoid: true, data: { formula: node.value } };
    ctx.hint(block, { attrs: node.meta != null ? { meta: node.meta } : undefined });
    return block;
  },
  fromDocument(block, ctx, path) {
    const formula = block.data?.formula;
    if (typeof formula !== 'string') throw new DocumentInvalidError('math has a formula string', `${path}/data/formula`);
    const meta = ctx.hint(block)?.attrs?.meta;
    const math: Math = { type: 'math', meta: typeof meta === 'string' ? meta : null, value: formula };
    return math as RootContent;
  },
};
