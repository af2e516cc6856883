/**
 * `sitemap.xml` and sitemap indexes (sitemaps.org), parsed with fast-xml-parser: the page URLs they list, in
 * their order, and the nested sitemaps of an index. Gzipped sitemaps are inflated (with a size cap).
 */
import { gunzipSync } from 'node:zlib';
import { XMLParser } from 'fast-xml-parser';

export interface ParsedSitemap {
  urls: string[];
  /** Nested sitemaps (a sitemap index). */
  sitemaps: string[];
}

const parser = new XMLParser({ ignoreAttributes: true, removeNSPrefix: true, isArray: (name) => name === 'url' || name === 'sitemap', processEntities: true });

function locs(items: unknown): string[] {
  if (!Array.isArray(items)) return [];
  const out: string[] = [];
  for (const item of items) {
    const loc = (item as { loc?: unknown } | null)?.loc;
    if (typeof loc === 'string' && loc.trim()) out.push(loc.trim());
    else if (typeof loc === 'number') out.push(String(loc));
  }
  return out;
}

/** The URLs of a sitemap or a sitemap index; an unreadable document lists nothing (and throws no error). */
export function parseSitemap(bytes: Uint8Array, maxInflatedBytes = 50 * 1024 * 1024): ParsedSitemap {
  let data = bytes;
  if (data[0] === 0x1f && data[1] === 0x8b) {
    try {
      data = new Uint8Array(gunzipSync(data, { maxOutputLength: maxInflatedBytes }));
    } catch {
      return { urls: [], sitemaps: [] };
    }
  }
  let doc: Record<string, unknown>;
  try {
    doc = parser.parse(Buffer.from(data).toString('utf8')) as Record<string, unknown>;
  } catch {
    return { urls: [], sitemaps: [] };
  }
  const urlset = doc.urlset as { url?: unknown } | undefined;
  const index = doc.sitemapindex as { sitemap?: unknown } | undefined;
  return { urls: locs(urlset?.url), sitemaps: locs(index?.sitemap) };
}
