/**
 * A published site's own search page (`~search?q=…`), served without JavaScript from the search index: a real
 * corpus space (GitbookIO/public-docs) is imported, indexed (code blocks included) and published; the search
 * page finds a word that appears only in a code block and corrects a misspelling (`colection`), links only to
 * pages the site serves, never shows another space of the organization, and keeps a share-link site's rules.
 */
import { fromHtml } from 'hast-util-from-html';
import { selectAll } from 'hast-util-select';
import { toString } from 'hast-util-to-string';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { indexSpace } from '../../src/search/index-space.js';
import { searchSections } from '../../src/search/sections.js';
import { treeFromFiles } from '../../src/format/index.js';
import { publishWorkflowId, type PublishSiteResult } from '../../src/temporal/contract/index.js';
import { startFolio, type TestFolio } from '../helpers/folio.js';
import { testLogger } from '../helpers/logger.js';
import { corpusTree, importIntoSpace } from './corpus-space.js';

const PUBLIC = 'https://docs.example.test';
let folio: TestFolio;
let docsSpace: string;
let otherSpace: string;
let site: { id: string; basename: string };

async function index(spaceId: string) {
  const result = await indexSpace(
    { store: folio.store, logger: testLogger('index'), extract: async (md) => searchSections(md), progress: () => {} },
    { spaceId, organizationId: folio.organizationId },
  );
  expect(result.outcome).toBe('indexed');
}

async function publish(siteId: string): Promise<PublishSiteResult> {
  const res = await folio.request('POST', `/v1/orgs/${folio.organizationId}/sites/${siteId}/publish`);
  expect(res.status, JSON.stringify(res.body)).toBeLessThan(300);
  return folio.client.workflow.getHandle(publishWorkflowId(siteId)).result();
}

async function createSite(title: string, visibility: string, spaces: string[]) {
  const res = await folio.request('POST', `/v1/orgs/${folio.organizationId}/sites`, { title, visibility, spaces });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  const published = await publish(res.body.id);
  expect(published.last).not.toBeNull();
  return res.body as { id: string; basename: string };
}

/** The search page's results: each hit's address (resolved against the page's URL) and its text. */
async function searchPage(basename: string, q: string, extra = '', init: RequestInit = {}) {
  const url = `${folio.baseUrl}/sites/${basename}/~search?q=${encodeURIComponent(q)}${extra}`;
  const res = await fetch(url, init);
  const html = await res.text();
  const tree = fromHtml(html);
  const hits = selectAll('ol.search-results > li', tree).map((li) => {
    const a = selectAll('a.hit-title', li)[0]!;
    return { href: new URL(String(a.properties.href), url).toString(), text: toString(li) };
  });
  const status = selectAll('[role=status]', tree).map((n) => toString(n))[0] ?? '';
  return { res, html, hits, status };
}

beforeAll(async () => {
  folio = await startFolio({ env: { FOLIO_PUBLIC_URL: PUBLIC } });
  docsSpace = (await folio.store.spaces.create(folio.organizationId, { title: 'GitBook docs', language: 'en' })).id;
  const { tree, projectDirectory } = await corpusTree('GitbookIO+public-docs');
  await importIntoSpace(folio.store, docsSpace, tree, projectDirectory);
  otherSpace = (await folio.store.spaces.create(folio.organizationId, { title: 'Internal', language: 'en' })).id;
  await importIntoSpace(folio.store, otherSpace, treeFromFiles({ 'README.md': '# Internal\n\nThe quokkaphrase is internal only.\n' }), '');
  await index(docsSpace);
  await index(otherSpace);
  site = await createSite('GitBook docs', 'public', [docsSpace]);
}, 300_000);

afterAll(async () => {
  await folio?.stop();
});

describe('crawler files of a published site', () => {
  it('give absolute URLs under FOLIO_PUBLIC_URL, each an address the site serves', async () => {
    const root = `${PUBLIC}/sites/${site.basename}/`;
    const robots = await (await fetch(`${folio.baseUrl}/sites/${site.basename}/robots.txt`)).text();
    expect(robots).toContain(`Sitemap: ${root}sitemap.xml\n`);
    const xml = await (await fetch(`${folio.baseUrl}/sites/${site.basename}/sitemap.xml`)).text();
    const locs = [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)].map((m) => m[1]!.replaceAll('&amp;', '&'));
    expect(locs.length).toBeGreaterThan(100);
    expect(locs.filter((l) => !l.startsWith(root))).toEqual([]);
    for (const loc of locs.slice(0, 10)) expect((await fetch(`${folio.baseUrl}/sites/${site.basename}/${loc.slice(root.length)}`)).status, loc).toBe(200);
  });
});

