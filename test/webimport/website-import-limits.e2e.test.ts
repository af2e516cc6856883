/**
 * Website imports against hostile loopback sites, end to end through the real Temporal dev server: the run's limits
 * hold for every URL source (a sitemap of 100,000 URLs fetches at most WEBIMPORT_MAX_PAGES pages and says so in a
 * typed warning), retries are bounded per URL and per run (a silent server's URLs are requested at most
 * 1 + WEBIMPORT_RETRIES times, the crawl activity is not retried on top), the run-level deadline
 * (WEBIMPORT_DEADLINE_MS) ends a crawl that waits on a silent server, an unresolvable host fails at once with a
 * typed error, and unfetchable assets (refused by the address policy, failing, too large) are typed warnings while
 * the page imports. Limits are small so the tests are quick; no test asserts speed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workflowIds } from '../../src/temporal/contract/index.js';
import { startFolio, type TestFolio } from '../helpers/folio.js';
import { LOOPBACK_ALLOW_HOSTS } from '../helpers/loopback-policy.js';
import { bigSitemap, html, NOT_FOUND, startHostileSite, type HostileSite } from './hostile-sites.js';

const RETRIES = 2;
const sites: HostileSite[] = [];
const folios: TestFolio[] = [];

async function folioWith(env: Record<string, string>): Promise<TestFolio> {
  const folio = await startFolio({
    env: { FETCH_ALLOW_HOSTS: LOOPBACK_ALLOW_HOSTS, WEBIMPORT_DELAY_MS: '0', WEBIMPORT_RETRIES: String(RETRIES), ...env },
  });
  folios.push(folio);
  return folio;
}

async function site(answer: Parameters<typeof startHostileSite>[0]): Promise<HostileSite> {
  const s = await startHostileSite(answer);
  sites.push(s);
  return s;
}

afterAll(async () => {
  for (const f of folios) await f.stop();
  for (const s of sites) await s.stop();
});

interface Imported {
  status: number;
  body: any;
  run: any;
  /** The attempts the crawl activity took (Temporal's history). */
  crawlAttempts: number[];
}

/** A website import through the seed route (answered when the run is over), its run and its crawl's attempts. */
async function importSite(folio: TestFolio, url: string): Promise<Imported> {
  const space = await folio.request('POST', `/v1/orgs/${folio.organizationId}/spaces`, { title: 'Hostile' });
  expect(space.status).toBe(201);
  const res = await folio.request('POST', `/v1/spaces/${space.body.id}/content/import`, { url, source: 'website' });
  const runs = await folio.request('GET', `/v1/org/${folio.organizationId}/imports?space=${space.body.id}`);
  const run = runs.body.items[0];
  const history = await folio.client.workflow.getHandle(workflowIds.contentImport(folio.organizationId, run.id)).fetchHistory();
  const scheduled = history.events!.filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'importCrawl');
  const crawlAttempts = history
    .events!.filter(
      (e) =>
        e.activityTaskStartedEventAttributes && scheduled.some((s) => String(s.eventId) === String(e.activityTaskStartedEventAttributes!.scheduledEventId)),
    )
    .map((e) => e.activityTaskStartedEventAttributes!.attempt!);
  return { status: res.status, body: res.body, run, crawlAttempts };
}

const codes = (run: { warnings: Array<{ code: string }> }) => run.warnings.map((w) => w.code);

