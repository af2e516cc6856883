/**
 * The page tree of an imported site, as a GitBook source tree lays it out: the order and nesting of the site's own
 * navigation (not the alphabet); pages not in the navigation appended in discovery order, under the page of their
 * URL's parent folder when that was imported. Each page's file comes from its URL path (below the start URL's
 * folder): `guide/install/` → `guide/install/README.md`, `guide/setup.html` → `guide/setup.md`, the start page
 * `README.md`.
 */
import type { NavEntry } from './html-page.js';
import { pageKey, type ImportScope } from './scope.js';

export interface CrawledPage {
  /** The page key (scope.ts `pageKey`). */
  key: string;
  title: string;
  nav: NavEntry[];
}

export interface PlannedPage {
  key: string;
  /** Path of the page's markdown file in the source tree. */
  file: string;
  /** The title the navigation gives it (else the page's own). */
  title: string;
  children: PlannedPage[];
}

export interface PlannedSection {
  /** A navigation heading without a page of its own (a GitBook group), or null for the pages before any. */
  group: string | null;
  pages: PlannedPage[];
}

export interface SitePlan {
  sections: PlannedSection[];
  /** Page key → its file. */
  files: Map<string, string>;
}

/** One path segment made safe for a file name and a SUMMARY.md destination. */
function safeSegment(segment: string): string {
  const s = segment
    .normalize('NFKC')
    .replace(/[^\p{L}\p{N}._-]+/gu, '-')
    .replace(/^[-.]+|-+$/g, '');
  return s || 'page';
}

/** The markdown file of a page (before deduplication). */
export function fileForUrl(scope: ImportScope, key: string): string {
  if (key === scope.start) return 'README.md';
  const rel = scope.relative(key);
  const [pathPart, query] = rel.split('?', 2) as [string, string | undefined];
  const segments = pathPart.split('/').filter(Boolean).map(safeSegment);
  const folder = pathPart.endsWith('/') || segments.length === 0;
  if (query) segments.push(`${segments.pop() ?? 'page'}-${safeSegment(query)}`);
  if (segments.length === 0) return 'README.md';
  if (folder && !query) return `${segments.join('/')}/README.md`;
  const last = segments.pop()!.replace(/\.(html?|php|aspx?)$/i, '');
  return [...segments, `${last || 'page'}.md`].join('/');
}

/** The file a page's folder-parent lives in would be `<parent>/README.md`: the URL key of that parent folder page. */
function parentKey(key: string): string | null {
  const url = new URL(key);
  const path = url.pathname.endsWith('/') ? url.pathname.slice(0, -1) : url.pathname;
  const cut = path.lastIndexOf('/');
  if (cut < 0) return null;
  url.pathname = path.slice(0, cut + 1);
  url.search = '';
  return url.href;
}

export function planSite(scope: ImportScope, pages: readonly CrawledPage[]): SitePlan {
  const byKey = new Map(pages.map((p) => [p.key, p]));
  const placed = new Map<string, PlannedPage>();
  const sections: PlannedSection[] = [{ group: null, pages: [] }];

  const navOf = pages.find((p) => p.key === scope.start && p.nav.length > 0) ?? pages.find((p) => p.nav.length > 0);
  const place = (entries: readonly NavEntry[], into: PlannedPage[], topLevel: boolean) => {
    for (const entry of entries) {
      const key = entry.url ? pageKey(entry.url) : null;
      const page = key ? byKey.get(key) : undefined;
      if (page && !placed.has(page.key)) {
        const node: PlannedPage = { key: page.key, file: '', title: entry.title.trim() || page.title, children: [] };
        placed.set(page.key, node);
        // At the top level, after a group heading everything belongs to that group (as in SUMMARY.md).
        (topLevel ? sections[sections.length - 1]!.pages : into).push(node);
        place(entry.children, node.children, false);
      } else if (!page && topLevel && entry.children.length > 0) {
        const section: PlannedSection = { group: entry.title.trim() || 'Pages', pages: [] };
        sections.push(section);
        place(entry.children, section.pages, false);
      } else {
        // A heading without a page (or a page already placed): its children take its place.
        place(entry.children, into, topLevel);
      }
    }
  };
  // The start page comes first: it is the space's first page, whatever the navigation lists first.
  const start = byKey.get(scope.start);
  if (start) {
    const node: PlannedPage = { key: start.key, file: '', title: start.title, children: [] };
    placed.set(start.key, node);
    sections[0]!.pages.push(node);
  }
  if (navOf) place(navOf.nav, sections[0]!.pages, true);
  // Pages outside the navigation, in discovery order: under their folder's page when it was imported.
  for (const page of pages) {
    if (placed.has(page.key)) continue;
    const node: PlannedPage = { key: page.key, file: '', title: page.title, children: [] };
    let parent: PlannedPage | undefined;
    for (let k = parentKey(page.key); k && scope.contains(k); k = parentKey(k)) {
      parent = placed.get(k);
      if (parent && parent.key !== scope.start) break;
      parent = undefined;
    }
    (parent ? parent.children : sections[sections.length - 1]!.pages).push(node);
    placed.set(page.key, node);
  }

  // Files: from the URL path; a page with children needs a folder of its own (`x/README.md`, so its children's
  // files sit beside it), and two pages never share a file.
  const files = new Map<string, string>();
  const taken = new Set<string>();
  const assign = (node: PlannedPage) => {
    let file = fileForUrl(scope, node.key);
    if (node.key !== scope.start && node.children.length > 0 && !file.endsWith('/README.md')) file = file.replace(/\.md$/, '/README.md');
    if (taken.has(file.toLowerCase())) {
      const stem = file.replace(/(\/README)?\.md$/, '');
      for (let n = 2; ; n++) {
        const candidate = file.endsWith('/README.md') ? `${stem}-${n}/README.md` : `${stem}-${n}.md`;
        if (!taken.has(candidate.toLowerCase())) {
          file = candidate;
          break;
        }
      }
    }
    taken.add(file.toLowerCase());
    node.file = file;
    files.set(node.key, file);
    node.children.forEach(assign);
  };
  for (const section of sections) section.pages.forEach(assign);
  return { sections: sections.filter((s) => s.pages.length > 0), files };
}

function escapeTitle(title: string): string {
  return title.replace(/\s+/g, ' ').replace(/([\\[\]])/g, '\\$1');
}

/** SUMMARY.md of the plan: the pages in order, groups as `## headings`. */
export function summaryOf(plan: SitePlan): string {
  const lines = ['# Table of contents', ''];
  const write = (pages: PlannedPage[], depth: number) => {
    for (const p of pages) {
      lines.push(`${'  '.repeat(depth)}* [${escapeTitle(p.title)}](${p.file})`);
      write(p.children, depth + 1);
    }
  };
  for (const section of plan.sections) {
    if (section.group !== null) lines.push('', `## ${escapeTitle(section.group)}`, '');
    write(section.pages, 0);
  }
  return lines.join('\n') + '\n';
}

/** The relative path from the file `from` to the file `to` (both relative to the source root). */
export function relativePath(from: string, to: string): string {
  const a = from.split('/').slice(0, -1);
  const b = to.split('/');
  let i = 0;
  while (i < a.length && i < b.length - 1 && a[i] === b[i]) i++;
  return [...a.slice(i).map(() => '..'), ...b.slice(i)].join('/');
}
