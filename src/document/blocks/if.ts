import type { BlockConverter } from '../converter.js';
import { NoDocumentForm } from '../converter.js';
import { DocumentInvalidError } from '../errors.js';
import { liquidBlock } from './liquid.js';

/** Conditional content: `{% if expression %}` … `{% endif %}` (no `elsif`/`else`) ⇄ `if` (`expression`). */
export const ifBlock: BlockConverter = {
  name: 'if',
  types: ['if'],
  toDocument(node, ctx) {
    if (node.type !== 'liquidBlock' || node.name !== 'if') return null;
    const [expression, ...rest] = node.attributes;
    if (!expression || rest.length > 0 || expression.name !== null || expression.quote !== '' || node.selfClosing) throw new NoDocumentForm();
    if (node.children.some((c) => (c.type === 'liquidBlock' || c.type === 'liquidTag') && ['elsif', 'elseif', 'else'].includes(c.name)))
      throw new NoDocumentForm();
    return { object: 'block', type: 'if', data: { expression: expression.value }, nodes: ctx.blocks(node.children, 'if') };
  },
  fromDocument(block, ctx, path) {
    const expression = block.data?.expression;
    if (typeof expression !== 'string' || expression.trim() === '' || /%\}/.test(expression))
      throw new DocumentInvalidError('if has an expression', `${path}/data/expression`);
    return liquidBlock('if', [{ name: null, value: expression, quote: '' }], ctx.blocks(block.nodes, path));
  },
};
