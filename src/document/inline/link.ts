import type { Link, PhrasingContent } from 'mdast';
import type { InlineConverter } from '../converter.js';
import { NoDocumentForm } from '../converter.js';
import { urlToRef } from '../refs.js';
import type { DocumentInline, DocumentText } from '../types.js';

/** Links: `[text](url "title")` ⇄ inline `link` with a `ContentRef` (its text keeps the marks around it). */
export const linkInline: InlineConverter = {
  name: 'link',
  types: ['link'],
  toDocument(node, marks, ctx) {
    if (node.type !== 'link') return null;
    const nodes = node.children.flatMap((c) => ctx.inline(c, marks));
    if (nodes.some((n) => n.object === 'inline' && n.type !== 'inline-image')) throw new NoDocumentForm();
    const inline: DocumentInline = { object: 'inline', type: 'link', isVoid: false, data: { ref: urlToRef(node.url) }, nodes };
    if (nodes.length === 0) inline.nodes = [{ object: 'text', leaves: [] }];
    ctx.hint(inline, { attrs: node.title != null ? { title: node.title } : undefined });
    return inline;
  },
  fromDocument(inline, ctx, path) {
    const link: Link = { type: 'link', title: null, url: ctx.refToUrl(inline.data?.ref, `${path}/data/ref`), children: [] };
    const title = ctx.hint(inline)?.attrs?.title;
    if (typeof title === 'string') link.title = title;
    const children = ctx.phrasing(
      (inline.nodes ?? []).filter((n) => !(n.object === 'text' && (n as DocumentText).leaves.length === 0)),
      path,
    );
    link.children = children as Link['children'];
    return link as PhrasingContent;
  },
};
