import type { Element, ElementContent, Nodes } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import type { LinkResolver } from './context.js';
import { codeFigure, hasBoldLine, htmlCodeOptions, intoLines, markHighlightedLines } from './code.js';

/** Elements kept from HTML written in pages; anything else is unwrapped (its text kept), scripts and styles dropped. */
const ALLOWED = new Set([
  'a',
  'abbr',
  'b',
  'blockquote',
  'br',
  'caption',
  'code',
  'dd',
  'del',
  'details',
  'div',
  'dl',
  'dt',
  'em',
  'figcaption',
  'figure',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'hr',
  'i',
  'img',
  'ins',
  'kbd',
  'li',
  'mark',
  'ol',
  'p',
  'picture',
  'pre',
  's',
  'small',
  'span',
  'strong',
  'sub',
  'summary',
  'sup',
  'table',
  'tbody',
  'td',
  'tfoot',
  'th',
  'thead',
  'tr',
  'u',
  'ul',
]);
const DROPPED = new Set([
  'script',
  'style',
  'iframe',
  'object',
  'embed',
  'form',
  'input',
  'button',
  'textarea',
  'select',
  'template',
  'noscript',
  'link',
  'meta',
  'base',
  'svg',
  'math',
]);
const KEPT_PROPERTIES = new Set(['href', 'src', 'alt', 'title', 'id', 'width', 'height', 'colSpan', 'rowSpan', 'align', 'open', 'start', 'dataSize']);

function clean(node: ElementContent, links: LinkResolver, removed: Set<string>, nextId: (prefix: string) => string): ElementContent[] {
  if (node.type === 'text') return [node];
  if (node.type !== 'element') return [];
  const tag = node.tagName;
  if (DROPPED.has(tag)) {
    removed.add(tag);
    return [];
  }
  const children = node.children.flatMap((c) => clean(c, links, removed, nextId));
  if (!ALLOWED.has(tag)) {
    removed.add(tag);
    return children;
  }
  const properties: Element['properties'] = {};
  for (const [k, v] of Object.entries(node.properties)) if (KEPT_PROPERTIES.has(k)) properties[k] = v;
  // Addresses only where they are one (a link's href, an image's src), each through the URL policy.
  if (tag !== 'a') delete properties.href;
  if (tag !== 'img') delete properties.src;
  if (tag === 'a' && typeof properties.href === 'string') {
    const href = links.href(properties.href);
    if (href === null) delete properties.href;
    else properties.href = href;
  }
  if (tag === 'img') {
    const src = typeof properties.src === 'string' ? links.src(properties.src) : null;
    if (src === null)
      return [
        { type: 'element', tagName: 'span', properties: { className: ['broken-image'] }, children: [{ type: 'text', value: String(properties.alt ?? '') }] },
      ];
    properties.src = src;
    properties.loading = 'lazy';
    if (properties.alt === undefined) properties.alt = '';
  }
  const element: Element = { type: 'element', tagName: tag, properties, children };
  const code = tag === 'pre' ? htmlCodeOptions(node.properties) : null;
  const inner = tag === 'pre' ? children.find((c): c is Element => c.type === 'element' && c.tagName === 'code') : undefined;
  const highlighted = inner !== undefined && hasBoldLine(inner);
  if (inner && (highlighted || code?.lineNumbers)) intoLines(inner);
  if (inner && highlighted) markHighlightedLines(inner);
  if (code === null) return [element];
  element.properties.tabIndex = 0;
  return [codeFigure(element, code, nextId)];
}

/**
 * HTML written in a page (`<figure><img …>`, `<mark>`, tables): parsed, then reduced to an allowlist of
 * elements and attributes (no scripts, styles, frames or event handlers); its links and images are
 * resolved like markdown ones. What was removed is reported once per page.
 */
export function sanitizeHtml(html: string, links: LinkResolver, nextId: (prefix: string) => string = (p) => p): ElementContent[] {
  const tree = fromHtml(html, { fragment: true });
  const removed = new Set<string>();
  const out = (tree.children as Nodes[]).flatMap((c) => clean(c as ElementContent, links, removed, nextId));
  const notable = [...removed].filter((t) => DROPPED.has(t));
  if (notable.length > 0) links.warn('PUBLISH_HTML_REMOVED', `HTML elements not published: ${notable.join(', ')}`);
  return out;
}
