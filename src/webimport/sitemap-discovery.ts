/**
 * Discovery through the site's sitemaps: robots.txt's `Sitemap:` lines, then `/sitemap.xml` at the root and in the
 * start folder, and the sitemaps their indexes list. Bounded whatever the site serves: at most
 * `SITEMAP_LIMITS.files` sitemap files, indexes nested at most `SITEMAP_LIMITS.nesting` deep, each file at most
 * `SITEMAP_LIMITS.bytes` (the sitemaps.org maximum) and all together at most the run's byte limit; reading stops
 * once enough pages are known for the run's page limit. What a bound left unread is one typed warning; a sitemap
 * that does not answer (after the fetcher's retries) is a warning and discovery goes on.
 */
import { WebImportHttpError, WebImportResponseTooLargeError } from './errors.js';
import { isFetchFailure } from './fetch-failures.js';
import type { FetchedResource, PoliteFetcher } from './polite-fetcher.js';
import type { SiteRobots } from './robots.js';
import { isDownload, pageKey, type ImportScope } from './scope.js';
import type { ParsedSitemap } from './sitemap.js';

export const SITEMAP_LIMITS = { files: 50, nesting: 2, bytes: 50 * 1024 * 1024 };

export interface SitemapDiscovery {
  fetcher: PoliteFetcher;
  scope: ImportScope;
  robots: SiteRobots;
  parse(bytes: Uint8Array): Promise<ParsedSitemap>;
  /** Pages wanted (the run's page limit): no further sitemap is read once this many are known. */
  wanted: number;
  /** Bytes all sitemaps together may have. */
  maxBytes: number;
  warnings: Array<{ code: string; message: string; url: string }>;
  signal?: AbortSignal;
}

/** Page URLs of the site's sitemaps, in scope, in their order, without duplicates. */
export async function discoverSitemaps(d: SitemapDiscovery): Promise<string[]> {
  const { scope } = d;
  const queue = [...new Set([...d.robots.sitemaps, `${scope.origin}/sitemap.xml`, `${scope.origin}${scope.basePath}sitemap.xml`])].map((url) => ({
    url,
    nesting: 0,
  }));
  const seen = new Set<string>();
  const urls = new Set<string>();
  let bytes = 0;
  let unread = 0;
  const warn = (code: string, message: string, url: string) => d.warnings.push({ code, message, url });
  while (queue.length > 0 && urls.size < d.wanted) {
    const { url: sitemap, nesting } = queue.shift()!;
    if (seen.has(sitemap) || !scope.sameOrigin(sitemap)) continue;
    if (seen.size >= SITEMAP_LIMITS.files || nesting > SITEMAP_LIMITS.nesting || bytes >= d.maxBytes) {
      unread++;
      continue;
    }
    seen.add(sitemap);
    const fetched = await fetchSitemap(d, sitemap, Math.min(SITEMAP_LIMITS.bytes, d.maxBytes - bytes), warn);
    if (!fetched) continue;
    bytes += fetched.bytes.length;
    let parsed: ParsedSitemap;
    try {
      parsed = await d.parse(fetched.bytes);
    } catch (err) {
      if (d.signal?.aborted) throw err;
      warn('WEBIMPORT_SITEMAP_UNREADABLE', `sitemap ${sitemap} could not be read (${err instanceof Error ? err.message : String(err)})`, sitemap);
      continue;
    }
    queue.push(...parsed.sitemaps.map((url) => ({ url, nesting: nesting + 1 })));
    for (const u of parsed.urls) {
      const key = pageKey(u);
      if (key && scope.contains(key) && !isDownload(key)) urls.add(key);
    }
  }
  if (unread > 0)
    warn(
      'WEBIMPORT_SITEMAP_LIMIT',
      `${unread} sitemaps were not read: at most ${SITEMAP_LIMITS.files} sitemap files, indexes nested ${SITEMAP_LIMITS.nesting} deep and ${d.maxBytes} bytes of sitemaps are read in one import`,
      `${scope.origin}/sitemap.xml`,
    );
  return [...urls];
}

/** One sitemap's bytes, or null when there is none (4xx) or it cannot be fetched (a warning). */
async function fetchSitemap(
  d: SitemapDiscovery,
  url: string,
  maxBytes: number,
  warn: (code: string, message: string, url: string) => void,
): Promise<FetchedResource | null> {
  try {
    return await d.fetcher.get(url, { headers: { accept: 'application/xml,text/xml,*/*' }, maxBytes, what: 'one sitemap may have here' });
  } catch (err) {
    if (err instanceof WebImportHttpError && !err.retryable) return null; // no sitemap there
    if (d.signal?.aborted || !isFetchFailure(err)) throw err;
    if (err instanceof WebImportResponseTooLargeError) warn('WEBIMPORT_SITEMAP_LIMIT', `${err.message}; it is not read`, url);
    else warn('WEBIMPORT_SITEMAP_UNAVAILABLE', `sitemap ${url} could not be fetched (${err.message}); discovery goes on without it`, url);
    return null;
  }
}
