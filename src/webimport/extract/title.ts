import type { Element, Root } from 'hast';
import { select } from 'hast-util-select';
import { toText } from 'hast-util-to-text';

/**
 * The page's title: `og:title` or `<title>` without the site's suffix (`Page · Book`, `Page - Site`, the
 * `og:site_name`), the main content's `h1` when the document title has none of it, the URL as a last resort.
 */
export function pageTitle(tree: Root, main: Element, separators: string[], pageUrl: string): string {
  const h1 = select('h1', main);
  const heading = h1 ? clean(toText(h1)) : '';
  const og = select('meta[property="og:title"]', tree)?.properties.content;
  const titleElement = select('title', tree);
  const raw = clean(typeof og === 'string' && og.trim() ? og : titleElement ? toText(titleElement) : '');
  if (heading && (raw === heading || raw.startsWith(heading))) return heading;
  const site = select('meta[property="og:site_name"]', tree)?.properties.content;
  let title = raw;
  for (const separator of separators) {
    const at = title.lastIndexOf(separator);
    if (at > 0 && (typeof site !== 'string' || title.slice(at + separator.length).trim() === site.trim() || at > 0)) {
      title = title.slice(0, at).trim();
      break;
    }
  }
  if (title) return title;
  if (heading) return heading;
  return decodeURIComponent(new URL(pageUrl).pathname.split('/').filter(Boolean).pop() ?? pageUrl).replace(/\.html?$/, '');
}

/** `meta description`, else `og:description`; null when both are absent or blank. */
export function pageDescription(tree: Root): string | null {
  for (const selector of ['meta[name="description"]', 'meta[property="og:description"]']) {
    const content = select(selector, tree)?.properties.content;
    if (typeof content === 'string' && content.trim()) return clean(content);
  }
  return null;
}

function clean(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
