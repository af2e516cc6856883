/**
 * How faithfully a generated site comes back through Folio's website import (`analyzeHtmlPage` +
 * `convertHtmlPage`), read from disk: pages reached from the start page through navigation and links, the
 * navigation's order, each page's text against its GitBook source, code blocks, images and internal links.
 */
import { createHash } from 'node:crypto';
import { readFile, readdir } from 'node:fs/promises';
import { join, posix, relative } from 'node:path';
import type { Nodes } from 'mdast';
import { parsePageFile } from '../../src/format/index.js';
import { analyzeHtmlPage, convertHtmlPage, type AnalyzedPage, type NavEntry } from '../../src/webimport/html-page.js';
import { generatorCode, type BuiltSite } from './site-generators.js';

const ORIGIN = 'http://site.test';

export interface Distribution {
  min: number;
  p5: number;
  median: number;
}

export interface FidelityReport {
  generator: string;
  repo: string;
  pages: number;
  /** Source pages reached from the start page (navigation + links) and converted. */
  pageRecall: number;
  /** The navigation lists the pages it shows in the source's order. */
  navOrderKept: boolean;
  /** Share of the source pages the navigation shows. */
  navCoverage: number;
  similarity: Distribution;
  /** Pages under 95% similarity, with their score. */
  dissimilar: { page: string; similarity: number }[];
  codeBlocks: { total: number; equal: number; ratio: number };
  images: { total: number; present: number; ratio: number };
  links: { total: number; resolved: number; ratio: number };
  /** Failures kept for the assertion messages. */
  missing: { code: string[]; images: string[]; links: string[] };
}

interface ConvertedSource {
  source: string;
  markdown: string;
}

