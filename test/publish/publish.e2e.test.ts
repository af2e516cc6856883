/**
 * Publishing end to end: sites, site spaces and share links through GitBook's own client (bodies checked
 * against the official spec), a publish run on the real Temporal dev server, the site served by Folio and
 * crawled (0 broken links), and an incremental re-publish after one page changed.
 */
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { GitBookAPI } from '@gitbook/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeSiteToDirectory } from '../../src/publish/write-directory.js';
import { publishWorkflowId, type PublishSiteResult } from '../../src/temporal/contract/index.js';
import { sharedFolio, type TestFolio } from '../helpers/folio.js';
import { contractErrors } from '../helpers/openapi-contract.js';
import { corpusTree, importIntoSpace, withFile, type ImportedSpace } from './corpus-space.js';
import { crawlSite } from './crawl.js';

const REPO = 'GitbookIO+git-sync-normalization';

let folio: TestFolio;
let api: GitBookAPI;
let spaceId: string;
let imported: ImportedSpace;

beforeAll(async () => {
  folio = await sharedFolio();
  api = new GitBookAPI({ authToken: folio.token, endpoint: folio.baseUrl });
  spaceId = (await folio.store.spaces.create(folio.organizationId, { title: 'Normalization' })).id;
  const { tree, projectDirectory } = await corpusTree(REPO);
  imported = await importIntoSpace(folio.store, spaceId, tree, projectDirectory);
}, 120_000);

afterAll(async () => {
  await folio?.stop();
});

function checked(method: string, path: string, status: number, body: unknown) {
  expect(contractErrors(method, path, status, body)).toEqual([]);
  return body;
}

async function publishAndWait(siteId: string): Promise<PublishSiteResult> {
  const res = await api.orgs.publishSite(folio.organizationId, siteId);
  checked('POST', `/orgs/${folio.organizationId}/sites/${siteId}/publish`, res.status, res.data);
  return folio.client.workflow.getHandle(publishWorkflowId(siteId)).result();
}

