import type { BlockConverter } from '../converter.js';

/** Thematic breaks (`***`, `---`) ⇄ `divider`. */
export const dividerBlock: BlockConverter = {
  name: 'divider',
  types: ['divider'],
  toDocument(node) {
    return node.type === 'thematicBreak' ? { object: 'block', type: 'divider', isVoid: true, data: {} } : null;
  },
  fromDocument() {
    return { type: 'thematicBreak' };
  },
};
