/**
 * The crawl of a website import: discovery (robots.txt, sitemaps and sitemap indexes, the site's navigation, the
 * same-origin links of each page's main content under the start URL's folder) and fetching (the polite fetcher),
 * checkpointed in the store URL by URL: a crawl that starts again (a worker died, the activity is retried) reads
 * what is done from `import_run_urls` and fetches only what is not.
 *
 * The run's limits hold whatever the source of a URL (sitemap, navigation, link, redirect): at most
 * `maxPages` pages and `ASSETS_PER_PAGE` × that many files are ever added to the run (more are counted in one
 * warning, never stored or fetched), sitemap files are bounded in number, size and nesting, and at the run's
 * deadline the crawl stops where it is. A URL that cannot be fetched (refused by the address policy, failing after
 * its retries, too large) is recorded as failed with a typed warning; only the start page's failure fails the run.
 */
import { isFolioError } from '../errors.js';
import type { BlobStore, ImportRunStore, ImportUrlRecord, JsonObject } from '../store/index.js';
import type { AnalyzedPage } from './html-page.js';
import {
  WebImportDeadlineError,
  WebImportHttpError,
  WebImportNetworkError,
  WebImportRobotsDisallowedError,
  WebImportSiteUnreachableError,
  WebImportTimeoutError,
  WebImportTooLargeError,
} from './errors.js';
import { failureWarning, isFetchFailure, startFailure } from './fetch-failures.js';
import type { FetchedResource, PoliteFetcher } from './polite-fetcher.js';
import { ALLOW_ALL, parseRobots, type SiteRobots } from './robots.js';
import { ImportScope, isDownload, pageKey } from './scope.js';
import { discoverSitemaps } from './sitemap-discovery.js';
import { parseSitemap, type ParsedSitemap } from './sitemap.js';

export interface CrawlLimits {
  maxPages: number;
  maxBytes: number;
  maxDepth: number;
}

/** Files (images, downloads) one run may add per page it may add: WEBIMPORT_MAX_PAGES × 10. */
export const ASSETS_PER_PAGE = 10;

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
  /** `parseSitemap` off the event loop (the parse pool); default: in this thread. */
  parseSitemap?(bytes: Uint8Array): Promise<ParsedSitemap>;
  limits: CrawlLimits;
  /** The run's deadline (epoch milliseconds, and the setting's value for messages): the crawl stops there. */
  deadline?: { at: number; ms: number };
  /**
   * Requests at once (the fetcher bounds each host on its own): twice as many URLs are in hand, so that while some
   * are stored and analyzed as many are fetched, and a polite crawl waits on the site's pacing rather than on itself.
   */
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

type NewUrl = { url: string; kind: 'page' | 'asset'; depth: number };

function isHtml(contentType: string | null, bytes: Uint8Array): boolean {
  if (contentType) return /\b(text\/html|application\/xhtml\+xml)\b/i.test(contentType);
  const head = Buffer.from(bytes.subarray(0, 512)).toString('utf8').trimStart().toLowerCase();
  return head.startsWith('<!doctype html') || head.startsWith('<html');
}

/**
 * The robots.txt of the site: a 4xx (none) allows everything. One that cannot be fetched after the fetcher's
 * retries (no answer, the network, a 5xx) disallows the whole site (RFC 9309): WEBIMPORT_SITE_UNREACHABLE.
 */
async function loadRobots(fetcher: PoliteFetcher, scope: ImportScope): Promise<SiteRobots> {
  const url = `${scope.origin}/robots.txt`;
  try {
    const r = await fetcher.get(url, { headers: { accept: 'text/plain,*/*' }, maxBytes: 512 * 1024, what: 'a robots.txt may have' });
    return parseRobots(url, Buffer.from(r.bytes).toString('utf8'));
  } catch (err) {
    if (err instanceof WebImportHttpError && err.status >= 400 && err.status < 500 && err.status !== 429) return ALLOW_ALL;
    if (err instanceof WebImportHttpError || err instanceof WebImportNetworkError || err instanceof WebImportTimeoutError)
      throw new WebImportSiteUnreachableError(url, err);
    throw err;
  }
}

