/** A site space's navigation: its page tree as the sidebar shows it. Site-relative addresses. */
export interface NavItem {
  kind: 'document' | 'group' | 'link';
  title: string;
  /** Site-relative address (documents), absolute URL (links); null for groups. */
  href: string | null;
  /** Page id (documents). */
  id?: string;
  hidden?: boolean;
  /** A change request's preview: the page differs from the revision the change request started from. */
  changed?: boolean;
  children: NavItem[];
}

import { isAbsoluteAllowedUrl, isAllowedLinkUrl } from '../url-policy/index.js';
import { esc } from './escape.js';

/**
 * Above this many visible documents, a section off the current page's path is listed without its pages (its
 * own link leads to it, where it opens): the navigation of a 1,000-page space is not repeated in full on every page.
 */
export const FULL_NAVIGATION_LIMIT = 150;

function countDocuments(items: NavItem[]): number {
  return items.reduce((n, i) => n + (i.hidden ? 0 : (i.kind === 'document' ? 1 : 0) + countDocuments(i.children)), 0);
}

function holds(item: NavItem, id: string | null): boolean {
  return id !== null && (item.id === id || item.children.some((c) => !c.hidden && holds(c, id)));
}

/**
 * The sidebar's nested lists; the current page marked `aria-current="page"`. A page with pages under it is a
 * link followed by a `<details>` of its pages (collapsible without JavaScript, its toggle drawn before the link), open
 * on the current page's path.
 */
export function navigationHtml(items: NavItem[], currentId: string | null, rootPrefix: string): string {
  const full = countDocuments(items) <= FULL_NAVIGATION_LIMIT;
  const entry = (n: NavItem): string => {
    // A link whose scheme the URL policy refuses (`javascript:`, `data:`, …) is its title, never a link.
    if (n.href === null || !isAllowedLinkUrl(n.href)) return `<span>${esc(n.title)}</span>`;
    const href = isAbsoluteAllowedUrl(n.href) ? n.href : rootPrefix + n.href;
    const current = n.id !== undefined && n.id === currentId ? ' aria-current="page"' : '';
    const changed = n.changed ? ' <span class="changed-mark">changed</span>' : '';
    return `<a href="${esc(href || './')}"${current}>${esc(n.title)}</a>${changed}`;
  };
  const list = (nodes: NavItem[]): string => {
    const lis = nodes
      .filter((n) => !n.hidden)
      .map((n) => {
        const hasChildren = n.children.some((c) => !c.hidden);
        if (n.kind === 'group') return `<li><p class="group">${esc(n.title)}</p>${hasChildren ? list(n.children) : ''}</li>`;
        if (!hasChildren) return `<li>${entry(n)}</li>`;
        const open = holds(n, currentId);
        if (!open && !full) return `<li class="has-pages">${entry(n)}</li>`;
        // The link stays outside the <summary> (a link inside a toggle is a nested interactive control): the summary
        // is a named toggle placed before the link by the style sheet.
        const toggle = `<summary aria-label="${esc(`Pages under ${n.title}`)}"></summary>`;
        return `<li class="section">${entry(n)}<details${open ? ' open' : ''}>${toggle}${list(n.children)}</details></li>`;
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