describe('the served search page of a site', () => {
  it('is where every page’s search form points', async () => {
    const xml = await (await fetch(`${folio.baseUrl}/sites/${site.basename}/sitemap.xml`)).text();
    const root = `${PUBLIC}/sites/${site.basename}/`;
    const deep = [...xml.matchAll(/<loc>([^<]*)<\/loc>/g)]
      .map((m) => `${folio.baseUrl}/sites/${site.basename}/${m[1]!.slice(root.length)}`)
      .find((u) => u.split('/').length > 7)!;
    expect(deep).toBeDefined();
    for (const page of [`${folio.baseUrl}/sites/${site.basename}/`, deep]) {
      const form = selectAll('form[role=search]', fromHtml(await (await fetch(page)).text()))[0]!;
      expect(new URL(String(form.properties.action), page).toString()).toBe(`${folio.baseUrl}/sites/${site.basename}/~search`);
    }
  });

  it('finds a word that appears only in a code block, and links to the page that serves it', async () => {
    const { res, hits, html } = await searchPage(site.basename, 'setProtectedHeader');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(res.headers.get('x-robots-tag')).toContain('noindex');
    expect(html).not.toContain('<script');
    expect(hits.length).toBeGreaterThan(0);
    expect(hits[0]!.text.toLowerCase()).toContain('setprotectedheader');
    for (const hit of hits) {
      const page = await fetch(hit.href);
      expect(page.status, hit.href).toBe(200);
      expect(await page.text()).toContain('setProtectedHeader');
    }
  });

  it('corrects a misspelling with the closest indexed word', async () => {
    const exact = await searchPage(site.basename, 'collection');
    const typo = await searchPage(site.basename, 'colection');
    expect(typo.res.status).toBe(200);
    expect(typo.status).toContain('Showing results for “collection”');
    expect(typo.hits.length).toBeGreaterThan(0);
    expect(typo.hits.map((h) => h.href)).toEqual(exact.hits.map((h) => h.href));
    const auth = await searchPage(site.basename, 'authentification');
    expect(auth.status).toContain('Showing results for “authentication”');
    expect(auth.hits.length).toBeGreaterThan(0);
  });

  it('pages through many results with a link that works without JavaScript', async () => {
    const first = await searchPage(site.basename, 'space');
    expect(first.hits.length).toBe(20);
    const next = selectAll('a[rel=next]', fromHtml(first.html))[0]!;
    const more = await fetch(new URL(String(next.properties.href), first.res.url));
    const second = selectAll('ol.search-results a.hit-title', fromHtml(await more.text())).map((a) => String(a.properties.href));
    expect(second.length).toBeGreaterThan(0);
    expect(second.some((h) => first.hits.some((f) => f.href.endsWith(`/${h}`)))).toBe(false);
  });

  it('searches only the site’s own spaces', async () => {
    const { hits, status } = await searchPage(site.basename, 'quokkaphrase');
    expect(hits).toEqual([]);
    expect(status).toContain('No results');
    const empty = await searchPage(site.basename, '');
    expect(empty.res.status).toBe(200);
    expect(selectAll('form.search-page', fromHtml(empty.html))).toHaveLength(1);
    const long = await searchPage(site.basename, 'x'.repeat(600));
    expect(long.res.status).toBe(400);
  });

  it('keeps a share-link site’s audience: 401 without the key, results with it', async () => {
    const shared = await createSite('Internal', 'share-link', [otherSpace]);
    expect((await searchPage(shared.basename, 'quokkaphrase')).res.status).toBe(401);
    const link = await folio.request('POST', `/v1/orgs/${folio.organizationId}/sites/${shared.id}/share-links`, { name: 'team' });
    const key = new URL(link.body.urls.published as string).searchParams.get('share')!;
    const found = await searchPage(shared.basename, 'quokkaphrase', `&share=${encodeURIComponent(key)}`);
    expect(found.res.status).toBe(200);
    expect(found.res.headers.get('cache-control')).toContain('no-store');
    expect(found.hits).toHaveLength(1);
    // The public site still does not see it.
    expect((await searchPage(site.basename, 'quokkaphrase')).hits).toEqual([]);
  });
});
