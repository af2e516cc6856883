/**
 * After the crawl: the fetched site as a GitBook source tree, for the same converter as git (`importTree`). Pages in
 * the site's navigation order (SUMMARY.md, site-tree.ts), each converted from its HTML (`convertHtmlPage`, in the
 * parse pool) with its links to imported pages rewritten to the relative path of their `.md` file (page links) and
 * its images and downloads to `.gitbook/assets/` (space files, one per distinct content; `data:` images of a page to
 * `.gitbook/assets/inline/`). Fetched bytes stay blobs:
 * the tree reads them lazily, and the revision references them by hash.
 */
import { isFolioError } from '../errors.js';
import type { SourceEntry, SourceTree } from '../format/index.js';
import type { BlobStore, ImportUrlRecord } from '../store/index.js';
import type { InlineImageFile } from './convert/images.js';
import type { AnalyzedPage, ConvertOptions, ConvertedPage } from './html-page.js';
import { ImportScope, pageKey } from './scope.js';
import { planSite, relativePath, summaryOf, type SitePlan } from './site-tree.js';
import type { CrawlWarning } from './crawl.js';

export interface BuildSourceOptions {
  startUrl: string;
  /** Every URL of the run (`store.imports.urls`). */
  urls: readonly ImportUrlRecord[];
  blobs: BlobStore;
  /** `convertHtmlPage` off the event loop (the parse pool). */
  convert(html: string, options: ConvertOptions): Promise<ConvertedPage>;
  /** Pages converted at once. */
  concurrency: number;
  onProgress(converted: number, total: number, current: string): void;
  signal?: AbortSignal;
}

export interface BuiltSource {
  tree: SourceTree;
  /** Asset path in the tree → blob hash (the revision's file bytes). */
  assetBlobs: Map<string, string>;
  plan: SitePlan;
  pages: number;
  warnings: CrawlWarning[];
}

const encoder = new TextEncoder();

function textEntry(text: string): SourceEntry {
  const bytes = encoder.encode(text);
  // The oid only identifies content for the converter (no git object is written): sha-like of the text suffices.
  return { oid: `text:${bytes.byteLength}:${hashText(text)}`, mode: '100644', size: bytes.byteLength, read: async () => bytes };
}

function hashText(text: string): string {
  let h = 2166136261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619) >>> 0;
  return h.toString(16);
}

function isHtmlRow(u: ImportUrlRecord): boolean {
  return u.kind === 'page' && u.status === 'fetched' && u.analysis !== null && /html/i.test(u.contentType ?? 'text/html');
}

function assetName(url: string, contentType: string | null): string {
  const last = decodeURIComponentSafe(new URL(url).pathname.split('/').pop() ?? '');
  let name = last
    .normalize('NFKC')
    .replace(/[^\p{L}\p{N}._-]+/gu, '-')
    .replace(/^[-.]+/, '');
  if (!name) name = 'file';
  if (!/\.[A-Za-z0-9]{1,8}$/.test(name)) {
    const ext = /html/i.test(contentType ?? '') ? 'html' : (/^[a-z]+\/([a-z0-9.+-]+)/i.exec(contentType ?? '')?.[1]?.replace(/\+xml$/, '') ?? 'bin');
    name = `${name}.${ext}`;
  }
  return name;
}

