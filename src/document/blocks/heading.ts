import type { Heading } from 'mdast';
import type { BlockConverter } from '../converter.js';
import type { DocumentBlock } from '../types.js';

const ANCHOR = /^<a href="#([-a-z0-9.+_]+)" id="\1"><\/a>$/;
const OPEN = /^<a href="#([-a-z0-9.+_]+)" id="\1">$/;

/**
 * Headings ⇄ `heading-1/2/3` (levels 4–6 are `heading-3` in a document; the level is kept). A custom anchor
 * written as GitBook does (`## Title <a href="#x" id="x"></a>`) is the heading's `data.id`.
 */
export const headingBlock: BlockConverter = {
  name: 'heading',
  types: ['heading-1', 'heading-2', 'heading-3'],
  toDocument(node, ctx) {
    if (node.type !== 'heading') return null;
    const children = [...node.children];
    const last = children[children.length - 1];
    const prev = children[children.length - 2];
    // One html node, or (as the parser splits it) the opening tag and `</a>`.
    let anchor = last?.type === 'html' ? ANCHOR.exec(last.value) : null;
    const split = !anchor && last?.type === 'html' && last.value === '</a>' && prev?.type === 'html' ? OPEN.exec(prev.value) : null;
    if (anchor) children.pop();
    else if (split) {
      anchor = split;
      children.splice(-2, 2);
    }
    const block: DocumentBlock = {
      object: 'block' as const,
      type: `heading-${Math.min(node.depth, 3)}`,
      data: anchor ? { id: anchor[1]! } : {},
      nodes: ctx.phrasing(children),
    };
    ctx.hint(block, { attrs: { ...(node.depth > 3 ? { depth: node.depth } : {}), ...(split ? { splitAnchor: true } : {}) } });
    return block;
  },
  fromDocument(block, ctx, path) {
    const depth = ctx.hint(block)?.attrs?.depth;
    const level = Number(block.type.slice(-1)) as 1 | 2 | 3;
    const heading: Heading = {
      type: 'heading',
      depth: level === 3 && typeof depth === 'number' ? (depth as Heading['depth']) : level,
      children: ctx.phrasing(block.nodes, path),
    };
    const id = block.data?.id;
    if (typeof id === 'string' && ANCHOR.test(`<a href="#${id}" id="${id}"></a>`)) {
      const last = heading.children[heading.children.length - 1];
      if (last && !(last.type === 'text' && last.value.endsWith(' '))) heading.children.push({ type: 'text', value: ' ' });
      if (ctx.hint(block)?.attrs?.splitAnchor) heading.children.push({ type: 'html', value: `<a href="#${id}" id="${id}">` }, { type: 'html', value: '</a>' });
      else heading.children.push({ type: 'html', value: `<a href="#${id}" id="${id}"></a>` });
    }
    return heading;
  },
};
