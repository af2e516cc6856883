/**
 * One fetched HTML page of a documentation site, read in two phases:
 * - `analyzeHtmlPage` (during the crawl): title, description, the generator, the site's navigation and the
 *   same-site links and assets of the main content — what discovery needs;
 * - `convertHtmlPage` (after the crawl, when every page's target path is known): the main content as GitBook
 *   markdown, its links and assets rewritten through the caller's maps.
 *
 * Both are pure functions of their input (serializable in and out), so they run in the parse pool.
 * This first version reads `<main>`/`<article>`/`<body>`; the per-generator extractors replace it.
 */
import type { Element, Root } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import { select, selectAll } from 'hast-util-select';
import { toText } from 'hast-util-to-text';
import { toMdast } from 'hast-util-to-mdast';
import { toMarkdown } from 'mdast-util-to-markdown';
import { gfmToMarkdown } from 'mdast-util-gfm';

/** One entry of a site's navigation, in the site's order; `url` absolute (no fragment). */
export interface NavEntry {
  title: string;
  url: string | null;
  children: NavEntry[];
}

export type SiteGenerator = 'honkit' | 'mkdocs' | 'mkdocs-material' | 'sphinx' | 'docusaurus' | 'gitbook' | 'heuristic';

export interface PageWarning {
  code: string;
  message: string;
}

export interface AnalyzedPage {
  title: string;
  description: string | null;
  generator: SiteGenerator;
  /** The site's navigation as this page shows it; empty when the page has none. */
  nav: NavEntry[];
  /** Absolute URLs (no fragment) of the links in the main content, in document order, deduplicated. */
  links: string[];
  /** Absolute URLs of the images and linked downloads of the main content. */
  assets: string[];
}

export interface ConvertOptions {
  pageUrl: string;
  /** The destination to write for a link to `url` (absolute, no fragment), or null to keep the absolute URL. */
  linkTargets: Record<string, string>;
  /** The destination to write for an image or download at `url`, or absent to keep the absolute URL. */
  assetTargets: Record<string, string>;
}

export interface ConvertedPage {
  /** GitBook markdown of the main content (no front matter; the title is the page's, not a heading). */
  markdown: string;
  warnings: PageWarning[];
}

export function analyzeHtmlPage(html: string, pageUrl: string): AnalyzedPage {
  const tree = fromHtml(html);
  const main = mainContent(tree);
  const links = new Set<string>();
  const assets = new Set<string>();
  for (const a of selectAll('a[href]', main)) {
    const url = absolute(String(a.properties.href), pageUrl);
    if (url) links.add(url);
  }
  for (const img of selectAll('img[src]', main)) {
    const url = absolute(String(img.properties.src), pageUrl);
    if (url) assets.add(url);
  }
  const description = select('meta[name="description"]', tree)?.properties.content;
  return {
    title: toText(select('title', tree) ?? { type: 'root', children: [] }).trim() || pageUrl,
    description: typeof description === 'string' ? description : null,
    generator: 'heuristic',
    nav: [],
    links: [...links],
    assets: [...assets],
  };
}

export function convertHtmlPage(html: string, options: ConvertOptions): ConvertedPage {
  const main = mainContent(fromHtml(html));
  for (const a of selectAll('a[href]', main)) {
    const url = absolute(String(a.properties.href), options.pageUrl);
    if (url && options.linkTargets[url] !== undefined) a.properties.href = options.linkTargets[url];
  }
  for (const img of selectAll('img[src]', main)) {
    const url = absolute(String(img.properties.src), options.pageUrl);
    if (url && options.assetTargets[url] !== undefined) img.properties.src = options.assetTargets[url];
  }
  const mdast = toMdast({ type: 'root', children: [main] });
  return { markdown: toMarkdown(mdast, { extensions: [gfmToMarkdown()] }), warnings: [] };
}

function mainContent(tree: Root): Element {
  return (select('main', tree) ??
    select('article', tree) ??
    select('body', tree) ?? { type: 'element', tagName: 'div', properties: {}, children: tree.children as Element[] }) as Element;
}

function absolute(href: string, base: string): string | null {
  try {
    const url = new URL(href, base);
    if (url.protocol !== 'http:' && url.protocol !== 'https:') return null;
    url.hash = '';
    return url.href;
  } catch {
    return null;
  }
}