function navUrls(entries: AnalyzedPage['nav'], out: string[] = []): string[] {
  for (const e of entries) {
    if (e.url) out.push(e.url);
    navUrls(e.children, out);
  }
  return out;
}

/** The page and file URLs an analyzed page leads to, in scope, with their depth. */
function foundUrls(analysis: AnalyzedPage, scope: ImportScope, depth: number, maxDepth: number): { found: NewUrl[]; deeper: number } {
  const found: NewUrl[] = [];
  let deeper = 0;
  for (const link of analysis.links) {
    const key = pageKey(link);
    if (!key || !scope.sameOrigin(key)) continue;
    if (isDownload(key)) found.push({ url: key, kind: 'asset', depth });
    else if (scope.contains(key)) {
      if (depth > maxDepth) deeper++;
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
  return { found, deeper };
}

/** One crawl: its counters, and what it found over the limits. */
class Crawl {
  readonly scope: ImportScope;
  readonly warnings: CrawlWarning[] = [];
  robots: SiteRobots = ALLOW_ALL;
  pageCount = 0;
  assetCount = 0;
  bytes = 0;
  done = 0;
  total = 0;
  navKept = false;
  deeper = 0;
  disallowed = 0;
  /** URLs found beyond the page and file limits (never stored). */
  pagesOver = 0;
  assetsOver = 0;
  /** The run's deadline came: no further URL is fetched. */
  deadlineReached = false;
  /** URLs the run has (so that the links every page repeats cost no store round trip), and those refused by a limit. */
  readonly knownUrls = new Set<string>();

  constructor(readonly o: CrawlOptions) {
    this.scope = new ImportScope(o.startUrl);
  }

  get maxAssets(): number {
    return this.o.limits.maxPages * ASSETS_PER_PAGE;
  }

  /** Adds new URLs to the run, up to the page and file limits; the others are counted, not stored. */
  async add(all: readonly NewUrl[]): Promise<void> {
    const fresh: NewUrl[] = [];
    for (const e of all) {
      if (this.knownUrls.has(e.url)) continue;
      this.knownUrls.add(e.url);
      if (e.kind === 'page' && this.pageCount >= this.o.limits.maxPages) this.pagesOver++;
      else if (e.kind === 'asset' && this.assetCount >= this.maxAssets) this.assetsOver++;
      else {
        if (e.kind === 'page') this.pageCount++;
        else this.assetCount++;
        fresh.push(e);
      }
    }
    if (fresh.length === 0) return;
    const added = await this.o.store.imports.addUrls(this.o.runId, fresh);
    this.total += added.length;
  }

  report(current: string | null): void {
    this.o.onProgress({ done: this.done, total: this.total, current, requests: this.o.fetcher.requests });
  }

  async record(url: string, result: Parameters<ImportRunStore['recordUrl']>[2]): Promise<void> {
    await this.o.store.imports.recordUrl(this.o.runId, url, result);
    this.done++;
  }

  /** The outcome of a fetch that threw: the deadline stops the crawl, a URL that cannot be fetched is a warning. */
  async fetchFailed(entry: ImportUrlRecord, err: unknown): Promise<void> {
    if (err instanceof WebImportDeadlineError) {
      this.deadlineReached = true; // the URL stays pending
      return;
    }
    if (this.o.signal?.aborted || !isFetchFailure(err)) throw err;
    if (entry.url === this.scope.start) throw startFailure(entry.url, err);
    const w = failureWarning(entry.url, entry.kind, err);
    await this.record(entry.url, { status: 'failed', error: `${w.code}: ${w.message}` });
  }

  async fetchOne(entry: ImportUrlRecord): Promise<void> {
    this.o.signal?.throwIfAborted();
    if (this.deadlineReached) return;
    this.report(entry.url);
    if (!this.robots.allowed(entry.url)) {
      this.disallowed++;
      await this.record(entry.url, { status: 'skipped', error: 'disallowed by robots.txt' });
      return;
    }
    let fetched: FetchedResource;
    try {
      fetched = await this.o.fetcher.get(entry.url, entry.kind === 'asset' ? { headers: { accept: '*/*' } } : {});
    } catch (err) {
      await this.fetchFailed(entry, err);
      return;
    }
    this.bytes += fetched.bytes.length;
    if (this.bytes > this.o.limits.maxBytes) throw new WebImportTooLargeError(this.o.limits.maxBytes);
    await this.keep(entry, fetched);
  }

  /** A fetched URL: its bytes stored, a page analyzed (its links and files added to the run). */
  async keep(entry: ImportUrlRecord, fetched: FetchedResource): Promise<void> {
    const { scope } = this;
    const finalKey = pageKey(fetched.finalUrl) ?? entry.url;
    const blobHash = await this.o.store.blobs.put(fetched.bytes);
    const meta = {
      blobHash,
      size: fetched.bytes.length,
      contentType: fetched.contentType,
      etag: fetched.etag,
      lastModified: fetched.lastModified,
      finalUrl: fetched.finalUrl,
    };
    if (entry.kind === 'asset' || !isHtml(fetched.contentType, fetched.bytes)) {
      if (entry.url === scope.start) throw startFailure(entry.url, `not an HTML page (${fetched.contentType ?? 'no content type'})`);
      await this.record(entry.url, { status: 'fetched', ...meta });
      return;
    }
    if (finalKey !== entry.url && !scope.contains(finalKey)) {
      const error = `WEBIMPORT_REDIRECTED_AWAY: ${entry.url} redirects to ${fetched.finalUrl}, outside the imported site; it is not imported`;
      await this.record(entry.url, { status: 'skipped', ...meta, error });
      return;
    }
    let analysis = await this.analyze(entry, fetched);
    if (analysis) {
      const { found, deeper } = foundUrls(analysis, scope, entry.depth + 1, this.o.limits.maxDepth);
      this.deeper += deeper;
      await this.add(found);
      // The navigation is the site's, the same on every page: kept once (the start page's, else the first found).
      if (analysis.nav.length > 0) {
        if (this.navKept) analysis = { ...analysis, nav: [] };
        this.navKept = true;
      }
    }
    await this.record(entry.url, { status: 'fetched', ...meta, analysis: analysis as unknown as JsonObject | null });
  }

  async analyze(entry: ImportUrlRecord, fetched: FetchedResource): Promise<AnalyzedPage | null> {
    try {
      return await this.o.analyze(Buffer.from(fetched.bytes).toString('utf8'), fetched.finalUrl);
    } catch (err) {
      if (err instanceof Error && /abort/i.test(err.name)) throw err;
      // A failure of Folio's own (the parse pool busy or closing), not the page's: thrown, so the URL stays pending
      // and the activity's retry analyzes it again, rather than a page kept for good as unreadable (a run whose
      // start page it was would end with WEBIMPORT_NO_PAGES).
      if (isFolioError(err) && err.retryable) throw err;
      this.warnings.push({
        code: 'WEBIMPORT_PAGE_UNREADABLE',
        message: `${entry.url} could not be read (${err instanceof Error ? err.message : String(err)}); its HTML is kept as a space file`,
        url: entry.url,
      });
      return null;
    }
  }
}

/** Loads the run's checkpoints into the crawl (discovering the site first when the run has none). */
async function start(c: Crawl): Promise<void> {
  const { store, runId, fetcher, limits } = c.o;
  let known = await store.imports.urls(runId);
  if (known.length === 0) {
    const sitemaps = await discoverSitemaps({
      fetcher,
      scope: c.scope,
      robots: c.robots,
      parse: c.o.parseSitemap ?? (async (bytes) => parseSitemap(bytes)),
      wanted: limits.maxPages,
      maxBytes: limits.maxBytes,
      warnings: c.warnings,
      ...(c.o.signal ? { signal: c.o.signal } : {}),
    });
    await c.add([{ url: c.scope.start, kind: 'page', depth: 0 }, ...sitemaps.map((url) => ({ url, kind: 'page' as const, depth: 1 }))]);
    known = await store.imports.urls(runId);
  } else if (known.filter((u) => u.kind === 'page').length >= limits.maxPages) {
    c.pagesOver = -1; // resumed at the limit: pages beyond it were found before (how many is not known)
  }
  for (const u of known) c.knownUrls.add(u.url);
  c.pageCount = known.filter((u) => u.kind === 'page').length;
  c.assetCount = known.length - c.pageCount;
  c.bytes = known.reduce((n, u) => n + (u.size ?? 0), 0);
  c.done = known.filter((u) => u.status !== 'pending').length;
  c.total = known.length;
  c.navKept = known.some((u) => u.analysis && Array.isArray((u.analysis as { nav?: unknown[] }).nav) && (u.analysis as { nav: unknown[] }).nav.length > 0);
}

/** URLs in hand per request at once: one being fetched, one being stored and analyzed. */
const IN_HAND_PER_REQUEST = 2;

/** Rounds: every pending URL in discovery order, 2 × `concurrency` at a time; URLs found meanwhile wait for the next round. */
async function fetchAll(c: Crawl): Promise<void> {
  const { store, runId } = c.o;
  while (!c.deadlineReached) {
    if (c.o.deadline && Date.now() >= c.o.deadline.at) {
      c.deadlineReached = true;
      break;
    }
    const pending = await store.imports.urls(runId, { status: 'pending' });
    if (pending.length === 0) break;
    let next = 0;
    const workers = Array.from({ length: Math.max(1, Math.min(IN_HAND_PER_REQUEST * c.o.concurrency, pending.length)) }, async () => {
      while (next < pending.length && !c.deadlineReached) await c.fetchOne(pending[next++]!);
    });
    const results = await Promise.allSettled(workers);
    const failed = results.find((r): r is PromiseRejectedResult => r.status === 'rejected');
    if (failed) throw failed.reason;
  }
}

/** The run-level warnings: limits reached, the deadline, robots.txt, the retry budget. */
async function finish(c: Crawl): Promise<void> {
  const { limits, deadline, fetcher, store, runId } = c.o;
  const at = c.scope.start;
  const w = (code: string, message: string) => c.warnings.push({ code, message, url: at });
  if (c.deadlineReached && deadline) {
    const pending = await store.imports.urls(runId, { status: 'pending' });
    if (pending.some((u) => u.url === c.scope.start)) throw new WebImportDeadlineError(deadline.ms, 'before the start page was fetched');
    w('WEBIMPORT_DEADLINE', `the import reached its deadline of ${deadline.ms} ms (WEBIMPORT_DEADLINE_MS): ${pending.length} URLs found were not fetched`);
  }
  if (c.pagesOver !== 0) {
    const more = c.pagesOver > 0 ? `${c.pagesOver} more pages found (sitemaps, navigation, links) were` : 'the further pages found were';
    w('WEBIMPORT_PAGE_LIMIT', `the import stopped at ${limits.maxPages} pages (WEBIMPORT_MAX_PAGES): ${more} not fetched`);
  }
  if (c.assetsOver > 0)
    w('WEBIMPORT_FILE_LIMIT', `the import stopped at ${c.maxAssets} files (${ASSETS_PER_PAGE} × WEBIMPORT_MAX_PAGES): ${c.assetsOver} more were not fetched`);
  if (c.deeper > 0) w('WEBIMPORT_DEPTH_LIMIT', `${c.deeper} links deeper than ${limits.maxDepth} (WEBIMPORT_MAX_DEPTH) were not followed`);
  if (c.disallowed > 0) w('WEBIMPORT_ROBOTS_SKIPPED', `${c.disallowed} URLs disallowed by robots.txt were not fetched`);
  if (fetcher.retryBudgetSpent) w('WEBIMPORT_RETRY_BUDGET', `the run's retries (WEBIMPORT_RUN_RETRIES) were spent: later failing requests were not retried`);
}

export async function crawlSite(o: CrawlOptions): Promise<CrawlResult> {
  const c = new Crawl(o);
  if (o.deadline && Date.now() >= o.deadline.at) {
    // A crawl retried after its deadline fetches nothing more.
    c.deadlineReached = true;
  } else {
    c.robots = await loadRobots(o.fetcher, c.scope);
    if (c.robots.crawlDelayMs !== undefined) o.fetcher.setCrawlDelay(new URL(c.scope.origin).host, c.robots.crawlDelayMs);
    if (!c.robots.allowed(c.scope.start)) throw new WebImportRobotsDisallowedError(c.scope.start);
  }
  await start(c);
  await fetchAll(c);
  c.report(null);
  await finish(c);
  const counts = await o.store.imports.counts(o.runId);
  return { pages: counts.pages, assets: counts.assets, bytes: counts.bytes, warnings: c.warnings };
}