function decodeURIComponentSafe(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/**
 * The warning of a URL the crawl did not import: its checkpoint's error, `CODE: message` when the crawl typed it
 * (e.g. `WEBIMPORT_ASSET_REFUSED`), else WEBIMPORT_FETCH_FAILED or WEBIMPORT_SKIPPED with the error as it is.
 */
function urlWarning(u: ImportUrlRecord): CrawlWarning {
  const typed = /^(WEBIMPORT_[A-Z_]+): ([\s\S]*)$/.exec(u.error ?? '');
  if (typed) return { code: typed[1]!, message: typed[2]!, url: u.url };
  return { code: u.status === 'failed' ? 'WEBIMPORT_FETCH_FAILED' : 'WEBIMPORT_SKIPPED', message: `${u.url}: ${u.error ?? ''}`, url: u.url };
}

function yamlString(s: string): string {
  return JSON.stringify(s.replace(/\s+/g, ' ').trim());
}

/** The `data:` images of a converted page as space files (their bytes stored as blobs, read back lazily). */
async function keepInlineImages(files: readonly InlineImageFile[], blobs: BlobStore, tree: SourceTree, assetBlobs: Map<string, string>): Promise<void> {
  for (const f of files) {
    if (assetBlobs.has(f.path)) continue;
    const hash = await blobs.put(f.bytes);
    tree.set(f.path, {
      oid: `sha256:${hash}`,
      mode: '100644',
      size: f.bytes.byteLength,
      read: async () => {
        const bytes = await blobs.get(hash);
        if (!bytes) throw new Error(`blob ${hash} of ${f.path} is missing`);
        return bytes;
      },
    });
    assetBlobs.set(f.path, hash);
  }
}

/** What the pages and files of one build go into. */
interface SiteBuild {
  o: BuildSourceOptions;
  plan: SitePlan;
  tree: SourceTree;
  assetBlobs: Map<string, string>;
  /** Fetched URL → path of its space file. */
  fileOfUrl: Map<string, string>;
  warnings: CrawlWarning[];
}

/**
 * Space files: every other fetched URL (images, downloads, non-HTML pages, pages that could not be read), one file per
 * content; a URL not imported gets its warning.
 */
function addSpaceFiles(b: SiteBuild): void {
  const { o, tree, assetBlobs, fileOfUrl, warnings } = b;
  const fileByHash = new Map<string, string>();
  const takenNames = new Set<string>();
  for (const u of o.urls) {
    if (u.status === 'failed' || u.status === 'skipped') {
      if (u.error) warnings.push(urlWarning(u));
      continue;
    }
    if (u.status !== 'fetched' || !u.blobHash || isHtmlRow(u)) continue;
    if (u.kind === 'page' && u.analysis === null && /html/i.test(u.contentType ?? ''))
      warnings.push({ code: 'WEBIMPORT_PAGE_UNREADABLE', message: `${u.url} could not be read as a page; its HTML is kept as a space file`, url: u.url });
    let path = fileByHash.get(u.blobHash);
    if (!path) {
      const name = assetName(u.finalUrl ?? u.url, u.contentType);
      let candidate = name;
      for (let n = 2; takenNames.has(candidate.toLowerCase()); n++) candidate = name.replace(/(\.[^.]*)?$/, (ext) => `-${n}${ext}`);
      takenNames.add(candidate.toLowerCase());
      path = `.gitbook/assets/${candidate}`;
      fileByHash.set(u.blobHash, path);
      const hash = u.blobHash;
      tree.set(path, {
        oid: `sha256:${hash}`,
        mode: '100644',
        size: u.size ?? 0,
        read: async () => {
          const bytes = await o.blobs.get(hash);
          if (!bytes) throw new Error(`blob ${hash} of ${u.url} is missing`);
          return bytes;
        },
      });
      assetBlobs.set(path, hash);
    }
    fileOfUrl.set(u.url, path);
  }
}

/** The page's links to imported pages or files and its assets, as paths relative to the page's `.md` file. */
function pageTargets(b: SiteBuild, file: string, analysis: AnalyzedPage): Pick<ConvertOptions, 'linkTargets' | 'assetTargets'> {
  const linkTargets: Record<string, string> = {};
  const assetTargets: Record<string, string> = {};
  for (const link of analysis.links) {
    const key = pageKey(link);
    if (!key) continue;
    const target = b.plan.files.get(key) ?? b.fileOfUrl.get(key);
    if (target) linkTargets[link] = relativePath(file, target);
  }
  for (const asset of analysis.assets) {
    const key = pageKey(asset);
    const target = key ? b.fileOfUrl.get(key) : undefined;
    if (target) assetTargets[asset] = relativePath(file, target);
  }
  return { linkTargets, assetTargets };
}

/** One page's markdown, converted in the pool; a page that cannot be converted is kept as its HTML, with a warning. */
async function convertPage(b: SiteBuild, row: ImportUrlRecord, file: string, analysis: AnalyzedPage): Promise<string> {
  const { o, tree, assetBlobs, warnings } = b;
  const bytes = await o.blobs.get(row.blobHash!);
  if (!bytes) throw new Error(`blob ${row.blobHash} of ${row.url} is missing`);
  const html = Buffer.from(bytes).toString('utf8');
  try {
    const result = await o.convert(html, { pageUrl: row.finalUrl ?? row.url, ...pageTargets(b, file, analysis), pageFile: file });
    await keepInlineImages(result.files ?? [], o.blobs, tree, assetBlobs);
    for (const w of result.warnings) warnings.push({ code: w.code, message: `${row.url}: ${w.message}`, url: row.url });
    return result.markdown;
  } catch (err) {
    if (o.signal?.aborted) throw err;
    // A failure of Folio's own (the parse pool busy or closing), not the page's: the build fails and is retried.
    if (isFolioError(err) && err.retryable) throw err;
    // Kept, not lost: an empty page pointing at its HTML, which stays a space file.
    const kept = `.gitbook/assets/${assetName(row.url, 'text/html').replace(/\.html$/, '')}-${row.blobHash!.slice(0, 8)}.html`;
    tree.set(kept, { oid: `sha256:${row.blobHash}`, mode: '100644', size: bytes.byteLength, read: async () => bytes });
    assetBlobs.set(kept, row.blobHash!);
    warnings.push({
      code: 'WEBIMPORT_PAGE_NOT_CONVERTED',
      message: `${row.url} could not be converted (${err instanceof Error ? err.message : String(err)}); its HTML is kept as a space file`,
      url: row.url,
    });
    return `The content of this page could not be converted; its original HTML is [kept as a file](${relativePath(file, kept)}).\n`;
  }
}

export async function buildSiteSource(o: BuildSourceOptions): Promise<BuiltSource> {
  const scope = new ImportScope(o.startUrl);
  const pagesRows = o.urls.filter(isHtmlRow);
  const analysisOf = new Map(pagesRows.map((u) => [u.url, u.analysis as unknown as AnalyzedPage]));
  const plan = planSite(
    scope,
    pagesRows.map((u) => ({ key: u.url, title: analysisOf.get(u.url)!.title, nav: analysisOf.get(u.url)!.nav })),
  );
  const b: SiteBuild = { o, plan, tree: new Map(), assetBlobs: new Map(), fileOfUrl: new Map(), warnings: [] };
  addSpaceFiles(b);

  // Pages: converted in the pool, `concurrency` at a time.
  let converted = 0;
  let next = 0;
  const work = Array.from({ length: Math.max(1, Math.min(o.concurrency, pagesRows.length)) }, async () => {
    while (next < pagesRows.length) {
      const row = pagesRows[next++]!;
      o.signal?.throwIfAborted();
      const file = plan.files.get(row.url)!;
      const analysis = analysisOf.get(row.url)!;
      const markdown = await convertPage(b, row, file, analysis);
      const front = analysis.description ? `---\ndescription: ${yamlString(analysis.description)}\n---\n\n` : '';
      b.tree.set(file, textEntry(`${front}# ${analysis.title.replace(/\s+/g, ' ').trim()}\n\n${markdown.trim()}\n`));
      converted++;
      o.onProgress(converted, pagesRows.length, row.url);
    }
  });
  const settled = await Promise.allSettled(work);
  const failed = settled.find((r): r is PromiseRejectedResult => r.status === 'rejected');
  if (failed) throw failed.reason;
  b.tree.set('SUMMARY.md', textEntry(summaryOf(plan)));
  return { tree: b.tree, assetBlobs: b.assetBlobs, plan, pages: pagesRows.length, warnings: b.warnings };
}
