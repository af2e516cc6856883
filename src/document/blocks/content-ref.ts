import type { BlockConverter } from '../converter.js';
import { urlToRef } from '../refs.js';
import { voidFromDocument, voidToDocument } from './void-tags.js';

/** Page links: `{% content-ref url="…" %}` + link + `{% endcontent-ref %}` ⇄ `content-ref` (`ref`); the link line is kept. */
export const contentRefBlock: BlockConverter = {
  name: 'content-ref',
  types: ['content-ref'],
  toDocument: (node, ctx) =>
    voidToDocument(node, ctx, 'content-ref', ['url'], (v) => (v.url === undefined ? null : { type: 'content-ref', data: { ref: urlToRef(v.url) } })),
  fromDocument(block, ctx, path) {
    const url = ctx.refToUrl(block.data?.ref, `${path}/data/ref`);
    const node = voidFromDocument(block, ctx, 'content-ref', ['url'], { url }, false);
    if (node.type === 'liquidBlock' && node.children.length === 0)
      node.children = [{ type: 'paragraph', children: [{ type: 'link', url, title: null, children: [{ type: 'text', value: url }] }] }];
    return node;
  },
};
