import type { Image } from 'mdast';
import type { InlineConverter } from '../converter.js';
import type { DocumentInline } from '../types.js';
import { NoDocumentForm } from '../converter.js';

/** Images in text: `![alt](src "title")` ⇄ inline `inline-image` (`ref`, `alt`). */
export const imageInline: InlineConverter = {
  name: 'inline-image',
  types: ['inline-image'],
  toDocument(node, marks, ctx) {
    if (node.type !== 'image') return null;
    if (marks.length > 0) throw new NoDocumentForm();
    const inline: DocumentInline = {
      object: 'inline',
      type: 'inline-image',
      isVoid: true,
      data: { ref: { kind: 'url', url: node.url }, ...(node.alt ? { alt: node.alt } : {}) },
    };
    ctx.hint(inline, { attrs: { ...(node.title != null ? { title: node.title } : {}), ...(node.alt === '' ? { alt: '' } : {}) } });
    return inline;
  },
  fromDocument(inline, ctx, path) {
    const attrs = ctx.hint(inline)?.attrs;
    const image: Image = { type: 'image', title: null, url: ctx.refToUrl(inline.data?.ref, `${path}/data/ref`), alt: null };
    const alt = inline.data?.alt;
    if (typeof alt === 'string') image.alt = alt;
    else if (attrs?.alt === '') image.alt = '';
    if (typeof attrs?.title === 'string') image.title = attrs.title;
    return image;
  },
};
