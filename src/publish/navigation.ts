/** A site space's navigation: its page tree as the sidebar shows it. Site-relative addresses. */
export interface NavItem {
  kind: 'document' | 'group' | 'link';
  title: string;
  /** Site-relative address (documents), absolute URL (links); null for groups. */
  href: string | null;
  /** Page id (documents). */
  id?: string;
  hidden?: boolean;
  children: NavItem[];
}

import { isAbsoluteAllowedUrl, isAllowedLinkUrl } from '../url-policy/index.js';
import { esc } from './escape.js';

/** The sidebar's nested lists; the current page marked `aria-current="page"`. */
export function navigationHtml(items: NavItem[], currentId: string | null, rootPrefix: string): string {
  const list = (nodes: NavItem[]): string => {
    const lis = nodes
      .filter((n) => !n.hidden)
      .map((n) => {
        const sub = n.children.some((c) => !c.hidden) ? list(n.children) : '';
        if (n.kind === 'group') return `<li><p class="group">${esc(n.title)}</p>${sub}</li>`;
        // A link whose scheme the URL policy refuses (`javascript:`, `data:`, …) is its title, never a link.
        if (n.href === null || !isAllowedLinkUrl(n.href)) return `<li><span>${esc(n.title)}</span>${sub}</li>`;
        const href = isAbsoluteAllowedUrl(n.href) ? n.href : rootPrefix + n.href;
        const current = n.id !== undefined && n.id === currentId ? ' aria-current="page"' : '';
        return `<li><a href="${esc(href || './')}"${current}>${esc(n.title)}</a>${sub}</li>`;
      });
    return `<ul>${lis.join('')}</ul>`;
  };
  return list(items);
}

/** Documents in reading order (the sidebar's order, hidden pages left out), for previous/next links. */
export function readingOrder(items: NavItem[]): NavItem[] {
  const out: NavItem[] = [];
  const walk = (nodes: NavItem[]) => {
    for (const n of nodes) {
      if (n.hidden) continue;
      if (n.kind === 'document') out.push(n);
      walk(n.children);
    }
  };
  walk(items);
  return out;
}
