import type { Element } from 'hast';
import { toText } from 'hast-util-to-text';
import { hasClass } from './class-names.js';
import type { NavEntry } from './types.js';
import { absoluteUrl } from './urls.js';

/**
 * A nested `<ul>`/`<ol>` navigation list as entries: each `<li>`'s first link (or its text when it has none, e.g. a
 * section caption) and its nested lists as children. Links to a fragment of the same page (a table of contents of
 * the current page) are left out.
 */
export function navFromList(list: Element, pageUrl: string): NavEntry[] {
  const entries: NavEntry[] = [];
  for (const li of list.children) {
    if (li.type !== 'element' || li.tagName !== 'li') continue;
    const link = firstDescendant(li, (e) => e.tagName === 'a' && e.properties.href !== undefined, ['ul', 'ol']);
    const href = link ? String(link.properties.href) : null;
    const url = href && href !== '#' && !href.startsWith('#') ? absoluteUrl(href, pageUrl) : null;
    if (href && href.startsWith('#') && href !== '#') continue;
    const title = cleanTitle(toText(link ?? withoutLists(li)));
    const children: NavEntry[] = [];
    for (const sub of descendants(li, (e) => e.tagName === 'ul' || e.tagName === 'ol')) children.push(...navFromList(sub, pageUrl));
    if (!title && !url && children.length === 0) continue;
    // `href="#"` is the current page when the link says so (Sphinx: `a.current`), else a section toggle.
    const current = href === '#' && link !== null && (hasClass(link, /^(current|active)$/) || link.properties.ariaCurrent === 'page');
    entries.push({ title, url: url ?? (current ? absoluteUrl(pageUrl, pageUrl) : null), children });
  }
  return entries;
}

/** The entries as one list under a caption entry (`{ title: caption, url: null, children }`). */
export function captioned(caption: string, entries: NavEntry[]): NavEntry {
  return { title: cleanTitle(caption), url: null, children: entries };
}

function cleanTitle(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

function withoutLists(node: Element): Element {
  return {
    ...node,
    children: node.children
      .filter((c) => !(c.type === 'element' && (c.tagName === 'ul' || c.tagName === 'ol')))
      .map((c) => (c.type === 'element' ? withoutLists(c) : c)),
  };
}

/** The first descendant matching `test`, not entering elements named in `stop`. */
function firstDescendant(node: Element, test: (e: Element) => boolean, stop: string[]): Element | null {
  for (const child of node.children) {
    if (child.type !== 'element') continue;
    if (stop.includes(child.tagName)) continue;
    if (test(child)) return child;
    const found = firstDescendant(child, test, stop);
    if (found) return found;
  }
  return null;
}

/** The outermost descendants matching `test` (not searching inside a match). */
function descendants(node: Element, test: (e: Element) => boolean): Element[] {
  const found: Element[] = [];
  for (const child of node.children) {
    if (child.type !== 'element') continue;
    if (test(child)) found.push(child);
    else found.push(...descendants(child, test));
  }
  return found;
}

/**
 * Navigation written as captions and lists in a row (Sphinx and Read the Docs: `p.caption` + `ul`, HonKit headers):
 * the lists before any caption at the top level, each later list under its caption.
 */
export function navFromCaptionedLists(container: Element, pageUrl: string, isCaption: (e: Element) => boolean): NavEntry[] {
  const entries: NavEntry[] = [];
  let caption: NavEntry | null = null;
  for (const child of container.children) {
    if (child.type !== 'element') continue;
    if (isCaption(child)) {
      caption = captioned(toText(child), []);
      entries.push(caption);
    } else if (child.tagName === 'ul' || child.tagName === 'ol') {
      (caption ? caption.children : entries).push(...navFromList(child, pageUrl));
    }
  }
  return entries;
}
