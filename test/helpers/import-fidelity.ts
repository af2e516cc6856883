/**
 * How faithfully a generated site comes back through Folio's website import, measured on the revision a real import
 * run made of it: pages imported, the page tree's order, each page's text against its GitBook source, code blocks,
 * images (space files with the source file's bytes, referenced from the page) and internal links (page references).
 */
import { createHash } from 'node:crypto';
import { readFile, readdir } from 'node:fs/promises';
import { join, posix, relative } from 'node:path';
import type { Nodes } from 'mdast';
import { parsePageFile } from '../../src/format/index.js';
import type { PageRecord, Store } from '../../src/store/index.js';
import type { AnalyzedPage } from '../../src/webimport/html-page.js';
import { ImportScope } from '../../src/webimport/scope.js';
import { planSite } from '../../src/webimport/site-tree.js';
import { generatorCode, type BuiltSite } from './site-generators.js';

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

/** One imported page, read back from the revision, with what it points at as paths of the source repository. */
export interface ImportedPage {
  /** Repository path of the source `.md` it was made from. */
  source: string;
  /** The page's markdown as stored. */
  markdown: string;
  /** Source files (repository paths) whose bytes the space files it references have. */
  images: string[];
  /** Source pages (repository paths) of the imported pages it references. */
  links: string[];
}

export interface ImportedSite {
  /** The imported pages in the revision's tree order (depth first). */
  pages: ImportedPage[];
}

/**
 * A site imported by the real pipeline (the API's import run: crawl over loopback through the fetch guard,
 * checkpoints, conversion in the parse pool, the git converter, the store) read back from its revision: each
 * imported page mapped to its source page through the run's own URLs and the importer's site plan, the files and
 * pages it references mapped to source files (by content) and source pages.
 */
export async function readImportedSite(site: BuiltSite, store: Store, runId: string, revisionId: string, startUrl: string): Promise<ImportedSite> {
  const origin = new URL(startUrl).origin;
  const byUrl = new Map<string, string>();
  for (const page of site.pages) for (const url of urlVariants(page.urlPath, origin)) byUrl.set(url, page.source);
  const rows = (await store.imports.urls(runId)).filter((u) => u.kind === 'page' && u.status === 'fetched' && u.analysis !== null);
  const plan = planSite(
    new ImportScope(startUrl),
    rows.map((u) => ({ key: u.url, title: (u.analysis as unknown as AnalyzedPage).title, nav: (u.analysis as unknown as AnalyzedPage).nav })),
  );
  const sourceOfFile = new Map<string, string>();
  for (const u of rows) {
    const source = byUrl.get(u.url) ?? (u.finalUrl ? byUrl.get(u.finalUrl) : undefined);
    const file = plan.files.get(u.url);
    if (source && file) sourceOfFile.set(file, source);
  }
  const sourcesByHash = new Map<string, string[]>();
  for (const file of await listFiles(site.sourceDir)) {
    if (file.endsWith('.md')) continue;
    const h = hash(await readFile(join(site.sourceDir, file)));
    sourcesByHash.set(h, [...(sourcesByHash.get(h) ?? []), file]);
  }
  const fileHash = new Map((await store.revisions.files(revisionId)).map((f) => [f.id, f.hash]));
  const records: PageRecord[] = [];
  const walk = (list: PageRecord[]) => {
    for (const p of list) {
      records.push(p);
      walk(p.children);
    }
  };
  walk(await store.revisions.pages(revisionId));
  const sourceOfPage = new Map<string, string>();
  for (const p of records) {
    const git = (p.data as { git?: { path?: string } }).git;
    const source = git?.path ? sourceOfFile.get(git.path) : undefined;
    if (p.kind === 'document' && source) sourceOfPage.set(p.id, source);
  }
  const pages: ImportedPage[] = [];
  for (const p of records) {
    const source = sourceOfPage.get(p.id);
    if (!source) continue;
    const body = await store.revisions.pageBody(revisionId, p.id);
    const references = ((p.data as { references?: Array<{ target: { kind: string; pageId?: string; fileId?: string } }> }).references ?? []).map(
      (r) => r.target,
    );
    const images = references.flatMap((t) => {
      const h = t.kind === 'file' && t.fileId ? fileHash.get(t.fileId) : undefined;
      return h ? (sourcesByHash.get(h) ?? []) : [];
    });
    const links = references.flatMap((t) => (t.kind === 'page' && t.pageId && sourceOfPage.has(t.pageId) ? [sourceOfPage.get(t.pageId)!] : []));
    pages.push({ source, markdown: body ? new TextDecoder().decode(body) : '', images, links });
  }
  return { pages };
}

