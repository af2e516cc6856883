import type { BlockConverter } from '../converter.js';
import { DocumentInvalidError } from '../errors.js';
import { booleanAttribute, booleanText } from './liquid.js';
import { voidFromDocument, voidToDocument } from './void-tags.js';

/** Embeds: `{% embed url="…" fullWidth="…" %}` ⇄ `embed` (`url`, `fullWidth`); a caption body is kept with the block. */
export const embedBlock: BlockConverter = {
  name: 'embed',
  types: ['embed'],
  toDocument: (node, ctx) =>
    voidToDocument(node, ctx, 'embed', ['url', 'fullWidth'], (v) => {
      if (v.url === undefined) return null;
      const fullWidth = booleanAttribute(v.fullWidth);
      return { type: 'embed', data: { url: v.url, ...(fullWidth !== undefined ? { fullWidth } : {}) } };
    }),
  fromDocument(block, ctx, path) {
    const url = block.data?.url;
    if (typeof url !== 'string') throw new DocumentInvalidError('embed has a url string', `${path}/data/url`);
    return voidFromDocument(block, ctx, 'embed', ['url', 'fullWidth'], { url, fullWidth: booleanText(block.data?.fullWidth) }, true);
  },
};
