/**
 * The crawl's bounds on its own (no Temporal), against hostile loopback sites: sitemap files bounded in number,
 * nesting and size; retries bounded per run (WEBIMPORT_RUN_RETRIES); a host name that does not resolve asked once;
 * an image redirecting to a refused address recorded as a typed warning while the page imports; the run's deadline.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemResolve } from '../../src/net/policy.js';
import type { Store } from '../../src/store/index.js';
import { crawlSite, type CrawlOptions } from '../../src/webimport/crawl.js';
import { analyzeHtmlPage } from '../../src/webimport/html-page.js';
import { PoliteFetcher, type PoliteFetcherOptions } from '../../src/webimport/polite-fetcher.js';
import { SITEMAP_LIMITS } from '../../src/webimport/sitemap-discovery.js';
import { loopbackPolicy } from '../helpers/loopback-policy.js';
import { createTestStore } from '../helpers/store.js';
import { html, NOT_FOUND, startHostileSite, type HostileAnswer, type HostileSite } from './hostile-sites.js';

let store: Store;
let spaceId: string;
const sites: HostileSite[] = [];

beforeAll(async () => {
  store = await createTestStore();
  await store.orgs.ensure({ id: 'limits-org', title: 'Limits' });
  spaceId = (await store.spaces.create('limits-org', { title: 'Limits' })).id;
});

afterAll(async () => {
  for (const s of sites) await s.stop();
  await store?.close();
});

async function site(answer: (path: string, base: string) => HostileAnswer): Promise<HostileSite> {
  const s = await startHostileSite(answer);
  sites.push(s);
  return s;
}

async function newRun(url: string): Promise<string> {
  return (await store.imports.create({ organizationId: 'limits-org', spaceId, source: { type: 'website', url } })).id;
}

function options(runId: string, startUrl: string, over: Partial<CrawlOptions> = {}, fetcher: Partial<PoliteFetcherOptions> = {}): CrawlOptions {
  return {
    runId,
    startUrl,
    store,
    fetcher: new PoliteFetcher({
      policy: loopbackPolicy,
      concurrency: 2,
      delayMs: 0,
      timeoutMs: 10_000,
      retries: 2,
      maxResponseBytes: 1 << 20,
      backoffMs: 10,
      ...fetcher,
    }),
    analyze: async (text, url) => analyzeHtmlPage(text, url),
    limits: { maxPages: 100, maxBytes: 10 << 20, maxDepth: 10 },
    concurrency: 2,
    onProgress: () => undefined,
    ...over,
  };
}

const xml = (body: string): HostileAnswer => ({ status: 200, headers: { 'content-type': 'application/xml' }, body: `<?xml version="1.0"?>${body}` });
const index = (base: string, paths: string[]) =>
  xml(
    `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${paths.map((p) => `<sitemap><loc>${base}${p}</loc></sitemap>`).join('')}</sitemapindex>`,
  );
const urlset = (base: string, paths: string[]) =>
  xml(`<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${paths.map((p) => `<url><loc>${base}${p}</loc></url>`).join('')}</urlset>`);

describe('crawl limits', () => {
  it('sitemaps are bounded: nesting of indexes, count and size, each with a WEBIMPORT_SITEMAP_LIMIT warning', async () => {
    const s = await site((path, base) => {
      // Indexes nested without end: /deep/sitemap.xml lists /deep/0.xml, which lists /deep/0-0.xml, …
      if (path === '/deep/sitemap.xml') return index(base, ['/deep/0.xml']);
      const deep = /^\/deep\/([\d-]+)\.xml$/.exec(path);
      if (deep) return index(base, [`/deep/${deep[1]}-0.xml`]);
      // An index of 500 sitemaps, each listing one page.
      if (path === '/wide/sitemap.xml')
        return index(
          base,
          Array.from({ length: 500 }, (_, i) => `/wide/${i}.xml`),
        );
      const wide = /^\/wide\/(\d+)\.xml$/.exec(path);
      if (wide) return urlset(base, [`/wide/w${wide[1]}.html`]);
      // One sitemap larger than the run's byte limit lets sitemaps be.
      if (path === '/big/sitemap.xml')
        return urlset(
          base,
          Array.from({ length: 5000 }, (_, i) => `/big/p${i}.html`),
        );
      if (/^\/(deep|wide|big)\/$/.test(path)) return html('Start', '<p>Start.</p>');
      if (/^\/wide\/w\d+\.html$/.test(path)) return html(path, '<p>Listed.</p>');
      return NOT_FOUND;
    });
    const crawl = async (folder: string) => {
      const url = `${s.base}/${folder}/`;
      return crawlSite(options(await newRun(url), url, { limits: { maxPages: 1000, maxBytes: 100_000, maxDepth: 10 } }));
    };
    const sitemapLimit = (r: { warnings: Array<{ code: string; message: string }> }) => r.warnings.filter((w) => w.code === 'WEBIMPORT_SITEMAP_LIMIT');

    // Nesting: the start folder's sitemap.xml is nesting 0, /deep/0.xml 1, /deep/0-0.xml 2; nothing deeper is read.
    const deepResult = await crawl('deep');
    expect(s.hits.get('/deep/0-0.xml')).toBe(1);
    expect(s.hits.get('/deep/0-0-0.xml')).toBeUndefined();
    expect(sitemapLimit(deepResult), JSON.stringify(deepResult.warnings)).toHaveLength(1);

    // Count: of the 500 sitemaps listed, at most SITEMAP_LIMITS.files (the index and the root's sitemap.xml included).
    const wideResult = await crawl('wide');
    expect(s.count(/^\/wide\/\d+\.xml$/)).toBeLessThanOrEqual(SITEMAP_LIMITS.files);
    expect(s.count(/^\/wide\/\d+\.xml$/)).toBeGreaterThan(SITEMAP_LIMITS.files - 5);
    expect(sitemapLimit(wideResult)[0]?.message).toMatch(/sitemaps were not read/);

    // Size: a sitemap over what the run's bytes allow is not read (its pages not fetched).
    const bigResult = await crawl('big');
    expect(s.count(/^\/big\/p/)).toBe(0);
    expect(sitemapLimit(bigResult)[0]?.message).toContain('big/sitemap.xml');
  });

  it('retries are bounded per run (runRetries): failing files are warnings, not retried once the budget is spent', async () => {
    const s = await site((path) => {
      if (path === '/robots.txt') return NOT_FOUND;
      if (path === '/docs/') return html('Images', Array.from({ length: 10 }, (_, i) => `<img src="img/${i}.png" alt="${i}">`).join(''));
      if (/^\/docs\/img\/\d+\.png$/.test(path)) return { status: 503, body: 'down' };
      return NOT_FOUND;
    });
    const run = await newRun(`${s.base}/docs/`);
    const result = await crawlSite(options(run, `${s.base}/docs/`, {}, { retries: 3, runRetries: 4 }));
    expect(s.count(/^\/docs\/img\//)).toBe(10 + 4);
    expect(result.warnings.map((w) => w.code)).toContain('WEBIMPORT_RETRY_BUDGET');
    const failed = await store.imports.urls(run, { status: 'failed' });
    expect(failed).toHaveLength(10);
    for (const f of failed) expect(f.error).toMatch(/^WEBIMPORT_FETCH_FAILED: .* answered HTTP 503/);
    expect((await store.imports.urls(run, { status: 'fetched', kind: 'page' })).map((u) => u.url)).toEqual([`${s.base}/docs/`]);
  });

  it('a host name that does not resolve is asked once: WEBIMPORT_HOST_NOT_FOUND, not retried', async () => {
    let lookups = 0;
    const policy = {
      ...loopbackPolicy,
      resolve: async (host: string) => {
        lookups++;
        return systemResolve(host);
      },
    };
    const url = 'http://folio-crawl-test.invalid/docs/';
    const run = await newRun(url);
    const crawl = crawlSite(options(run, url, {}, { policy, retries: 4 }));
    await expect(crawl).rejects.toMatchObject({ code: 'WEBIMPORT_HOST_NOT_FOUND', retryable: false });
    expect(lookups).toBe(1);
  });

  it('an image redirecting to a refused address is a WEBIMPORT_ASSET_REFUSED warning; the page is fetched', async () => {
    const s = await site((path) => {
      if (path === '/docs/') return html('Page', '<p>Text.</p><img src="img/evil.png" alt="evil"><img src="img/ok.png" alt="ok">');
      if (path === '/docs/img/evil.png') return { status: 302, headers: { location: 'http://169.254.169.254/latest/meta-data/' } };
      if (path === '/docs/img/ok.png') return { status: 200, headers: { 'content-type': 'image/png' }, body: 'png' };
      return NOT_FOUND;
    });
    const run = await newRun(`${s.base}/docs/`);
    await crawlSite(options(run, `${s.base}/docs/`));
    const urls = await store.imports.urls(run);
    const byPath = new Map(urls.map((u) => [new URL(u.url).pathname, u]));
    expect(byPath.get('/docs/')?.status).toBe('fetched');
    expect(byPath.get('/docs/img/ok.png')?.status).toBe('fetched');
    expect(byPath.get('/docs/img/evil.png')).toMatchObject({ status: 'failed' });
    expect(byPath.get('/docs/img/evil.png')?.error).toMatch(/^WEBIMPORT_ASSET_REFUSED: .*169\.254\.169\.254/);
    expect(s.hits.get('/docs/img/evil.png')).toBe(1);
  });

  it('the run deadline: past it before the start page, the crawl fails with WEBIMPORT_DEADLINE and sends nothing', async () => {
    const s = await site(() => html('Never', '<p>Never fetched.</p>'));
    const run = await newRun(`${s.base}/docs/`);
    const deadline = { at: Date.now() - 1, ms: 1000 };
    await expect(crawlSite(options(run, `${s.base}/docs/`, { deadline }, { deadline }))).rejects.toMatchObject({ code: 'WEBIMPORT_DEADLINE' });
    expect(s.hits.size).toBe(0);
  });

  it('the run deadline: a crawl waiting on a silent server stops there, keeps what it fetched, WEBIMPORT_DEADLINE', async () => {
    const s = await site((path) => {
      if (path === '/robots.txt' || path.endsWith('.xml')) return NOT_FOUND;
      if (path === '/docs/') return html('Start', '<a href="slow1.html">1</a> <a href="slow2.html">2</a>');
      return 'silent';
    });
    const run = await newRun(`${s.base}/docs/`);
    // The start page is fetched before the deadline is set: then only the silent pages are left to wait on.
    const deadline = { at: Number.MAX_SAFE_INTEGER, ms: 300 };
    const o = options(
      run,
      `${s.base}/docs/`,
      {
        deadline,
        analyze: async (text, url) => {
          deadline.at = Date.now() + 300;
          return analyzeHtmlPage(text, url);
        },
      },
      { deadline, timeoutMs: 60_000, retries: 20 },
    );
    const result = await crawlSite(o);
    expect(result.warnings.map((w) => w.code)).toContain('WEBIMPORT_DEADLINE');
    expect((await store.imports.urls(run, { status: 'fetched' })).map((u) => new URL(u.url).pathname)).toEqual(['/docs/']);
    expect((await store.imports.urls(run, { status: 'pending' })).length).toBe(2);
    expect(s.count(/slow/)).toBeLessThanOrEqual(2);
  });
});