/** The figures of an imported site against its sources (thresholds are the caller's). */
export async function measureFidelity(site: BuiltSite, imported: ImportedSite): Promise<FidelityReport> {
  const sourceRoot = site.sourceDir;
  const importedSources = imported.pages.map((p) => p.source).filter((s, i, all) => all.indexOf(s) === i);
  // The page tree's order against SUMMARY.md's, over the pages both have.
  const summaryOrder = site.summary.map((e) => e.path).filter((p) => importedSources.includes(p));
  const navOrderKept = importedSources.length > 0 && importedSources.join('\n') === summaryOrder.join('\n');
  const urlOf = new Set(site.pages.map((p) => p.source));

  const similarities: { page: string; similarity: number }[] = [];
  const code = { total: 0, equal: 0 };
  const images = { total: 0, present: 0 };
  const links = { total: 0, resolved: 0 };
  const missing = { code: [] as string[], images: [] as string[], links: [] as string[] };
  const seen = new Set<string>();
  for (const { source, markdown, images: shown, links: linked } of imported.pages) {
    if (seen.has(source)) continue;
    seen.add(source);
    const expected = sourcePage(sourceRoot, source, await readFile(join(sourceRoot, source), 'utf8'));
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
      if (shown.includes(image)) images.present++;
      else missing.images.push(`${source} → ${image}`);
    }
    for (const link of new Set(expected.links)) {
      // A link to a page that is no page of the site is broken in the source already; one to the page itself is
      // written as a fragment (`#heading`) once imported.
      if (!urlOf.has(link) || link === source) continue;
      links.total++;
      if (linked.includes(link)) links.resolved++;
      else missing.links.push(`${source} → ${link}`);
    }
  }
  const values = similarities.map((s) => s.similarity).sort((a, b) => a - b);
  return {
    generator: site.generator,
    repo: site.repo,
    pages: site.summary.length,
    pageRecall: seen.size / site.summary.length,
    navOrderKept,
    navCoverage: summaryOrder.length / site.summary.length,
    similarity: { min: values[0] ?? 0, p5: quantile(values, 0.05), median: quantile(values, 0.5) },
    dissimilar: similarities.filter((s) => s.similarity < 0.95),
    codeBlocks: { ...code, ratio: ratio(code.equal, code.total) },
    images: { ...images, ratio: ratio(images.present, images.total) },
    links: { ...links, ratio: ratio(links.resolved, links.total) },
    missing,
  };
}

const sourcePages = new Map<string, { text: string; content: PageContent }>();

/** `readPage` of a source page, once per file: each repository's pages are compared with three generators' sites. */
function sourcePage(root: string, path: string, text: string): PageContent {
  const key = join(root, path);
  const known = sourcePages.get(key);
  if (known?.text === text) return known.content;
  const content = readPage(text, path);
  sourcePages.set(key, { text, content });
  return content;
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

/**
 * Words (letters and digits, lower case) in order; a URL shown as text is one word, compared whole (markdown
 * parsers disagree on how much of a run of nested, escaped links is link destination and how much text: such a
 * run counts as what it is, one address, not as dozens of words).
 */
export function tokens(text: string): string[] {
  const out: string[] = [];
  for (const m of text.normalize('NFKC').matchAll(/(https?:\/\/\S+)|[\p{L}\p{N}]+/gu)) {
    out.push(m[1] ? m[1].replace(/[).,;:!?'"\]]+$/, '').toLowerCase() : m[0].toLowerCase());
  }
  return out;
}

/**
 * 2·LCS / (|a| + |b|) over word tokens: 1 for the same words in the same order. The LCS length is Myers' O((n+m)·D)
 * shortest edit script (D = n + m − 2·LCS, the words only one side has): exact like the quadratic table, and fast
 * on the near-identical pages this measures (the table of a 4,000-word page had 16 million cells).
 */
export function similarity(a: string[], b: string[]): number {
  if (a.length === 0 && b.length === 0) return 1;
  return (2 * lcsLength(a, b)) / (a.length + b.length);
}

/** The length of a longest common subsequence of `a` and `b` (Myers 1986: greedy forward search for the shortest edit script). */
export function lcsLength(a: string[], b: string[]): number {
  const n = a.length;
  const m = b.length;
  const max = n + m;
  // v[k + max]: the furthest x reached on diagonal k = x − y.
  const v = new Int32Array(2 * max + 2);
  for (let d = 0; d <= max; d++) {
    for (let k = -d; k <= d; k += 2) {
      let x = k === -d || (k !== d && v[k - 1 + max]! < v[k + 1 + max]!) ? v[k + 1 + max]! : v[k - 1 + max]! + 1;
      let y = x - k;
      while (x < n && y < m && a[x] === b[y]) {
        x++;
        y++;
      }
      v[k + max] = x;
      if (x >= n && y >= m) return (n + m - d) / 2;
    }
  }
  return 0;
}

function decodeEntities(text: string): string {
  const named: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (m, e: string) => {
    if (e.startsWith('#x') || e.startsWith('#X')) return String.fromCodePoint(parseInt(e.slice(2), 16));
    if (e.startsWith('#')) return String.fromCodePoint(parseInt(e.slice(1), 10));
    return named[e.toLowerCase()] ?? m;
  });
}

function urlVariants(urlPath: string, origin: string): string[] {
  const url = origin + urlPath;
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
