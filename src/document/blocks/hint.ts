import type { BlockConverter } from '../converter.js';
import type { DocumentBlock } from '../types.js';
import { NoDocumentForm } from '../converter.js';
import { DocumentInvalidError } from '../errors.js';
import { attributesFor, keepTag, liquidBlock, liquidOf } from './liquid.js';

const STYLES = ['info', 'warning', 'danger', 'success'];

/** Hints: `{% hint style="info" icon="…" %}` … `{% endhint %}` ⇄ `hint` (`style`, `icon`). */
export const hintBlock: BlockConverter = {
  name: 'hint',
  types: ['hint'],
  toDocument(node, ctx) {
    const liquid = liquidOf(node, 'hint', ['style', 'icon']);
    if (!liquid) return null;
    const { style, icon } = liquid.values;
    if (!style || !STYLES.includes(style) || liquid.block.selfClosing) throw new NoDocumentForm();
    const block: DocumentBlock = {
      object: 'block',
      type: 'hint',
      data: { style, ...(icon !== undefined ? { icon } : {}) },
      nodes: ctx.blocks(liquid.block.children, 'hint'),
    };
    keepTag(block, liquid.block, ctx);
    return block;
  },
  fromDocument(block, ctx, path) {
    const style = block.data?.style;
    if (typeof style !== 'string' || !STYLES.includes(style)) throw new DocumentInvalidError(`hint style is one of ${STYLES.join(', ')}`, `${path}/data/style`);
    const icon = typeof block.data?.icon === 'string' ? block.data.icon : undefined;
    return liquidBlock('hint', attributesFor({ style, icon }, ['style', 'icon'], ctx.hint(block)?.attrs?.liquid), ctx.blocks(block.nodes, path));
  },
};
