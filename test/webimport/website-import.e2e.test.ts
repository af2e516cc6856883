/**
 * Website import end to end, against the real Temporal dev server: a small documentation site on loopback (sitemap
 * index, robots.txt with a Disallow, images, a download, a 429 then success, a 500 retried) imported through the
 * seed route and through the official client's import runs; the page tree, page links, files, robots, retries,
 * progress, cancel (space unchanged).
 */
import { GitBookAPI } from '@gitbook/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFolio, type TestFolio } from '../helpers/folio.js';
import { LOOPBACK_ALLOW_HOSTS } from '../helpers/loopback-policy.js';
import { assertContract } from '../helpers/openapi-contract.js';
import { smallSite, startDocSite, type DocSite } from './doc-site.js';

let folio: TestFolio;
let site: DocSite;

beforeAll(async () => {
  site = await startDocSite({ s1: smallSite('s1'), s2: smallSite('s2'), s3: smallSite('s3') });
  folio = await startFolio({ env: { FETCH_ALLOW_HOSTS: LOOPBACK_ALLOW_HOSTS, WEBIMPORT_DELAY_MS: '0', WEBIMPORT_RETRIES: '3' } });
});

afterAll(async () => {
  await folio?.stop();
  await site?.stop();
});

interface ApiPage {
  id: string;
  title: string;
  path?: string;
  pages?: ApiPage[];
}

async function newSpace(title: string): Promise<string> {
  const created = await folio.request('POST', `/v1/orgs/${folio.organizationId}/spaces`, { title });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.id as string;
}

function outline(pages: ApiPage[], depth = 0): string[] {
  return pages.flatMap((p) => [`${'  '.repeat(depth)}${p.title} (${p.path ?? ''})`, ...outline(p.pages ?? [], depth + 1)]);
}

function flat(pages: ApiPage[]): ApiPage[] {
  return pages.flatMap((p) => [p, ...flat(p.pages ?? [])]);
}

