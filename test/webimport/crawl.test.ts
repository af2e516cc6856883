/**
 * The crawl on its own (no Temporal): limits with typed errors, robots.txt, the fetch guard, and checkpoints — a
 * crawl stopped in the middle and started again fetches no done URL twice; robots.txt's Crawl-delay spaces requests.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/index.js';
import { ParsePoolBusyError, ParsePoolClosedError } from '../../src/parse-pool/errors.js';
import { buildSiteSource } from '../../src/webimport/build-source.js';
import { analyzeHtmlPage, convertHtmlPage } from '../../src/webimport/html-page.js';
import { crawlSite, type CrawlOptions } from '../../src/webimport/crawl.js';
import { PoliteFetcher } from '../../src/webimport/polite-fetcher.js';
import { retryAfterMs } from '../../src/webimport/polite-fetcher.js';
import { DEFAULT_FETCH_POLICY } from '../../src/net/policy.js';
import { loopbackPolicy } from '../helpers/loopback-policy.js';
import { createTestStore } from '../helpers/store.js';
import { smallSite, startDocSite, type DocSite } from './doc-site.js';

let store: Store;
let site: DocSite;
let spaceId: string;

beforeAll(async () => {
  store = await createTestStore();
  await store.orgs.ensure({ id: 'crawl-org', title: 'Crawl' });
  spaceId = (await store.spaces.create('crawl-org', { title: 'Crawl' })).id;
  site = await startDocSite({
    c1: smallSite('c1'),
    c2: smallSite('c2'),
    c3: smallSite('c3'),
    c4: smallSite('c4'),
    c5: smallSite('c5'),
    c6: smallSite('c6'),
    c7: smallSite('c7'),
    c8: smallSite('c8'),
  });
});

afterAll(async () => {
  await site?.stop();
  await store?.close();
});

async function newRun(prefix: string): Promise<string> {
  return (await store.imports.create({ organizationId: 'crawl-org', spaceId, source: { type: 'website', url: `${site.base}/${prefix}/` } })).id;
}

function options(runId: string, startUrl: string, over: Partial<CrawlOptions> = {}, policy = loopbackPolicy): CrawlOptions {
  return {
    runId,
    startUrl,
    store,
    fetcher: new PoliteFetcher({ policy, concurrency: 2, delayMs: 0, timeoutMs: 10_000, retries: 2, maxResponseBytes: 1 << 20, backoffMs: 50 }),
    analyze: async (html, url) => analyzeHtmlPage(html, url),
    limits: { maxPages: 100, maxBytes: 10 << 20, maxDepth: 10 },
    concurrency: 2,
    onProgress: () => undefined,
    ...over,
  };
}

describe('crawlSite', () => {
  it('stops at the page limit with WEBIMPORT_PAGE_LIMIT and fails with WEBIMPORT_TOO_LARGE over the byte limit', async () => {
    const a = await newRun('c1');
    const limited = await crawlSite(options(a, `${site.base}/c1/`, { limits: { maxPages: 3, maxBytes: 10 << 20, maxDepth: 10 } }));
    expect(limited.pages).toBe(3);
    expect(limited.warnings.map((w) => w.code)).toContain('WEBIMPORT_PAGE_LIMIT');
    const b = await newRun('c1');
    await expect(crawlSite(options(b, `${site.base}/c1/`, { limits: { maxPages: 100, maxBytes: 1000, maxDepth: 10 } }))).rejects.toMatchObject({
      code: 'WEBIMPORT_TOO_LARGE',
      retryable: false,
    });
  });

  it('respects robots.txt: a disallowed start URL is a typed error, disallowed pages are skipped with a warning', async () => {
    const a = await newRun('c2');
    await expect(crawlSite(options(a, `${site.base}/c2/private/secret.html`))).rejects.toMatchObject({ code: 'WEBIMPORT_ROBOTS_DISALLOWED' });
    const b = await newRun('c2');
    const result = await crawlSite(options(b, `${site.base}/c2/`, { limits: { maxPages: 100, maxBytes: 10 << 20, maxDepth: 0 } }));
    expect(site.hits.get('/c2/private/secret.html') ?? 0).toBe(0);
    expect(result.warnings.map((w) => w.code).sort()).toEqual(['WEBIMPORT_DEPTH_LIMIT', 'WEBIMPORT_ROBOTS_SKIPPED']);
    const skipped = (await store.imports.urls(b, { status: 'skipped' })).map((u) => u.url);
    expect(skipped).toEqual([`${site.base}/c2/private/secret.html`]);
  });

  it('refuses a private address that is not allowlisted (the fetch guard)', async () => {
    const run = await newRun('c3');
    await expect(crawlSite(options(run, `${site.base}/c3/`, {}, DEFAULT_FETCH_POLICY))).rejects.toMatchObject({ code: 'FETCH_PRIVATE_ADDRESS_DENIED' });
    expect(site.hits.get('/c3/') ?? 0).toBe(0);
  });

  it('resumes from its checkpoints: a crawl stopped midway and started again fetches no done URL twice', async () => {
    const run = await newRun('c4');
    const controller = new AbortController();
    let pagesSeen = 0;
    const first = crawlSite(
      options(run, `${site.base}/c4/`, {
        signal: controller.signal,
        analyze: async (html, url) => {
          if (++pagesSeen === 3) controller.abort(new Error('worker killed'));
          return analyzeHtmlPage(html, url);
        },
      }),
    );
    await expect(first).rejects.toThrow();
    const doneBefore = (await store.imports.urls(run)).filter((u) => u.status !== 'pending').map((u) => new URL(u.url).pathname);
    expect(doneBefore.length).toBeGreaterThan(0);
    const hitsBefore = new Map(site.hits);
    const result = await crawlSite(options(run, `${site.base}/c4/`));
    expect(result.pages).toBe(8); // the page robots.txt disallows included, skipped
    expect((await store.imports.urls(run, { status: 'fetched', kind: 'page' })).length).toBe(7);
    for (const path of doneBefore) expect(site.hits.get(path), path).toBe(hitsBefore.get(path));
    expect((await store.imports.urls(run, { status: 'pending' })).length).toBe(0);
  });

  // A production-shape run under load ended a website import with WEBIMPORT_NO_PAGES: the start page's analysis
  // failed for a reason of Folio's own, not the page's, and the crawl recorded the page as unreadable for good.
  for (const [prefix, failing, err] of [
    ['c6', 1, () => new ParsePoolClosedError()],
    ['c7', 3, () => new ParsePoolBusyError(8, true)],
  ] as const) {
    it(`a page whose analysis failed with a retryable ${err().code} (analysis ${failing}) stays pending, and the retry analyzes it`, async () => {
      const run = await newRun(prefix);
      let calls = 0;
      const first = crawlSite(
        options(run, `${site.base}/${prefix}/`, {
          analyze: async (html, url) => {
            if (++calls === failing) throw err();
            return analyzeHtmlPage(html, url);
          },
        }),
      );
      await expect(first).rejects.toMatchObject({ code: err().code, retryable: true });
      expect((await store.imports.urls(run, { status: 'fetched', kind: 'page' })).every((u) => u.analysis !== null)).toBe(true);
      // The activity's retry: the crawl goes on from its checkpoints.
      const result = await crawlSite(options(run, `${site.base}/${prefix}/`));
      expect(result.warnings.map((w) => w.code)).not.toContain('WEBIMPORT_PAGE_UNREADABLE');
      const pages = await store.imports.urls(run, { status: 'fetched', kind: 'page' });
      expect(pages.length).toBe(7);
      expect(pages.filter((u) => u.analysis === null).map((u) => u.url)).toEqual([]);
    });
  }

  it('a page whose conversion failed with a retryable error fails the build (retried), not kept as HTML with a warning', async () => {
    const run = await newRun('c8');
    await crawlSite(options(run, `${site.base}/c8/`));
    const urls = await store.imports.urls(run);
    let calls = 0;
    const build = (fail: boolean) =>
      buildSiteSource({
        startUrl: `${site.base}/c8/`,
        urls,
        blobs: store.blobs,
        convert: async (html, o) => {
          if (fail && ++calls === 2) throw new ParsePoolBusyError(8, true);
          return convertHtmlPage(html, o);
        },
        concurrency: 1,
        onProgress: () => undefined,
      });
    await expect(build(true)).rejects.toMatchObject({ code: 'PARSE_POOL_BUSY', retryable: true });
    const built = await build(false);
    expect(built.warnings.map((w) => w.code)).not.toContain('WEBIMPORT_PAGE_NOT_CONVERTED');
  });

  it("honours robots.txt's Crawl-delay for its agent: requests to the host start at least that far apart", async () => {
    // A start page linking to three pages (fetched two at a time without a delay), asking FolioImporter for 0.5 s
    // between requests (robots.txt allows a decimal); the fetcher itself is asked for none.
    const arrivals: Array<{ path: string; at: number }> = [];
    const server = http.createServer((req, res) => {
      const path = new URL(req.url ?? '/', 'http://x').pathname;
      arrivals.push({ path, at: performance.now() });
      if (path === '/robots.txt') return res.writeHead(200, { 'content-type': 'text/plain' }).end('User-agent: FolioImporter\nCrawl-delay: 0.5\nAllow: /\n');
      const m = /^\/cd\/p(\d)\.html$/.exec(path);
      if (!m) return res.writeHead(404).end('not found');
      const links = m[1] === '0' ? [1, 2, 3].map((n) => `<a href="p${n}.html">P${n}</a>`).join(' ') : '';
      res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(`<!doctype html><html><head><title>P${m[1]}</title></head><body><main><h1>P${m[1]}</h1><p>Text.</p>${links}</main></body></html>`);
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const run = (await store.imports.create({ organizationId: 'crawl-org', spaceId, source: { type: 'website', url: `${base}/cd/p0.html` } })).id;
      const result = await crawlSite(options(run, `${base}/cd/p0.html`));
      expect(result.pages).toBe(4);
      const pages = arrivals.filter((a) => a.path.startsWith('/cd/p'));
      expect(pages.map((a) => a.path).sort()).toEqual([0, 1, 2, 3].map((n) => `/cd/p${n}.html`));
      // One at a time, each starting the delay after the last one's answer was read: whatever the load, the
      // server sees each request at least that long after the one before (which arrived before its answer left).
      const gaps = pages.slice(1).map((a, i) => a.at - pages[i]!.at);
      expect(Math.min(...gaps)).toBeGreaterThanOrEqual(400);
    } finally {
      await new Promise<void>((r) => server.close(() => r()));
    }
  });

  it("many requests at once under one run's signal add one listener to it, not one each (no MaxListenersExceededWarning)", async () => {
    // Twelve pages held open until all twelve have arrived: twelve requests in flight at once on one host.
    const held: http.ServerResponse[] = [];
    const server = http.createServer((_req, res) => {
      held.push(res);
      if (held.length === 12) for (const r of held) r.writeHead(200, { 'content-type': 'text/html' }).end('<p>x</p>');
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on('warning', onWarning);
    const run = new AbortController();
    try {
      const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
      const fetcher = new PoliteFetcher({
        policy: loopbackPolicy,
        concurrency: 12,
        delayMs: 0,
        timeoutMs: 60_000,
        retries: 0,
        maxResponseBytes: 1 << 20,
        signal: run.signal,
      });
      const pages = await Promise.all(Array.from({ length: 12 }, (_, i) => fetcher.get(`${base}/p${i}.html`)));
      expect(pages.map((p) => p.status)).toEqual(Array(12).fill(200));
      // A warning is emitted on the next tick after the listener that crossed the limit was added.
      await new Promise((r) => setImmediate(r));
      expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning').map((w) => w.message)).toEqual([]);
      // The run's signal still stops a request in flight.
      const pending = fetcher.get(`${base}/late.html`);
      run.abort(new Error('worker stopped'));
      await expect(pending).rejects.toThrow('worker stopped');
    } finally {
      process.off('warning', onWarning);
      for (const r of held) r.destroy();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });

  it('reads Retry-After as seconds or an HTTP date', () => {
    expect(retryAfterMs('3')).toBe(3000);
    expect(retryAfterMs(new Date(Date.UTC(2030, 0, 1, 0, 0, 10)).toUTCString(), Date.UTC(2030, 0, 1))).toBe(10_000);
    expect(retryAfterMs('soon')).toBeUndefined();
  });
});
