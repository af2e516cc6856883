/**
 * Issue 33, "done when": two real corpus spaces (GitBook's documentation, ~190 pages with math and columns, and
 * BlockRazor's, ~140 pages) imported, indexed and published by the publish workflow, then read in Debian's chromium
 * through puppeteer-core: the search page finds a word that appears only inside a code block and a misspelled word;
 * highlighted code has token spans; at 375 px the article's first heading is within the first screen (the navigation
 * is a drawer, opened without JavaScript); axe-core finds no serious or critical violation on the home page, a deep
 * page and the search page; the columns page shows no literal Liquid tag; math is typeset. Screenshots at 1280 and
 * 375 px go to test-results/reader/.
 */
import { readFileSync } from 'node:fs';
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Browser, Page } from 'puppeteer-core';
import { launchTestChromium } from '../helpers/chromium.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allPages, type DocumentPage } from '../../src/format/index.js';
import { projectRoot } from '../../src/project-root.js';
import { indexSpace } from '../../src/search/index-space.js';
import { searchSections } from '../../src/search/sections.js';
import { publishWorkflowId, type PublishSiteResult } from '../../src/temporal/contract/index.js';
import { sharedFolio, type TestFolio } from '../helpers/folio.js';
import { testLogger } from '../helpers/logger.js';
import { corpusTree, importIntoSpace, type ImportedSpace } from './corpus-space.js';

const SHOTS = path.join(projectRoot(), 'test-results', 'reader');
const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const SPACES = [
  { repo: 'GitbookIO+public-docs', title: 'GitBook docs' },
  { repo: 'BlockRazorinc+docs_en', title: 'BlockRazor docs' },
];

let folio: TestFolio;
let browser: Browser;
let profile: string;
const sites: Array<{ start: string; imported: ImportedSpace; docs: DocumentPage[] }> = [];

async function publishSpace(repo: string, title: string) {
  const spaceId = (await folio.store.spaces.create(folio.organizationId, { title, language: 'en' })).id;
  const { tree, projectDirectory } = await corpusTree(repo);
  const imported = await importIntoSpace(folio.store, spaceId, tree, projectDirectory);
  const indexed = await indexSpace(
    { store: folio.store, logger: testLogger('index'), extract: async (md) => searchSections(md), progress: () => {} },
    { spaceId, organizationId: folio.organizationId },
  );
  expect(indexed.outcome).toBe('indexed');
  const res = await folio.request('POST', `/v1/orgs/${folio.organizationId}/sites`, { title, visibility: 'public', spaces: [spaceId] });
  expect(res.status, JSON.stringify(res.body)).toBe(201);
  expect((await folio.request('POST', `/v1/orgs/${folio.organizationId}/sites/${res.body.id}/publish`)).status).toBeLessThan(300);
  const result: PublishSiteResult = await folio.client.workflow.getHandle(publishWorkflowId(res.body.id)).result();
  expect(result.last).not.toBeNull();
  const docs = [...allPages(imported.revision.pages)].filter((p): p is DocumentPage => p.kind === 'document' && !p.hidden);
  return { start: `${folio.baseUrl}/sites/${res.body.basename}/`, imported, docs };
}

beforeAll(async () => {
  folio = await sharedFolio();
  for (const s of SPACES) sites.push(await publishSpace(s.repo, s.title));
  profile = await mkdtemp(path.join(tmpdir(), 'folio-chromium-'));
  await mkdir(SHOTS, { recursive: true });
  browser = await launchTestChromium(profile);
}, 900_000);

afterAll(async () => {
  await browser?.close();
  await folio?.stop();
  if (profile) await rm(profile, { recursive: true, force: true });
});

