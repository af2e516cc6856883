/**
 * One fetched HTML page of a documentation site, read in two phases:
 * - `analyzeHtmlPage` (during the crawl): title, description, the generator, the site's navigation and the
 *   same-site links and assets of the main content — what discovery needs;
 * - `convertHtmlPage` (after the crawl, when every page's target path is known): the main content as GitBook
 *   markdown, its links and assets rewritten through the caller's maps, through the URL policy (links of other
 *   schemes than http, https and mailto kept as their text; `data:` images as files).
 *
 * Both are pure functions of their input (serializable in and out), so they run in the parse pool.
 * The generator is recognised (`extract/`), its main content taken without the site's chrome, then converted
 * rehype-parse → rehype-remark (with one handler per GitBook construct, `convert/`) → Folio's GitBook serializer.
 */
import type { Element, Root } from 'hast';
import { selectAll } from 'hast-util-select';
import rehypeParse from 'rehype-parse';
import { unified } from 'unified';
import { parsePageFile, serializePageFile } from '../format/index.js';
import { type ImagesOutcome, type InlineImageFile, keepOrDropImages } from './convert/images.js';
import { htmlToMdast, rewriteTargets } from './convert/index.js';
import { neutraliseUrls, type RefusedUrls } from './convert/safe-urls.js';
import { absoluteUrl, extractPage } from './extract/index.js';
import type { NavEntry, SiteGenerator } from './extract/index.js';
import { plainText } from './convert/text.js';

export type { NavEntry, SiteGenerator } from './extract/index.js';

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
  /**
   * The page's path in the source tree (`guide/setup.md`): its `data:` images become files there (`files`), linked
   * relatively. Without it they are dropped (alt text kept, with a warning).
   */
  pageFile?: string;
}

export interface ConvertedPage {
  /** GitBook markdown of the main content (no front matter; the title is the page's, not a heading). */
  markdown: string;
  warnings: PageWarning[];
  /** The page's `data:` images as files (`.gitbook/assets/inline/<hash>.<ext>`, paths in the tree). */
  files?: InlineImageFile[];
}

/** Links whose target is a file to download rather than a page. */
const DOWNLOAD =
  /\.(pdf|zip|tar|gz|tgz|bz2|xz|7z|rar|docx?|xlsx?|pptx?|odt|ods|odp|csv|epub|mp3|mp4|webm|mov|ogg|wav|png|jpe?g|gif|svg|webp|avif|ico|dmg|exe|msi|deb|rpm|apk|jar|whl)$/i;

export function analyzeHtmlPage(html: string, pageUrl: string): AnalyzedPage {
  const page = extractPage(parseHtml(html), pageUrl);
  const links = new Set<string>();
  const assets = new Set<string>();
  for (const element of selectAll('a[href], img[src], source[src], video[src], audio[src]', page.main)) {
    const isLink = element.tagName === 'a';
    const url = absoluteUrl(String(isLink ? element.properties.href : element.properties.src), pageUrl);
    if (!url) continue;
    if (!isLink || element.properties.download !== undefined || DOWNLOAD.test(new URL(url).pathname)) assets.add(url);
    else links.add(url);
  }
  return { title: page.title, description: page.description, generator: page.generator, nav: page.nav, links: [...links], assets: [...assets] };
}

export function convertHtmlPage(html: string, options: ConvertOptions): ConvertedPage {
  const page = extractPage(parseHtml(html), options.pageUrl);
  const warnings: PageWarning[] = [];
  dropTitleHeading(page.main, page.title);
  rewriteTargets(page.main, options);
  const images = keepOrDropImages(page.main, options.pageFile);
  const document = htmlToMdast(page.main);
  const refused = neutraliseUrls(document);
  warnings.push(...urlWarnings(options.pageUrl, images, refused));
  const file = parsePageFile('');
  file.document = document;
  file.style = { ...file.style, trailingNewlines: 1 };
  const markdown = serializePageFile(file);
  if (page.generator === 'heuristic') {
    warnings.push({
      code: 'webimport.generator_unrecognised',
      message: `${options.pageUrl}: no known site generator; the main content was chosen by text density`,
    });
  }
  if (!markdown.trim()) warnings.push({ code: 'webimport.empty_page', message: `${options.pageUrl}: the page has no main content` });
  return { markdown, warnings, ...(images.files.length > 0 ? { files: images.files } : {}) };
}

/** What the URL policy took out of a page (src/url-policy: only http, https, mailto, relative links and anchors). */
function urlWarnings(pageUrl: string, images: ImagesOutcome, refused: RefusedUrls): PageWarning[] {
  const out: PageWarning[] = [];
  const schemes = [...new Set([...images.schemes, ...refused.schemes])].slice(0, 5).join(', ');
  if (refused.links > 0)
    out.push({ code: 'webimport.link_refused', message: `${pageUrl}: ${refused.links} link(s) with a refused scheme (${schemes}) kept as their text` });
  if (images.refused + refused.images > 0)
    out.push({
      code: 'webimport.image_refused',
      message: `${pageUrl}: ${images.refused + refused.images} image(s) with a refused scheme (${schemes}) left out, their alt text kept`,
    });
  if (images.dataDropped > 0)
    out.push({
      code: 'webimport.data_image_dropped',
      message: `${pageUrl}: ${images.dataDropped} data: image(s) left out (not an image type, unreadable or over the size limit), their alt text kept`,
    });
  return out;
}

function parseHtml(html: string): Root {
  return unified().use(rehypeParse).parse(html);
}

/** The first `h1` of the content when it is the page's title (the title is the page's, not a heading). */
function dropTitleHeading(main: Element, title: string): void {
  const walk = (node: Element): boolean => {
    for (let i = 0; i < node.children.length; i++) {
      const child = node.children[i]!;
      if (child.type !== 'element') continue;
      if (child.tagName === 'h1') {
        if (plainText(child) === title) node.children.splice(i, 1);
        return true;
      }
      if (/^(h[2-6]|p|pre|ul|ol|table|img|figure)$/.test(child.tagName)) return true;
      if (walk(child)) return true;
    }
    return false;
  };
  walk(main);
}
