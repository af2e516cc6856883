/**
 * A published corpus space in a real browser: Debian's chromium driven by puppeteer-core. The site is
 * published by a run of the publish workflow; the browser loads it, its navigation lists every page, a crawl
 * of the whole site in the browser finds every internal link and image (0 broken), and a share-link site is
 * refused without its key. Screenshots are kept under test-results/publish/.
 */
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { GitBookAPI } from '@gitbook/api';
import type { Browser } from 'puppeteer-core';
import { launchTestChromium } from '../helpers/chromium.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DocumentPage, PageModel } from '../../src/format/index.js';
import { projectRoot } from '../../src/project-root.js';
import { publishWorkflowId, type PublishSiteResult } from '../../src/temporal/contract/index.js';
import { sharedFolio, type TestFolio } from '../helpers/folio.js';
import { corpusTree, importIntoSpace, type ImportedSpace } from './corpus-space.js';
import { indexSpace } from '../../src/search/index-space.js';
import { searchSections } from '../../src/search/sections.js';
import { testLogger } from '../helpers/logger.js';

const REPO = 'GitbookIO+git-sync-normalization';
const SHOTS = path.join(projectRoot(), 'test-results', 'publish');

let folio: TestFolio;
let api: GitBookAPI;
let browser: Browser;
let profile: string;
let imported: ImportedSpace;
let spaceId: string;

beforeAll(async () => {
  folio = await sharedFolio();
  api = new GitBookAPI({ authToken: folio.token, endpoint: folio.baseUrl });
  spaceId = (await folio.store.spaces.create(folio.organizationId, { title: 'Normalization' })).id;
  const { tree, projectDirectory } = await corpusTree(REPO);
  imported = await importIntoSpace(folio.store, spaceId, tree, projectDirectory);
  await indexSpace(
    { store: folio.store, logger: testLogger('index'), extract: async (md) => searchSections(md), progress: () => {} },
    { spaceId, organizationId: folio.organizationId },
  );
  profile = await mkdtemp(path.join(tmpdir(), 'folio-chromium-'));
  await mkdir(SHOTS, { recursive: true });
  browser = await launchTestChromium(profile);
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await folio?.stop();
  if (profile) await rm(profile, { recursive: true, force: true });
});

async function publish(title: string, visibility: 'public' | 'share-link') {
  const site = (await api.orgs.createSite(folio.organizationId, { title, visibility, spaces: [spaceId] })).data as { id: string; basename: string };
  await api.orgs.publishSite(folio.organizationId, site.id);
  const result: PublishSiteResult = await folio.client.workflow.getHandle(publishWorkflowId(site.id)).result();
  return { site, result };
}

function visibleDocuments(pages: PageModel[]): DocumentPage[] {
  return pages.flatMap((p) => (p.kind === 'document' && p.hidden ? [] : [...(p.kind === 'document' ? [p] : []), ...visibleDocuments(p.children)]));
}