/** The fenced code of a markdown text, and the text outside it. */
function split(markdown: string): { code: string; prose: string } {
  const code: string[] = [];
  const prose = markdown.replace(/^(```|~~~)[^\n]*\n([\s\S]*?)^\1\s*$/gm, (_m, _f, body: string) => {
    code.push(body);
    return '';
  });
  return { code: code.join('\n'), prose };
}

/** A word (8+ letters) written only inside code blocks of the space, with the page it is on. */
function codeOnlyWord(docs: DocumentPage[]): { word: string; page: DocumentPage } {
  const words = (text: string) => new Set(text.toLowerCase().match(/[a-z]{8,}/g) ?? []);
  const prose = new Set<string>();
  for (const p of docs) for (const w of words(`${p.title} ${p.description ?? ''} ${split(p.markdown ?? '').prose}`)) prose.add(w);
  for (const p of docs) {
    const found = [...words(split(p.markdown ?? '').code)].sort().find((w) => !prose.has(w));
    if (found) return { word: found, page: p };
  }
  throw new Error('no word only in code');
}

async function newPage(width: number, height: number): Promise<Page> {
  const page = await browser.newPage();
  // axe-core is injected as a script: the pages' policy would refuse it (it allows the copy button's script only).
  await page.setBypassCSP(true);
  await page.setCacheEnabled(false);
  await page.setViewport({ width, height });
  return page;
}

async function serious(page: Page): Promise<string[]> {
  await page.addScriptTag({ content: AXE });
  const violations = await page.evaluate(async () => {
    const result = await (window as unknown as { axe: { run(): Promise<{ violations: Array<{ id: string; impact: string; nodes: unknown[] }> }> } }).axe.run();
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, count: v.nodes.length }));
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.impact}, ${v.count})`);
}

async function results(page: Page, start: string, q: string): Promise<string[]> {
  const res = await page.goto(`${start}~search?q=${encodeURIComponent(q)}`, { waitUntil: 'load' });
  expect(res?.status()).toBe(200);
  return page.$$eval('ol.search-results a.hit-title', (as) => as.map((a) => (a as HTMLAnchorElement).href.split('#')[0]!));
}

describe('two published corpus spaces read in chromium', () => {
  it('search finds a word only in a code block and a misspelled word', async () => {
    const page = await newPage(1280, 900);
    for (const [i, site] of sites.entries()) {
      const { word, page: holder } = codeOnlyWord(site.docs);
      expect(await results(page, site.start, word), `${word} on ${holder.path}`).toContain(`${site.start}${holder.path ? `${holder.path}/` : ''}`);
      // A title word with one letter dropped still finds its page (pg_trgm similarity).
      const titled = site.docs.find((p) => /\b[A-Za-z]{10,}\b/.test(p.title))!;
      const right = /\b[A-Za-z]{10,}\b/.exec(titled.title)![0];
      const typo = right.slice(0, 4) + right.slice(5);
      expect((await results(page, site.start, typo)).length, `${typo} (${right})`).toBeGreaterThan(0);
      await page.screenshot({ path: path.join(SHOTS, `search-${i}-1280.png`) });
    }
    await page.close();
  }, 300_000);

  it('highlights code with token spans, typesets math, and renders the columns page without a literal tag', async () => {
    const page = await newPage(1280, 900);
    const docs = sites[0]!;
    const byFile = (file: string) => docs.docs.find((p) => p.git?.path === `documentation/${file}`)!;
    await page.goto(`${docs.start}${byFile('create-content/blocks/code-block.md').path}/`, { waitUntil: 'load' });
    expect(await page.$$eval('pre code [class^="pl-"]', (n) => n.length)).toBeGreaterThan(3);
    await page.goto(`${docs.start}${byFile('create-content/blocks/math-and-tex.md').path}/`, { waitUntil: 'load' });
    expect(await page.$$eval('.math-display .katex-html .sqrt', (n) => n.length)).toBe(1);
    // KaTeX's fonts load from the site under its policy.
    expect(
      await page.evaluate(async () => (await document.fonts.ready, [...document.fonts].some((f) => f.family.includes('KaTeX') && f.status === 'loaded'))),
    ).toBe(true);
    await page.screenshot({ path: path.join(SHOTS, 'math-1280.png') });
    await page.goto(`${docs.start}${byFile('create-content/blocks/columns.md').path}/`, { waitUntil: 'load' });
    const article = await page.$eval('main article', (a) => a.textContent ?? '');
    expect(article).not.toMatch(/\{%|%\}/);
    expect(await page.$$eval('main .columns .column', (n) => n.length)).toBeGreaterThan(1);
    await page.screenshot({ path: path.join(SHOTS, 'columns-1280.png'), fullPage: true });
    await page.close();
  }, 300_000);

  it('at 375 px the first heading is on the first screen and the navigation is a drawer opened without JavaScript', async () => {
    const page = await newPage(375, 667);
    await page.setJavaScriptEnabled(false);
    for (const [i, site] of sites.entries()) {
      const deep = site.docs.reduce((a, b) => (b.path.split('/').length > a.path.split('/').length ? b : a));
      await page.goto(`${site.start}${deep.path}/`, { waitUntil: 'load' });
      const top = await page.$eval('main h1', (h) => h.getBoundingClientRect().top);
      expect(top).toBeGreaterThanOrEqual(0);
      expect(top).toBeLessThan(667);
      expect(await page.$eval('nav.sidebar', (n) => getComputedStyle(n).display)).toBe('none');
      await page.screenshot({ path: path.join(SHOTS, `deep-${i}-375.png`) });
      await page.click('label.menu-link');
      expect(await page.$eval('nav.sidebar', (n) => getComputedStyle(n).display)).toBe('block');
      expect(await page.$eval('nav.sidebar a[aria-current=page]', (a) => a.textContent)).toBe(deep.tocTitle ?? deep.title);
      await page.screenshot({ path: path.join(SHOTS, `drawer-${i}-375.png`) });
    }
    await page.close();
  }, 300_000);

  it('axe-core finds no serious or critical violation on the home page, a deep page and the search page', async () => {
    const failures: Record<string, string[]> = {};
    for (const [i, site] of sites.entries()) {
      const deep = site.docs.reduce((a, b) => (b.path.split('/').length > a.path.split('/').length ? b : a));
      for (const [name, url] of [
        ['home', site.start],
        ['deep', `${site.start}${deep.path}/`],
        ['search', `${site.start}~search?q=install`],
      ] as const) {
        for (const width of [1280, 375]) {
          const page = await newPage(width, width === 375 ? 667 : 900);
          expect((await page.goto(url, { waitUntil: 'load' }))?.status()).toBe(200);
          const found = await serious(page);
          if (found.length > 0) failures[`${i} ${name} ${width}`] = found;
          await page.screenshot({ path: path.join(SHOTS, `${name}-${i}-${width}.png`) });
          await page.close();
        }
      }
    }
    expect(failures).toEqual({});
  }, 600_000);
});
