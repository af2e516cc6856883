import type { Element, ElementContent } from 'hast';
import type { Image, Link, LinkReference, ImageReference } from 'mdast';
import type { State } from 'mdast-util-to-hast';
import { el, text } from './hast.js';
import type { LinkResolver } from './context.js';

/** Links: resolved to the site's addresses; a link to nothing keeps its text (reported as a warning). */
export function linkHandler(links: LinkResolver) {
  return (state: State, node: Link): Element | ElementContent[] => {
    const href = links.href(node.url);
    const children = state.all(node);
    if (href === null) return el('span', { className: ['broken-link'] }, children);
    const external = /^https?:/i.test(href);
    return el('a', { href, ...(node.title ? { title: node.title } : {}), ...(external ? { rel: ['noopener'] } : {}) }, children);
  };
}

/** Images: served from the site's content-addressed files; a missing one shows its alt text. */
export function imageHandler(links: LinkResolver) {
  return (_state: State, node: Image): Element => {
    const src = links.src(node.url);
    if (src === null) return el('span', { className: ['broken-image'] }, [text(node.alt ?? '')]);
    return el('img', { src, alt: node.alt ?? '', loading: 'lazy', ...(node.title ? { title: node.title } : {}) });
  };
}

/** Reference-style links and images whose definition is missing: their text. */
export function referenceHandler(state: State, node: LinkReference | ImageReference): ElementContent[] {
  return node.type === 'imageReference' ? [text(node.alt ?? '')] : state.all(node);
}