export async function measureFidelity(site: BuiltSite): Promise<FidelityReport> {
  const sourceRoot = site.sourceDir;
  const byUrl = new Map<string, string>();
  for (const page of site.pages) for (const url of urlVariants(page.urlPath)) byUrl.set(url, page.source);
  const urlOf = new Map(site.pages.map((p) => [p.source, ORIGIN + p.urlPath]));
  const htmlOf = new Map<string, string>();
  for (const page of site.pages) htmlOf.set(page.source, await readFile(join(site.outDir, page.file), 'utf8').catch(() => ''));

  // Crawl from the start page over the navigation and the content's links, as the importer's discovery does.
  const analyzed = new Map<string, AnalyzedPage>();
  const queue = [site.summary[0]!.path];
  const seen = new Set(queue);
  while (queue.length > 0) {
    const source = queue.shift()!;
    const html = htmlOf.get(source);
    if (!html) continue;
    const page = analyzeHtmlPage(html, urlOf.get(source)!);
    analyzed.set(source, page);
    for (const url of [...flatten(page.nav).map((e) => e.url), ...page.links]) {
      const target = url ? byUrl.get(url) : undefined;
      if (target && !seen.has(target)) {
        seen.add(target);
        queue.push(target);
      }
    }
  }

  // Navigation order, as the start page shows it.
  const start = analyzed.get(site.summary[0]!.path);
  const navSources = flatten(start?.nav ?? [])
    .map((e) => (e.url ? byUrl.get(e.url) : undefined))
    .filter((s): s is string => s !== undefined)
    .filter((s, i, all) => all.indexOf(s) === i);
  const summaryOrder = site.summary.map((e) => e.path).filter((p) => navSources.includes(p));
  const navOrderKept = navSources.length > 0 && navSources.join('\n') === summaryOrder.join('\n');

  // Assets: every file of the built site mapped back to the source file with the same bytes.
  const sourceByHash = new Map<string, string>();
  for (const file of await listFiles(sourceRoot)) {
    if (!file.endsWith('.md')) sourceByHash.set(hash(await readFile(join(sourceRoot, file))), file);
  }
  const assetSource = async (url: string): Promise<string | undefined> => {
    if (!url.startsWith(ORIGIN)) return undefined;
    const path = decodeURIComponent(new URL(url).pathname).slice(1);
    const bytes = await readFile(join(site.outDir, path)).catch(() => null);
    return bytes ? sourceByHash.get(hash(bytes)) : undefined;
  };

  const converted: ConvertedSource[] = [];
  for (const [source, page] of analyzed) {
    const dir = posix.dirname(source);
    const linkTargets: Record<string, string> = {};
    for (const url of page.links) {
      const target = byUrl.get(url);
      if (target) linkTargets[url] = posix.relative(dir, target);
    }
    const assetTargets: Record<string, string> = {};
    for (const url of page.assets) {
      const target = await assetSource(url);
      if (target) assetTargets[url] = posix.relative(dir, target);
    }
    const result = convertHtmlPage(htmlOf.get(source)!, { pageUrl: urlOf.get(source)!, linkTargets, assetTargets });
    converted.push({ source, markdown: result.markdown });
  }

  const similarities: { page: string; similarity: number }[] = [];
  const code = { total: 0, equal: 0 };
  const images = { total: 0, present: 0 };
  const links = { total: 0, resolved: 0 };
  const missing = { code: [] as string[], images: [] as string[], links: [] as string[] };
  for (const { source, markdown } of converted) {
    const expected = readPage(await readFile(join(sourceRoot, source), 'utf8'), source);
    const actual = readPage(markdown, source);
    similarities.push({ page: source, similarity: similarity(expected.tokens, actual.tokens) });
    const pool = actual.code.map((b) => ({ ...b, value: generatorCode(site.generator, b.value) }));
    for (const original of expected.code) {
      const block = { ...original, value: generatorCode(site.generator, original.value) };
      code.total++;
      const at = pool.findIndex((b) => b.value === block.value && b.lang === block.lang);
      if (at >= 0) {
        code.equal++;
        pool.splice(at, 1);
      } else missing.code.push(`${source}: ${block.lang ?? '(none)'} ${JSON.stringify(block.value.slice(0, 60))}`);
    }
    for (const image of new Set(expected.images)) {
      // Assets left out of the corpus copy (over 48 KiB, see its README) cannot be on the site either.
      if (!(await exists(join(sourceRoot, image)))) continue;
      images.total++;
      if (actual.images.includes(image)) images.present++;
      else missing.images.push(`${source} → ${image}`);
    }
    for (const link of new Set(expected.links)) {
      // A link to a page that is no page of the site is broken in the source already; one to the page itself is
      // written as a fragment (`#heading`) once imported.
      if (!urlOf.has(link) || link === source) continue;
      links.total++;
      if (actual.links.includes(link)) links.resolved++;
      else missing.links.push(`${source} → ${link}`);
    }
  }
  const values = similarities.map((s) => s.similarity).sort((a, b) => a - b);
  return {
    generator: site.generator,
    repo: site.repo,
    pages: site.summary.length,
    pageRecall: converted.length / site.summary.length,
    navOrderKept,
    navCoverage: navSources.length / site.summary.length,
    similarity: { min: values[0] ?? 0, p5: quantile(values, 0.05), median: quantile(values, 0.5) },
    dissimilar: similarities.filter((s) => s.similarity < 0.95),
    codeBlocks: { ...code, ratio: ratio(code.equal, code.total) },
    images: { ...images, ratio: ratio(images.present, images.total) },
    links: { ...links, ratio: ratio(links.resolved, links.total) },
    missing,
  };
}

interface PageContent {
  tokens: string[];
  code: { lang: string | null; value: string }[];
  /** Repository paths of the images the page shows. */
  images: string[];
  /** Repository paths of the pages it links to. */
  links: string[];
}

/**
 * A GitBook page's comparable content: its words (title and front matter aside; tab titles, embed and page
 * reference URLs included, as the plain-markdown sources show them), code blocks, image and page-link targets.
 */