describe('sites and publishing', () => {
  it('publishes a corpus space, serves it with 0 broken links, and re-renders only the changed page', async () => {
    const org = folio.organizationId;
    const created = await api.orgs.createSite(org, { title: 'Normalization docs', visibility: 'public' });
    checked('POST', `/orgs/${org}/sites`, created.status, created.data);
    const site = created.data as { id: string; basename: string; published: boolean };
    expect(site.published).toBe(false);

    const added = await api.orgs.addSpaceToSite(org, site.id, { spaceId });
    checked('POST', `/orgs/${org}/sites/${site.id}/site-spaces`, added.status, added.data);
    const listed = await api.orgs.listSiteSpaces(org, site.id);
    checked('GET', `/orgs/${org}/sites/${site.id}/site-spaces`, listed.status, listed.data);
    expect(listed.data.items.map((s) => s.space.id)).toEqual([spaceId]);
    expect(listed.data.items[0]!.default).toBe(true);

    const first = await publishAndWait(site.id);
    expect(first.last).not.toBeNull();
    const pageCount = imported.revision.pages.length > 0 ? first.last!.rendered : 0;
    expect(pageCount).toBeGreaterThanOrEqual(15);
    expect(first.last!.reused).toBe(0);

    const profile = await api.orgs.getPublishedContentSite(org, site.id);
    checked('GET', `/orgs/${org}/sites/${site.id}/published`, profile.status, profile.data);
    const got = await api.orgs.getSiteById(org, site.id);
    checked('GET', `/orgs/${org}/sites/${site.id}`, got.status, got.data);
    expect(got.data.urls.published).toBe(`${folio.baseUrl}/sites/${site.basename}/`);

    // The whole site: every page, link, image and stylesheet resolves.
    const crawl = await crawlSite(`${folio.baseUrl}/sites/${site.basename}/`);
    expect(crawl.broken).toEqual([]);
    expect(crawl.pages.length).toBe(pageCount);

    // Caching: the ETag is the content hash; a conditional request answers 304; assets are immutable.
    const home = await fetch(`${folio.baseUrl}/sites/${site.basename}/`);
    const html = await home.text();
    expect(home.headers.get('etag')).toMatch(/^"[0-9a-f]{64}"$/);
    const again = await fetch(`${folio.baseUrl}/sites/${site.basename}/`, { headers: { 'if-none-match': home.headers.get('etag')! } });
    expect(again.status).toBe(304);
    const css = /href="([^"]*_static\/[^"]+\.css)"/.exec(html)![1]!;
    const cssRes = await fetch(new URL(css, home.url));
    expect(cssRes.headers.get('cache-control')).toContain('immutable');
    expect(html).toContain('<html lang="en">');
    expect(html).toContain('class="skip-link"');
    // One script, external, content-addressed, with its integrity (the copy buttons); nothing inline.
    expect([...html.matchAll(/<script\b[^>]*>/g)].map((m) => m[0])).toEqual([
      expect.stringMatching(/^<script src="_static\/copy\.[0-9a-f]{16}\.js" integrity="sha256-[^"]+" defer>$/),
    ]);
    expect(html).toContain('></script>');
    for (const path of ['robots.txt', 'sitemap.xml', 'llms.txt', 'index.md']) {
      const r = await fetch(`${folio.baseUrl}/sites/${site.basename}/${path}`);
      expect(r.status, path).toBe(200);
    }
    expect(await (await fetch(`${folio.baseUrl}/sites/${site.basename}/robots.txt`)).text()).toContain('Allow: /');

    // The same site written to a directory for a static host: every page there, every relative link and image on disk.
    const out = await mkdtemp(path.join(tmpdir(), 'folio-site-'));
    try {
      const record = (await folio.store.sites.get(org, site.id))!;
      const written = await writeSiteToDirectory(folio.store, record, out);
      expect(written.files).toBeGreaterThan(pageCount);
      const htmlFiles = (await readdir(out, { recursive: true })).filter((f) => f.endsWith('index.html'));
      expect(htmlFiles).toHaveLength(pageCount);
      const missing: string[] = [];
      for (const file of htmlFiles) {
        const text = await readFile(path.join(out, file), 'utf8');
        for (const m of text.matchAll(/(?:href|src)="([^"#?]+)[^"]*"/g)) {
          const ref = m[1]!;
          if (/^[a-z]+:/i.test(ref) || ref.endsWith('~search')) continue;
          const target = path.join(out, path.dirname(file), decodeURIComponent(ref));
          if (!existsSync(ref.endsWith('/') ? path.join(target, 'index.html') : target)) missing.push(`${file} → ${ref}`);
        }
      }
      expect(missing).toEqual([]);
    } finally {
      await rm(out, { recursive: true, force: true });
    }

    // Nothing changed: every page is kept, but for a page whose code a parse thread still loading its grammars left
    // plain (a loaded machine): that one is rendered again, once.
    const settle = await publishAndWait(site.id);
    expect(settle.last!.rendered + settle.last!.reused).toBe(pageCount);
    const settled = await publishAndWait(site.id);
    expect(settled.last!.rendered).toBe(0);

    // One page's body changes: only that page is rendered again.
    const pagePath = [...imported.tree.keys()].find((p) => p.endsWith('.md') && p !== 'README.md' && p !== 'SUMMARY.md' && !p.startsWith('.gitbook'))!;
    const text = new TextDecoder().decode(await imported.tree.get(pagePath)!.read());
    const next = await importIntoSpace(
      folio.store,
      spaceId,
      withFile(imported.tree, pagePath, `${text}\nA sentence added by the incremental test.\n`),
      imported.projectDirectory,
      imported,
    );
    const second = await publishAndWait(site.id);
    expect(second.last!.rendered).toBe(1);
    expect(second.last!.reused).toBe(pageCount - 1);
    const changed = next.revision.pages.length;
    expect(changed).toBeGreaterThan(0);
    const recrawl = await crawlSite(`${folio.baseUrl}/sites/${site.basename}/`);
    expect(recrawl.broken).toEqual([]);
    const bodies = await Promise.all(recrawl.pages.map(async (u) => (await fetch(u)).text()));
    expect(bodies.filter((b) => b.includes('A sentence added by the incremental test.'))).toHaveLength(1);
  }, 300_000);

  it('refuses a share-link site without its key, serves it with one, and answers 404 once unpublished', async () => {
    const org = folio.organizationId;
    const site = (await api.orgs.createSite(org, { title: 'Private handbook', visibility: 'share-link', spaces: [spaceId] })).data as {
      id: string;
      basename: string;
    };
    await publishAndWait(site.id);
    const base = `${folio.baseUrl}/sites/${site.basename}/`;
    expect((await fetch(base)).status).toBe(401);
    const link = await api.orgs.createSiteShareLink(org, site.id, { name: 'reviewers' });
    checked('POST', `/orgs/${org}/sites/${site.id}/share-links`, link.status, link.data);
    const withKey = await fetch(link.data.urls.published!);
    expect(withKey.status).toBe(200);
    expect(withKey.headers.get('x-robots-tag')).toContain('noindex');
    const cookie = withKey.headers.get('set-cookie')!.split(';')[0]!;
    expect((await fetch(`${base}robots.txt`, { headers: { cookie } })).status).toBe(200);
    expect(await (await fetch(`${base}robots.txt`, { headers: { cookie } })).text()).toContain('Disallow: /');
    const crawl = await crawlSite(link.data.urls.published!.split('?')[0]!, { cookie });
    expect(crawl.broken).toEqual([]);

    await api.orgs.updateSiteShareLinkById(org, site.id, link.data.id, { active: false });
    expect((await fetch(link.data.urls.published!)).status).toBe(401);

    const un = await api.orgs.unpublishSite(org, site.id);
    checked('POST', `/orgs/${org}/sites/${site.id}/unpublish`, un.status, un.data);
    expect((await fetch(base)).status).toBe(404);
  }, 300_000);
});
