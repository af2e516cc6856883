/**
 * The crawl of a website import: discovery (robots.txt, sitemaps and sitemap indexes, the site's navigation, the
 * same-origin links of each page's main content under the start URL's folder) and fetching (the polite fetcher),
 * checkpointed in the store URL by URL: a crawl that starts again (a worker died, the activity is retried) reads
 * what is done from `import_run_urls` and fetches only what is not.
 */
import type { BlobStore, ImportRunStore, ImportUrlRecord, JsonObject } from '../store/index.js';
import type { AnalyzedPage } from './html-page.js';
import { WebImportHttpError, WebImportRobotsDisallowedError, WebImportStartFailedError, WebImportTooLargeError, WebImportTooManyPagesError } from './errors.js';
import type { FetchedResource, PoliteFetcher } from './polite-fetcher.js';
import { ALLOW_ALL, parseRobots, type SiteRobots } from './robots.js';
import { ImportScope, isDownload, pageKey } from './scope.js';
import { parseSitemap } from './sitemap.js';

export interface CrawlLimits {
  maxPages: number;
  maxBytes: number;
  maxDepth: number;
}

export interface CrawlProgress {
  done: number;
  total: number;
  current: string | null;
  requests: number;
}

export interface CrawlWarning extends JsonObject {
  code: string;
  message: string;
  url: string;
}

export interface CrawlOptions {
  runId: string;
  startUrl: string;
  store: { imports: ImportRunStore; blobs: BlobStore };
  fetcher: PoliteFetcher;
  /** `analyzeHtmlPage` off the event loop (the parse pool). */
  analyze(html: string, url: string): Promise<AnalyzedPage>;
  limits: CrawlLimits;
  /** Workers fetching at once (the fetcher bounds each host on its own). */
  concurrency: number;
  onProgress(p: CrawlProgress): void;
  signal?: AbortSignal;
}

export interface CrawlResult {
  pages: number;
  assets: number;
  bytes: number;
  warnings: CrawlWarning[];
}

const MAX_SITEMAPS = 50;

function isHtml(contentType: string | null, bytes: Uint8Array): boolean {
  if (contentType) return /\b(text\/html|application\/xhtml\+xml)\b/i.test(contentType);
  const head = Buffer.from(bytes.subarray(0, 512)).toString('utf8').trimStart().toLowerCase();
  return head.startsWith('<!doctype html') || head.startsWith('<html');
}

/** The robots.txt of the site: a 4xx (none) allows everything; anything else after the fetcher's retries is thrown (retryable). */
async function loadRobots(fetcher: PoliteFetcher, scope: ImportScope): Promise<SiteRobots> {
  const url = `${scope.origin}/robots.txt`;
  try {
    const r = await fetcher.get(url, { accept: 'text/plain,*/*' });
    return parseRobots(url, Buffer.from(r.bytes).toString('utf8'));
  } catch (err) {
    if (err instanceof WebImportHttpError && err.status >= 400 && err.status < 500 && err.status !== 429) return ALLOW_ALL;
    throw err;
  }
}

/** Page URLs of the site's sitemaps (robots.txt's, then `/sitemap.xml` at the root and in the start folder), in scope. */
async function discoverSitemaps(fetcher: PoliteFetcher, scope: ImportScope, robots: SiteRobots, warnings: CrawlWarning[]): Promise<string[]> {
  const queue = [...new Set([...robots.sitemaps, `${scope.origin}/sitemap.xml`, `${scope.origin}${scope.basePath}sitemap.xml`])];
  const seen = new Set<string>();
  const urls: string[] = [];
  while (queue.length > 0 && seen.size < MAX_SITEMAPS) {
    const sitemap = queue.shift()!;
    if (seen.has(sitemap) || !scope.sameOrigin(sitemap)) continue;
    seen.add(sitemap);
    let fetched: FetchedResource;
    try {
      fetched = await fetcher.get(sitemap, { accept: 'application/xml,text/xml,*/*' });
    } catch (err) {
      if (err instanceof WebImportHttpError && !err.retryable) continue; // no sitemap there
      if (err instanceof WebImportHttpError) {
        warnings.push({
          code: 'WEBIMPORT_SITEMAP_UNAVAILABLE',
          message: `sitemap ${sitemap} answered HTTP ${err.status}; discovery goes on without it`,
          url: sitemap,
        });
        continue;
      }
      throw err;
    }
    const parsed = parseSitemap(fetched.bytes);
    queue.push(...parsed.sitemaps);
    for (const u of parsed.urls) {
      const key = pageKey(u);
      if (key && scope.contains(key) && !isDownload(key)) urls.push(key);
    }
  }
  return urls;
}

