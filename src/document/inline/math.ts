import type { InlineConverter } from '../converter.js';
import { NoDocumentForm } from '../converter.js';
import { DocumentInvalidError } from '../errors.js';

/** Inline math: `$$x$$` ⇄ inline `inline-math` (`formula`); marks around it have no document form. */
export const mathInline: InlineConverter = {
  name: 'inline-math',
  types: ['inline-math'],
  toDocument(node, marks) {
    if (node.type !== 'inlineMath') return null;
    if (marks.length > 0) throw new NoDocumentForm();
    return { object: 'inline', type: 'inline-math', isVoid: true, data: { formula: node.value } };
  },
  fromDocument(inline, _ctx, path) {
    const formula = inline.data?.formula;
    if (typeof formula !== 'string') throw new DocumentInvalidError('inline-math has a formula string', `${path}/data/formula`);
    return { type: 'inlineMath', value: formula };
  },
};
