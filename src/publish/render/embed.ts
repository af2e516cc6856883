import { el, attr, positional, text } from './hast.js';
import type { BlockRenderer } from './types.js';

/**
 * `{% embed url="…" %}`: a link card to the embedded address (no third-party frame is loaded: the page stays
 * readable and private without JavaScript), with the caption when there is one.
 */
export const embedBlock: BlockRenderer = {
  names: ['embed'],
  render(node, { state, links }) {
    const url = attr(node, 'url') ?? positional(node) ?? '';
    const href = links.href(url);
    const caption = attr(node, 'caption');
    const label = caption || url;
    return el('figure', { className: ['embed'] }, [
      href ? el('a', { href, rel: ['noopener'] }, [text(label)]) : el('span', {}, [text(label)]),
      ...(node.children.length > 0 ? [el('figcaption', {}, state.all(node as never))] : []),
    ]);
  },
};
