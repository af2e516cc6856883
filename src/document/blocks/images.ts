import type { Image, Paragraph } from 'mdast';
import type { BlockConverter } from '../converter.js';
import { DocumentInvalidError } from '../errors.js';
import type { DocumentBlock } from '../types.js';

/** A paragraph that is one image alone (`![alt](src "title")`) ⇄ `images` of one `image` (`ref`, `alt`). */
export const imagesBlock: BlockConverter = {
  name: 'images',
  types: ['images'],
  toDocument(node, ctx) {
    if (node.type !== 'paragraph' || node.children.length !== 1 || node.children[0]!.type !== 'image') return null;
    const img = node.children[0] as Image;
    const image: DocumentBlock = {
      object: 'block',
      type: 'image',
      isVoid: true,
      data: { ref: { kind: 'url', url: img.url }, ...(img.alt ? { alt: img.alt } : {}) },
      fragments: [],
    };
    ctx.hint(image, { attrs: { ...(img.title != null ? { title: img.title } : {}), ...(img.alt === '' ? { alt: '' } : {}) } });
    return { object: 'block', type: 'images', isVoid: false, data: {}, nodes: [image] };
  },
  fromDocument(block, ctx, path) {
    const children = (block.nodes ?? []).map((n, i): Image => {
      const at = `${path}/nodes/${i}`;
      const image = n as DocumentBlock;
      if (image?.object !== 'block' || image.type !== 'image') throw new DocumentInvalidError('images holds image blocks', at);
      const attrs = ctx.hint(image)?.attrs;
      const alt = image.data?.alt;
      return {
        type: 'image',
        url: ctx.refToUrl(image.data?.ref, `${at}/data/ref`),
        title: typeof attrs?.title === 'string' ? attrs.title : null,
        alt: typeof alt === 'string' ? alt : attrs?.alt === '' ? '' : null,
      };
    });
    return { type: 'paragraph', children } as Paragraph;
  },
};
