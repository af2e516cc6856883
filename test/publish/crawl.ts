/** A crawl of a published site (not a test file): every internal link and image fetched once. */
import { fromHtml } from 'hast-util-from-html';
import { selectAll } from 'hast-util-select';

export interface CrawlResult {
  pages: string[];
  broken: Array<{ url: string; status: number; from: string }>;
  fetched: number;
}

export async function crawlSite(start: string, headers: Record<string, string> = {}, limit = 2000): Promise<CrawlResult> {
  const prefix = new URL('./', start).href;
  const seen = new Set<string>([start]);
  const queue: Array<{ url: string; from: string }> = [{ url: start, from: '(start)' }];
  const pages: string[] = [];
  const broken: CrawlResult['broken'] = [];
  let fetched = 0;
  while (queue.length > 0 && fetched < limit) {
    const { url, from } = queue.shift()!;
    const res = await fetch(url, { headers, redirect: 'follow' });
    fetched++;
    if (res.status !== 200) {
      broken.push({ url, status: res.status, from });
      await res.arrayBuffer();
      continue;
    }
    const type = res.headers.get('content-type') ?? '';
    if (!type.startsWith('text/html')) {
      await res.arrayBuffer();
      continue;
    }
    pages.push(url);
    const tree = fromHtml(await res.text());
    for (const node of selectAll('a[href], img[src], link[href]', tree)) {
      const raw = String(node.properties.href ?? node.properties.src ?? '');
      if (raw === '' || /^(mailto:|tel:)/.test(raw)) continue;
      const target = new URL(raw, res.url);
      target.hash = '';
      if (!target.href.startsWith(prefix) || seen.has(target.href)) continue;
      if (target.pathname.endsWith('/~search')) continue;
      seen.add(target.href);
      queue.push({ url: target.href, from: url });
    }
  }
  return { pages, broken, fetched };
}
