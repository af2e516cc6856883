/**
 * The site's `robots.txt`, read for Folio's user agent (robots-parser). Absent (4xx): everything allowed, as
 * RFC 9309 says; its `Sitemap:` lines and `Crawl-delay` are used by discovery and the fetcher.
 */
import robotsParserModule from 'robots-parser';
import { WEBIMPORT_ROBOTS_AGENT } from './user-agent.js';

export interface SiteRobots {
  allowed(url: string): boolean;
  sitemaps: string[];
  /** `Crawl-delay` for Folio, in milliseconds (capped at 10 s). */
  crawlDelayMs: number | undefined;
}

interface Robot {
  isAllowed(url: string, ua?: string): boolean | undefined;
  getCrawlDelay(ua?: string): number | undefined;
  getSitemaps(): string[];
}

/** robots-parser is CommonJS (`module.exports = fn`): under NodeNext its typings describe the default import as the module. */
const robotsParser = robotsParserModule as unknown as (url: string, text: string) => Robot;

export const ALLOW_ALL: SiteRobots = { allowed: () => true, sitemaps: [], crawlDelayMs: undefined };

export function parseRobots(robotsUrl: string, text: string): SiteRobots {
  const robots = robotsParser(robotsUrl, text);
  const delay = robots.getCrawlDelay(WEBIMPORT_ROBOTS_AGENT);
  return {
    allowed: (url) => robots.isAllowed(url, WEBIMPORT_ROBOTS_AGENT) !== false,
    sitemaps: robots.getSitemaps(),
    crawlDelayMs: delay === undefined ? undefined : Math.min(10_000, Math.max(0, delay * 1000)),
  };
}