describe('website import', () => {
  it('imports a site through the seed route: navigation order, page links, files, robots.txt and retries', async () => {
    const spaceId = await newSpace('Imported site');
    const res = await folio.request('POST', `/v1/spaces/${spaceId}/content/import`, { url: `${site.base}/s1/`, source: 'website' });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    expect(res.body).toEqual({ revision: expect.any(String), importedResources: expect.any(Number), totalResources: expect.any(Number) });
    expect(res.body.importedResources).toBe(res.body.totalResources);

    const space = await folio.request('GET', `/v1/spaces/${spaceId}`);
    expect(space.body.revision).toBe(res.body.revision);

    const pages = await folio.request('GET', `/v1/spaces/${spaceId}/content/pages`);
    expect(pages.status).toBe(200);
    // Discovery order (the sitemap's, not the alphabet): Zebra before Alpha; Install under Guide (its URL folder);
    // the page robots.txt disallows is not imported.
    expect(outline(pages.body.pages)).toEqual([
      'Welcome ()',
      'Guide (guide)',
      '  Install (guide/install)',
      'Zebra (zebra)',
      'Alpha (alpha)',
      'Flaky (flaky)',
      'Broken (broken)',
    ]);
    const all = flat(pages.body.pages);
    const byTitle = (t: string) => all.find((p) => p.title === t)!;

    // Links between imported pages are page links (to the page, by id), not URLs of the old site.
    const guide = await folio.request('GET', `/v1/spaces/${spaceId}/content/page/${byTitle('Guide').id}?format=markdown`);
    expect(guide.status).toBe(200);
    const guideMd = guide.body.markdown as string;
    expect(guideMd).not.toContain(site.base);
    expect(guideMd).toMatch(/\[Install\]\([^)]*install[^)]*\)/);
    // The converter resolved them: the page's references point at the pages (and files) by id.
    const refsOf = async (title: string) => {
      const record = await folio.store.revisions.page(res.body.revision, byTitle(title).id);
      return (record!.data.references as Array<{ url: string; target: { kind: string; pageId?: string; fileId?: string } }>) ?? [];
    };
    const guideRefs = await refsOf('Guide');
    expect(guideRefs.map((r) => r.target)).toEqual([
      { kind: 'page', pageId: byTitle('Install').id },
      { kind: 'page', pageId: byTitle('Alpha').id },
    ]);
    const welcomeRefs = await refsOf('Welcome');
    expect(welcomeRefs.filter((r) => r.target.kind === 'page').map((r) => r.target.pageId)).toEqual([byTitle('Guide').id, byTitle('Zebra').id]);
    expect(welcomeRefs.some((r) => r.target.kind === 'file')).toBe(true);

    // Images and downloads are space files, one per distinct content (the logo is used by two pages).
    const files = await folio.request('GET', `/v1/spaces/${spaceId}/content/files`);
    expect(files.status).toBe(200);
    const names = (files.body.items as Array<{ name: string }>).map((f) => f.name).sort();
    expect(names).toEqual(['logo.png', 'manual.pdf', 'zebra.png']);
    const install = await folio.request('GET', `/v1/spaces/${spaceId}/content/page/${byTitle('Install').id}?format=markdown`);
    expect(install.body.markdown).toContain('logo.png');
    expect(install.body.markdown).toContain('manual.pdf');
    expect(install.body.markdown).toContain('npm install folio');
    expect(install.body.description).toBe('About Install.');

    // robots.txt respected; the 429 (Retry-After) and the 500 retried once each; every page fetched once more at most.
    expect(site.hits.get('/s1/private/secret.html') ?? 0).toBe(0);
    expect(site.hits.get('/s1/flaky.html')).toBe(2);
    expect(site.hits.get('/s1/broken.html')).toBe(2);
    expect(site.hits.get('/s1/guide/install.html')).toBe(1);
    expect(site.hits.get('/s1/img/logo.png')).toBe(1);

    const runs = await folio.request('GET', `/v1/org/${folio.organizationId}/imports?space=${spaceId}`);
    expect(runs.status).toBe(200);
    assertContract('GET', `/org/${folio.organizationId}/imports`, 200, runs.body);
    expect(runs.body.items).toHaveLength(1);
    const run = runs.body.items[0];
    expect(run).toMatchObject({
      status: 'completed',
      revision: res.body.revision,
      source: { type: 'website', url: `${site.base}/s1/` },
      target: { space: spaceId },
    });
    const ETag = await folio.store.imports.urls(run.id);
    expect(ETag.find((u) => u.url.endsWith('/img/logo.png'))?.etag).toBe('"logo-1"');
    expect(ETag.find((u) => u.url.endsWith('/img/zebra.png'))?.lastModified).toBe('Mon, 02 Nov 2026 10:00:00 GMT');
    expect(run.warnings.map((w: { code: string }) => w.code)).toContain('WEBIMPORT_SKIPPED');
  });

  it('import runs through the official client: start, progress, list, get; bodies match the spec', async () => {
    const api = new GitBookAPI({ authToken: folio.token, endpoint: folio.baseUrl });
    const spaceId = await newSpace('Client import');
    const started = await api.org.startImportRun(folio.organizationId, {
      source: { type: 'website', url: `${site.base}/s2/` },
      target: { space: spaceId },
      enhance: false,
    });
    expect(started.status).toBe(201);
    assertContract('POST', `/org/${folio.organizationId}/imports`, 201, started.data);
    expect(['pending', 'in-progress']).toContain(started.data.status);
    const runId = started.data.id;

    const deadline = Date.now() + 120_000;
    let run = started.data;
    while (run.status === 'pending' || run.status === 'in-progress') {
      if (Date.now() > deadline) throw new Error(`the run did not finish: ${JSON.stringify(run)}`);
      await new Promise((r) => setTimeout(r, 300));
      run = (await api.org.getImportRun(folio.organizationId, runId)).data;
    }
    assertContract('GET', `/org/${folio.organizationId}/imports/${runId}`, 200, run);
    expect(run, JSON.stringify(run)).toMatchObject({ status: 'completed', completedAt: expect.any(String), target: { space: spaceId } });
    const progress = run as unknown as { importedResources: number; totalResources: number };
    expect(progress.importedResources).toBeGreaterThan(7);
    expect(progress.importedResources).toBe(progress.totalResources);

    const listed = await api.org.listImportRuns(folio.organizationId, { status: 'completed' });
    expect(listed.data.items.map((r) => r.id)).toContain(runId);

    // A finished run cannot be cancelled: a clear 400.
    const cancel = await folio.request('POST', `/v1/org/${folio.organizationId}/imports/${runId}/cancel`);
    expect(cancel.status).toBe(400);
    expect(cancel.body.error.message).toContain('completed');

    const pages = await folio.request('GET', `/v1/spaces/${spaceId}/content/pages`);
    expect(flat(pages.body.pages).map((p) => p.title)).toContain('Install');
  });

  it('cancel stops a running import within seconds and leaves the space unchanged', async () => {
    const spaceId = await newSpace('Cancelled import');
    const before = (await folio.request('GET', `/v1/spaces/${spaceId}`)).body.revision;
    site.hold(/^\/s3\/(guide|zebra|alpha)/);
    const held = site.held();
    const started = await folio.request('POST', `/v1/org/${folio.organizationId}/imports`, {
      source: { type: 'website', url: `${site.base}/s3/` },
      target: { space: spaceId },
    });
    expect(started.status, JSON.stringify(started.body)).toBe(201);
    await held;
    const inProgress = await folio.request('GET', `/v1/org/${folio.organizationId}/imports/${started.body.id}`);
    expect(inProgress.body.status).toBe('in-progress');

    const t0 = Date.now();
    const cancelled = await folio.request('POST', `/v1/org/${folio.organizationId}/imports/${started.body.id}/cancel`);
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    assertContract('POST', `/org/${folio.organizationId}/imports/${started.body.id}/cancel`, 200, cancelled.body);
    expect(cancelled.body.status).toBe('cancelled');
    expect(Date.now() - t0).toBeLessThan(15_000);
    site.release();

    const after = await folio.request('GET', `/v1/spaces/${spaceId}`);
    expect(after.body.revision).toBe(before);
    const pages = await folio.request('GET', `/v1/spaces/${spaceId}/content/pages`);
    expect(flat(pages.body.pages).map((p) => p.title)).not.toContain('Zebra');
  });

  it('refuses bad requests with clear 4xx errors', async () => {
    const spaceId = await newSpace('Bad requests');
    const cases: Array<[string, string, unknown, number, string]> = [
      ['POST', `/v1/spaces/${spaceId}/content/import`, { url: 'ftp://example.com/', source: 'website' }, 400, 'http'],
      ['POST', `/v1/spaces/${spaceId}/content/import`, { url: 'https://user:pw@example.com/', source: 'website' }, 400, 'credentials'],
      ['POST', `/v1/spaces/${spaceId}/content/import`, { url: 'https://example.com/', source: 'git' }, 400, 'website'],
      ['POST', `/v1/org/${folio.organizationId}/imports`, { source: { type: 'website', url: 'https://example.com/' } }, 400, 'target'],
      ['POST', `/v1/org/${folio.organizationId}/imports`, { source: { type: 'file', files: ['a.md'] }, target: { space: spaceId } }, 400, 'file'],
      ['GET', `/v1/org/${folio.organizationId}/imports?status=nope`, undefined, 400, 'status'],
    ];
    for (const [method, path, body, status, word] of cases) {
      const res = await folio.request(method, path, body);
      expect(res.status, `${method} ${path} ${JSON.stringify(res.body)}`).toBe(status);
      expect(res.body.error.message.toLowerCase()).toContain(word);
    }
  });
});