describe('website import limits', () => {
  let folio: TestFolio;
  beforeAll(async () => {
    // A short timeout for the silent servers, long enough for a loaded machine to answer the others.
    folio = await folioWith({ WEBIMPORT_MAX_PAGES: '20', WEBIMPORT_TIMEOUT_MS: '1500' });
  });

  it('a sitemap of 100,000 URLs under the start path: at most WEBIMPORT_MAX_PAGES pages fetched, a typed warning', { timeout: 180_000 }, async () => {
    let sitemap = '';
    const s = await site((path, base) => {
      if (path === '/sitemap.xml')
        return { status: 200, headers: { 'content-type': 'application/xml' }, body: (sitemap ||= bigSitemap(base, '/docs/', 100_000)) };
      if (path === '/docs/') return html('Start', '<p>The start page.</p>');
      if (/^\/docs\/p\d+\.html$/.test(path)) return html(path, '<p>One of many.</p>');
      return NOT_FOUND;
    });
    const r = await importSite(folio, `${s.base}/docs/`);
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.run.status).toBe('completed');
    // Every page requested counted: the start page and the sitemap's pages together stay within the limit.
    const requested = [...s.hits.keys()].filter((p) => /^\/docs\/(p\d+\.html)?$/.test(p));
    expect(requested.length).toBeLessThanOrEqual(20);
    expect(requested.length).toBeGreaterThan(1);
    expect(s.count(/^\/docs\/(p\d+\.html)?$/)).toBeLessThanOrEqual(20 * (1 + RETRIES));
    const stored = await folio.store.imports.urls(r.run.id, { kind: 'page' });
    expect(stored.length).toBeLessThanOrEqual(20);
    const limit = r.run.warnings.find((w: { code: string }) => w.code === 'WEBIMPORT_PAGE_LIMIT');
    expect(limit, JSON.stringify(r.run.warnings)).toBeDefined();
    expect(limit.message).toContain('WEBIMPORT_MAX_PAGES');
  });

  it('a silent server: each URL is requested at most 1 + WEBIMPORT_RETRIES times, the run fails typed, the crawl once', { timeout: 180_000 }, async () => {
    const s = await site(() => 'silent');
    const r = await importSite(folio, `${s.base}/docs/`);
    expect(r.status, JSON.stringify(r.body)).toBe(422);
    expect(r.run).toMatchObject({ status: 'failed', code: 'WEBIMPORT_SITE_UNREACHABLE' });
    expect(r.body.error.message).toContain('robots.txt');
    expect(s.hits.get('/robots.txt')).toBeLessThanOrEqual(1 + RETRIES);
    for (const [path, n] of s.hits) expect(n, path).toBeLessThanOrEqual(1 + RETRIES);
    expect(r.crawlAttempts).toEqual([1]);
  });

  it('a server silent on its sitemaps: each requested at most 1 + WEBIMPORT_RETRIES times, the site imports with a warning', { timeout: 180_000 }, async () => {
    const s = await site((path) => {
      if (path === '/robots.txt') return NOT_FOUND;
      if (path === '/docs/') return html('Start', '<p>The start page, <a href="next.html">next</a>.</p>');
      if (path === '/docs/next.html') return html('Next', '<p>The next page.</p>');
      return 'silent';
    });
    const r = await importSite(folio, `${s.base}/docs/`);
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(s.hits.get('/sitemap.xml')).toBe(1 + RETRIES);
    expect(s.hits.get('/docs/sitemap.xml')).toBe(1 + RETRIES);
    expect(codes(r.run)).toContain('WEBIMPORT_SITEMAP_UNAVAILABLE');
    expect(r.crawlAttempts).toEqual([1]);
  });

  it('an unresolvable host fails at once with WEBIMPORT_HOST_NOT_FOUND', { timeout: 180_000 }, async () => {
    const r = await importSite(folio, 'http://folio-import-test.invalid/docs/');
    expect(r.status, JSON.stringify(r.body)).toBe(422);
    expect(r.body.error.message).toContain('folio-import-test.invalid');
    expect(r.run).toMatchObject({ status: 'failed', code: 'WEBIMPORT_HOST_NOT_FOUND' });
    expect(r.crawlAttempts).toEqual([1]);
  });
});

