import type { Link } from 'mdast';
import { el, attr, text } from './hast.js';
import type { BlockContext, BlockRenderer, LiquidBlock } from './types.js';

function card(url: string | undefined, ctx: BlockContext, fallbackTitle?: string) {
  if (!url) return el('p', { className: ['card', 'card-broken'] }, [text(fallbackTitle ?? 'Missing reference')]);
  const href = ctx.links.href(url);
  const target = ctx.links.link(url);
  const title = target?.title ?? fallbackTitle ?? url;
  if (href === null) return el('p', { className: ['card', 'card-broken'] }, [text(title)]);
  return el('a', { className: ['card'], href }, [el('span', { className: ['card-title'] }, [text(title)])]);
}

function linkText(node: LiquidBlock): string | undefined {
  const para = node.children[0] as { children?: Array<Link | { type: string }> } | undefined;
  const link = para?.children?.find((c): c is Link => c.type === 'link');
  const t = link?.children.map((c) => ('value' in c ? String(c.value) : '')).join('');
  return t || undefined;
}

/** `{% content-ref url="…" %}`: a card to a page or a file with the target's title. */
export const contentRefBlock: BlockRenderer = {
  names: ['content-ref'],
  render(node, ctx) {
    return el('div', { className: ['cards'] }, [card(attr(node, 'url'), ctx, linkText(node))]);
  },
};

/** `{% page-ref page="…" %}` (2021 exports): the same card. */
export const pageRefBlock: BlockRenderer = {
  names: ['page-ref'],
  render(node, ctx) {
    return el('div', { className: ['cards'] }, [card(attr(node, 'page'), ctx)]);
  },
};