export function readPage(markdown: string, path: string): PageContent {
  const page = parsePageFile(markdown);
  const words: string[] = [];
  const content: PageContent = { tokens: [], code: [], images: [], links: [] };
  const dir = posix.dirname(path);
  const resolve = (url: string): string | null => {
    if (/^[a-z]+:/i.test(url) || url.startsWith('#') || url.startsWith('/')) return null;
    const clean = decodeURIComponent(url.replace(/\\/g, '').split('#')[0]!.split('?')[0]!);
    return clean ? posix.normalize(posix.join(dir, clean)) : null;
  };
  const walk = (node: Nodes): void => {
    switch (node.type) {
      case 'text':
      case 'inlineCode':
      case 'inlineMath':
      case 'math':
        words.push(node.value);
        return;
      case 'code':
        words.push(node.value);
        content.code.push({ lang: node.lang ?? null, value: node.value });
        return;
      case 'html':
        words.push(decodeEntities(node.value.replace(/<[^>]*>/g, ' ')));
        for (const m of node.value.matchAll(/<img\b[^>]*\bsrc="([^"]*)"/g)) push(content.images, resolve(m[1]!));
        for (const m of node.value.matchAll(/<a\b[^>]*\bhref="([^"]*)"/g)) pushLink(resolve(m[1]!));
        return;
      case 'image':
        push(content.images, resolve(node.url));
        return;
      case 'link':
        pushLink(resolve(node.url));
        break;
      case 'liquidBlock':
        for (const attribute of node.attributes) {
          if (node.name === 'tab' && attribute.name === 'title') words.push(attribute.value);
          if (['embed', 'page-ref', 'content-ref'].includes(node.name) && ['url', 'page'].includes(attribute.name ?? '')) {
            words.push(attribute.value.replace(/\\/g, ''));
            pushLink(resolve(attribute.value));
          }
        }
        break;
      default:
        break;
    }
    if ('children' in node) for (const child of node.children) walk(child as Nodes);
  };
  const push = (list: string[], value: string | null): void => {
    if (value) list.push(value);
  };
  const pushLink = (value: string | null): void => {
    if (value && value.endsWith('.md')) content.links.push(value);
  };
  walk(page.document);
  content.tokens = tokens(words.join(' '));
  return content;
}

export function tokens(text: string): string[] {
  return (
    text
      .normalize('NFKC')
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  );
}

/** 2·LCS / (|a| + |b|) over word tokens: 1 for the same words in the same order. */
export function similarity(a: string[], b: string[]): number {
  if (a.length === 0 && b.length === 0) return 1;
  let previous = new Array<number>(b.length + 1).fill(0);
  for (let i = 1; i <= a.length; i++) {
    const row = new Array<number>(b.length + 1).fill(0);
    for (let j = 1; j <= b.length; j++) row[j] = a[i - 1] === b[j - 1] ? previous[j - 1]! + 1 : Math.max(previous[j]!, row[j - 1]!);
    previous = row;
  }
  return (2 * previous[b.length]!) / (a.length + b.length);
}

function decodeEntities(text: string): string {
  const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) => {
    if (e.startsWith('#x') || e.startsWith('#X')) return String.fromCodePoint(parseInt(e.slice(2), 16));
    if (e.startsWith('#')) return String.fromCodePoint(parseInt(e.slice(1), 10));
    return named[e.toLowerCase()] ?? m;
  });
}

function flatten(entries: NavEntry[]): NavEntry[] {
  return entries.flatMap((e) => [e, ...flatten(e.children)]);
}

function urlVariants(urlPath: string): string[] {
  const url = ORIGIN + urlPath;
  if (url.endsWith('/')) return [url, `${url}index.html`];
  if (url.endsWith('/index.html')) return [url, url.slice(0, -'index.html'.length)];
  return [url];
}

function quantile(sorted: number[], q: number): number {
  if (sorted.length === 0) return 0;
  return sorted[Math.min(sorted.length - 1, Math.floor(q * (sorted.length - 1)))]!;
}

function ratio(n: number, total: number): number {
  return total === 0 ? 1 : n / total;
}

function hash(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

async function exists(path: string): Promise<boolean> {
  return readFile(path).then(
    () => true,
    () => false,
  );
}

async function listFiles(dir: string, base = dir): Promise<string[]> {
  const files: string[] = [];
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    const full = join(dir, entry.name);
    if (entry.isDirectory()) files.push(...(await listFiles(full, base)));
    else files.push(relative(base, full).split('\\').join('/'));
  }
  return files;
}