describe('website import assets', () => {
  it('unfetchable assets (redirect to a refused address, failing, too large) are typed warnings; the page imports', { timeout: 180_000 }, async () => {
    // One response may have at most WEBIMPORT_MAX_BYTES (here 200,000 bytes).
    const folio = await folioWith({ WEBIMPORT_MAX_BYTES: '200000' });
    const s = await site((path) => {
      if (path === '/docs/')
        return html(
          'Gallery',
          '<p>Pictures.</p><img src="img/ok.png" alt="ok"><img src="img/evil.png" alt="evil"><img src="img/broken.png" alt="broken"><img src="img/huge.png" alt="huge">',
        );
      if (path === '/docs/img/ok.png') return { status: 200, headers: { 'content-type': 'image/png' }, body: Buffer.from('png bytes') };
      // An image that redirects to the cloud metadata address: refused by the fetch guard before any connection.
      if (path === '/docs/img/evil.png') return { status: 302, headers: { location: 'http://169.254.169.254/latest/meta-data/' } };
      if (path === '/docs/img/broken.png') return { status: 503, body: 'down' };
      if (path === '/docs/img/huge.png') return { status: 200, headers: { 'content-type': 'image/png' }, body: Buffer.alloc(300_000) };
      return NOT_FOUND;
    });
    const r = await importSite(folio, `${s.base}/docs/`);
    expect(r.status, JSON.stringify(r.body)).toBe(201);
    expect(r.run.status).toBe('completed');
    const byCode = new Map<string, string[]>();
    for (const w of r.run.warnings as Array<{ code: string; url?: string }>) byCode.set(w.code, [...(byCode.get(w.code) ?? []), w.url ?? '']);
    expect(byCode.get('WEBIMPORT_ASSET_REFUSED'), JSON.stringify(r.run.warnings)).toEqual([`${s.base}/docs/img/evil.png`]);
    expect(byCode.get('WEBIMPORT_FETCH_FAILED')).toEqual([`${s.base}/docs/img/broken.png`]);
    expect(byCode.get('WEBIMPORT_ASSET_TOO_LARGE')).toEqual([`${s.base}/docs/img/huge.png`]);
    expect(s.hits.get('/docs/img/broken.png')).toBe(1 + RETRIES);
    const pages = await folio.request('GET', `/v1/spaces/${r.run.target.space}/content/pages`);
    expect(pages.body.pages.map((p: { title: string }) => p.title)).toEqual(['Gallery']);
    const files = await folio.request('GET', `/v1/spaces/${r.run.target.space}/content/files`);
    expect(files.body.items.map((f: { name: string }) => f.name)).toEqual(['ok.png']);
    expect(r.crawlAttempts).toEqual([1]);
  });
});

describe('website import deadline', () => {
  it('WEBIMPORT_DEADLINE_MS ends a crawl waiting on a silent server: typed warning (or typed failure)', { timeout: 180_000 }, async () => {
    // Retries and timeouts that alone would keep the run for many minutes; the deadline ends it.
    const folio = await folioWith({ WEBIMPORT_TIMEOUT_MS: '1000', WEBIMPORT_RETRIES: '20', WEBIMPORT_DEADLINE_MS: '5000' });
    const s = await site((path) => {
      if (path === '/robots.txt' || path.endsWith('sitemap.xml')) return NOT_FOUND;
      if (path === '/docs/') return html('Start', Array.from({ length: 8 }, (_, i) => `<a href="slow${i}.html">slow ${i}</a>`).join(' '));
      return 'silent';
    });
    const r = await importSite(folio, `${s.base}/docs/`);
    if (r.status === 201) {
      expect(r.run.status).toBe('completed');
      expect(codes(r.run)).toContain('WEBIMPORT_DEADLINE');
      const pages = await folio.request('GET', `/v1/spaces/${r.run.target.space}/content/pages`);
      expect(pages.body.pages.map((p: { title: string }) => p.title)).toContain('Start');
    } else {
      // A machine too slow to fetch even the start page within the deadline: the run fails with the deadline's code.
      expect(r.status, JSON.stringify(r.body)).toBe(422);
      expect(r.run).toMatchObject({ status: 'failed', code: 'WEBIMPORT_DEADLINE' });
    }
    expect(r.crawlAttempts).toEqual([1]);
  });
});