function navUrls(entries: AnalyzedPage['nav'], out: string[] = []): string[] {
  for (const e of entries) {
    if (e.url) out.push(e.url);
    navUrls(e.children, out);
  }
  return out;
}

export async function crawlSite(o: CrawlOptions): Promise<CrawlResult> {
  const { store, fetcher, runId, limits } = o;
  const scope = new ImportScope(o.startUrl);
  const warnings: CrawlWarning[] = [];
  const robots = await loadRobots(fetcher, scope);
  if (robots.crawlDelayMs !== undefined) fetcher.setCrawlDelay(new URL(scope.origin).host, robots.crawlDelayMs);
  if (!robots.allowed(scope.start)) throw new WebImportRobotsDisallowedError(scope.start);

  let pageCount = 0;
  let bytes = 0;
  let done = 0;
  let total = 0;
  let navKept = false;
  let deeper = 0;
  let disallowed = 0;

  // URLs the run already has (so that the links every page repeats cost no store round trip).
  const knownUrls = new Set<string>();

  async function add(all: Array<{ url: string; kind: 'page' | 'asset'; depth: number }>): Promise<void> {
    const entries = all.filter((e) => !knownUrls.has(e.url));
    if (entries.length === 0) return;
    for (const e of entries) knownUrls.add(e.url);
    const pages = entries.filter((e) => e.kind === 'page');
    if (pages.length > 0 && pageCount + pages.length > limits.maxPages) {
      // Only URLs not known yet count: ask the store which are new before failing.
      const added = await store.imports.addUrls(runId, entries);
      const addedPages = new Set(added);
      pageCount += pages.filter((p) => addedPages.has(p.url)).length;
      total += added.length;
      if (pageCount > limits.maxPages) throw new WebImportTooManyPagesError(limits.maxPages);
      return;
    }
    const added = await store.imports.addUrls(runId, entries);
    const addedSet = new Set(added);
    pageCount += pages.filter((p) => addedSet.has(p.url)).length;
    total += added.length;
  }

  const report = (current: string | null) => o.onProgress({ done, total, current, requests: fetcher.requests });

  async function fetchOne(entry: ImportUrlRecord): Promise<void> {
    o.signal?.throwIfAborted();
    report(entry.url);
    if (!robots.allowed(entry.url)) {
      disallowed++;
      await store.imports.recordUrl(runId, entry.url, { status: 'skipped', error: 'disallowed by robots.txt' });
      done++;
      return;
    }
    let fetched: FetchedResource;
    try {
      fetched = await fetcher.get(entry.url, entry.kind === 'asset' ? { accept: '*/*' } : {});
    } catch (err) {
      if (err instanceof WebImportHttpError && !err.retryable) {
        if (entry.url === scope.start) throw new WebImportStartFailedError(entry.url, `HTTP ${err.status}`);
        warnings.push({ code: 'WEBIMPORT_FETCH_FAILED', message: `${entry.url} answered HTTP ${err.status}; it is not imported`, url: entry.url });
        await store.imports.recordUrl(runId, entry.url, { status: 'failed', error: `HTTP ${err.status}` });
        done++;
        return;
      }
      throw err;
    }
    bytes += fetched.bytes.length;
    if (bytes > limits.maxBytes) throw new WebImportTooLargeError(limits.maxBytes);
    const finalKey = pageKey(fetched.finalUrl) ?? entry.url;
    const blobHash = await store.blobs.put(fetched.bytes);
    const meta = {
      blobHash,
      size: fetched.bytes.length,
      contentType: fetched.contentType,
      etag: fetched.etag,
      lastModified: fetched.lastModified,
      finalUrl: fetched.finalUrl,
    };
    if (entry.kind === 'asset' || !isHtml(fetched.contentType, fetched.bytes)) {
      if (entry.url === scope.start) throw new WebImportStartFailedError(entry.url, `not an HTML page (${fetched.contentType ?? 'no content type'})`);
      await store.imports.recordUrl(runId, entry.url, { status: 'fetched', ...meta });
      done++;
      return;
    }
    if (finalKey !== entry.url && !scope.contains(finalKey)) {
      warnings.push({ code: 'WEBIMPORT_REDIRECTED_AWAY', message: `${entry.url} redirects to ${fetched.finalUrl}, outside the imported site`, url: entry.url });
      await store.imports.recordUrl(runId, entry.url, { status: 'skipped', ...meta, error: `redirects outside the site to ${fetched.finalUrl}` });
      done++;
      return;
    }
    const html = Buffer.from(fetched.bytes).toString('utf8');
    let analysis: AnalyzedPage | null = null;
    try {
      analysis = await o.analyze(html, fetched.finalUrl);
    } catch (err) {
      if (err instanceof Error && /abort/i.test(err.name)) throw err;
      warnings.push({
        code: 'WEBIMPORT_PAGE_UNREADABLE',
        message: `${entry.url} could not be read (${err instanceof Error ? err.message : String(err)}); its HTML is kept as a space file`,
        url: entry.url,
      });
    }
    if (analysis) {
      const found: Array<{ url: string; kind: 'page' | 'asset'; depth: number }> = [];
      const depth = entry.depth + 1;
      for (const link of analysis.links) {
        const key = pageKey(link);
        if (!key || !scope.sameOrigin(key)) continue;
        if (isDownload(key)) found.push({ url: key, kind: 'asset', depth });
        else if (scope.contains(key)) {
          if (depth > limits.maxDepth) deeper++;
          else found.push({ url: key, kind: 'page', depth });
        }
      }
      for (const asset of analysis.assets) {
        const key = pageKey(asset);
        if (key && scope.sameOrigin(key)) found.push({ url: key, kind: 'asset', depth });
      }
      for (const nav of navUrls(analysis.nav)) {
        const key = pageKey(nav);
        if (key && scope.contains(key) && !isDownload(key)) found.push({ url: key, kind: 'page', depth: Math.min(depth, 1) });
      }
      await add(found);
      // The navigation is the site's, the same on every page: kept once (the start page's, else the first found).
      if (analysis.nav.length > 0) {
        if (navKept) analysis = { ...analysis, nav: [] };
        navKept = true;
      }
    }
    await store.imports.recordUrl(runId, entry.url, { status: 'fetched', ...meta, analysis: analysis as unknown as JsonObject | null });
    done++;
  }

  let known = await store.imports.urls(runId);
  if (known.length === 0) {
    const fromSitemaps = await discoverSitemaps(fetcher, scope, robots, warnings);
    await add([{ url: scope.start, kind: 'page', depth: 0 }, ...fromSitemaps.map((url) => ({ url, kind: 'page' as const, depth: 1 }))]);
    known = await store.imports.urls(runId);
  }
  for (const u of known) knownUrls.add(u.url);
  pageCount = known.filter((u) => u.kind === 'page').length;
  bytes = known.reduce((n, u) => n + (u.size ?? 0), 0);
  done = known.filter((u) => u.status !== 'pending').length;
  total = known.length;
  navKept = known.some((u) => u.analysis && Array.isArray((u.analysis as { nav?: unknown[] }).nav) && (u.analysis as { nav: unknown[] }).nav.length > 0);

  // Rounds: every pending URL in discovery order, `concurrency` at a time; URLs found meanwhile wait for the next round.
  for (;;) {
    const pending = await store.imports.urls(runId, { status: 'pending' });
    if (pending.length === 0) break;
    let next = 0;
    const workers = Array.from({ length: Math.max(1, Math.min(o.concurrency, pending.length)) }, async () => {
      while (next < pending.length) {
        const entry = pending[next++]!;
        await fetchOne(entry);
      }
    });
    const results = await Promise.allSettled(workers);
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
  }
  report(null);
  if (deeper > 0)
    warnings.push({
      code: 'WEBIMPORT_DEPTH_LIMIT',
      message: `${deeper} links deeper than ${limits.maxDepth} (WEBIMPORT_MAX_DEPTH) were not followed`,
      url: scope.start,
    });
  if (disallowed > 0)
    warnings.push({ code: 'WEBIMPORT_ROBOTS_SKIPPED', message: `${disallowed} URLs disallowed by robots.txt were not fetched`, url: scope.start });
  const counts = await store.imports.counts(runId);
  return { pages: counts.pages, assets: counts.assets, bytes: counts.bytes, warnings };
}