describe('a published site in chromium', () => {
  it('loads, lists every page, and has no broken link or image', async () => {
    const { site } = await publish('Normalization docs', 'public');
    const start = `${folio.baseUrl}/sites/${site.basename}/`;
    const page = await browser.newPage();
    await page.setJavaScriptEnabled(false);
    await page.setCacheEnabled(false);
    await page.setViewport({ width: 1280, height: 900 });
    const first = await page.goto(start, { waitUntil: 'load' });
    expect(first?.status()).toBe(200);
    await page.screenshot({ path: path.join(SHOTS, 'home.png'), fullPage: false });

    // The navigation lists every page of the space (hidden ones aside).
    const navTitles = await page.$$eval('nav.sidebar a', (as) => as.map((a) => a.textContent ?? ''));
    const expected = visibleDocuments(imported.revision.pages).map((p) => p.tocTitle ?? p.title);
    expect(navTitles.sort()).toEqual(expected.sort());
    expect(await page.$eval('html', (h) => h.getAttribute('lang'))).toBe('en');
    expect(await page.$$eval('main#content, nav[aria-label], header, footer', (n) => n.length)).toBeGreaterThanOrEqual(4);

    // A crawl in the browser: every internal page loads with 200, every image has loaded.
    const seen = new Set<string>([start]);
    const queue = [start];
    const broken: string[] = [];
    let pages = 0;
    while (queue.length > 0) {
      const url = queue.shift()!;
      const res = await page.goto(url, { waitUntil: 'load' });
      if (res?.status() !== 200) {
        broken.push(`${url}: ${res?.status()}`);
        continue;
      }
      if (!(res.headers()['content-type'] ?? '').startsWith('text/html')) continue;
      pages++;
      const images = await page.$$eval('img', (imgs) => imgs.map((i) => ({ src: i.currentSrc || i.src, ok: i.complete && i.naturalWidth > 0 })));
      for (const img of images) if (!img.ok) broken.push(`image ${img.src} on ${url}`);
      const links = await page.$$eval('a[href], link[rel=stylesheet]', (as) => as.map((a) => (a as HTMLAnchorElement).href));
      for (const href of links) {
        const target = new URL(href);
        target.hash = '';
        if (!target.href.startsWith(start) || target.pathname.endsWith('/~search') || seen.has(target.href)) continue;
        seen.add(target.href);
        queue.push(target.href);
      }
    }
    expect(broken).toEqual([]);
    expect(pages).toBeGreaterThanOrEqual(visibleDocuments(imported.revision.pages).length);
    await page.goto(`${start}${visibleDocuments(imported.revision.pages).at(-1)!.path}/`, { waitUntil: 'load' });
    await page.screenshot({ path: path.join(SHOTS, 'deep-page.png'), fullPage: true });
    await page.close();
  }, 300_000);

  it('refuses a share-link site without its key and opens it with the key', async () => {
    const { site } = await publish('Private docs', 'share-link');
    const page = await browser.newPage();
    const refused = await page.goto(`${folio.baseUrl}/sites/${site.basename}/`, { waitUntil: 'load' });
    expect(refused?.status()).toBe(401);
    await page.screenshot({ path: path.join(SHOTS, 'share-link-refused.png') });
    const link = (await api.orgs.createSiteShareLink(folio.organizationId, site.id, { name: 'browser' })).data;
    const opened = await page.goto(link.urls.published!, { waitUntil: 'load' });
    expect(opened?.status()).toBe(200);
    // The key is kept in a cookie for the site's path: the next page opens without it in the address.
    const next = await page.$eval('nav.sidebar a[href]:not([aria-current])', (a) => (a as HTMLAnchorElement).href);
    expect(next).not.toContain('share=');
    expect((await page.goto(next, { waitUntil: 'load' }))?.status()).toBe(200);
    await page.screenshot({ path: path.join(SHOTS, 'share-link-opened.png') });
    await page.close();
  }, 300_000);

  it('highlights code, runs only the copy script its policy allows, and copies a block; the search form leads to results', async () => {
    const { site } = await publish('Code docs', 'public');
    const start = `${folio.baseUrl}/sites/${site.basename}/`;
    const page = await browser.newPage();
    const refusals: string[] = [];
    page.on('console', (m) => {
      if (/Content Security Policy|integrity/i.test(m.text())) refusals.push(m.text());
    });
    await browser.defaultBrowserContext().overridePermissions(folio.baseUrl, ['clipboard-read', 'clipboard-write', 'clipboard-sanitized-write']);
    await page.setViewport({ width: 1280, height: 900 });
    expect((await page.goto(`${start}code-block/`, { waitUntil: 'load' }))?.status()).toBe(200);
    expect(await page.$$eval('pre code [class^="pl-"]', (n) => n.length)).toBeGreaterThan(3);
    const buttons = await page.$$('pre > button.copy-code');
    expect(buttons.length).toBe(await page.$$eval('pre > code', (n) => n.length));
    await buttons[0]!.click();
    await page.waitForFunction(() => document.querySelector('pre > button.copy-code')?.textContent === 'Copied');
    const copied = await page.evaluate(() => navigator.clipboard.readText());
    expect(copied).toBe(await page.$eval('pre > code', (c) => c.textContent));
    expect(copied).toContain('def greeting(name)');
    expect(refusals).toEqual([]);
    await page.screenshot({ path: path.join(SHOTS, 'code-block.png') });

    // Without JavaScript: no button, the same code.
    await page.setJavaScriptEnabled(false);
    await page.goto(`${start}code-block/`, { waitUntil: 'load' });
    expect(await page.$$('pre > button.copy-code')).toHaveLength(0);
    await page.type('#search-q', 'greeting');
    await Promise.all([page.waitForNavigation({ waitUntil: 'load' }), page.click('form[role=search] button')]);
    expect(page.url()).toBe(`${start}~search?q=greeting`);
    expect(await page.$$eval('ol.search-results a.hit-title', (as) => as.map((a) => (a as HTMLAnchorElement).href))).toContain(`${start}code-block/`);
    await page.screenshot({ path: path.join(SHOTS, 'search.png') });
    await page.close();
  }, 300_000);
});
