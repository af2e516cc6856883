/**
 * Issue 33: a site's redirects in the official shapes (create, list, update, delete, resolve by source), checked
 * (the source's pattern, destinations that are pages or site spaces of this site or http(s) URLs, one redirect per
 * source), and followed by the published site for a path with no page: 302 for a temporary redirect, 308 for a
 * permanent one on a public site (307 elsewhere), a chain followed to its end in one answer, a loop not followed.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishSite } from '../../src/publish/build.js';
import { renderPageBody } from '../../src/publish/render/index.js';
import { startApiBed, type ApiBed } from '../helpers/api-bed.js';
import { testLogger } from '../helpers/logger.js';
import { assertContract } from '../helpers/openapi-contract.js';

let bed: ApiBed;
let site: { id: string; basename: string };
let main: string;
let second: string;
let spaceId: string;
let base: string;
const encoder = new TextEncoder();

async function call(method: string, path: string, body?: unknown, status = 200): Promise<any> {
  const res = await bed.request(bed.service, method, path, body);
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)?.slice(0, 400)}`).toBe(status);
  if (status < 300 && res.body !== undefined) assertContract(method, path, status, res.body);
  return res.body;
}

async function space(title: string, pages: Array<[string, string]>): Promise<string> {
  const created = await bed.store.spaces.create(bed.organizationId, { title });
  const revision = await bed.store.revisions.create({
    spaceId: created.id,
    parents: [],
    type: 'edits',
    pages: pages.map(([id, path]) => ({ id, kind: 'document' as const, title: id, slug: path || 'home', path, body: encoder.encode(`# ${id}\n`) })),
    files: [],
  });
  await bed.store.spaces.setPrimaryRevision(created.id, revision.id);
  return created.id;
}

async function get(path: string) {
  const res = await bed.app.inject({ method: 'GET', url: `/sites/${site.basename}/${path}` });
  return { status: res.statusCode, location: res.headers.location };
}

beforeAll(async () => {
  bed = await startApiBed('redirect-org');
  spaceId = await space('Guide', [
    ['phome', ''],
    ['pstart', 'start'],
    ['pdeep', 'start/deep'],
  ]);
  const other = await space('Guide two', [['ohome', '']]);
  site = await call('POST', `/v1/orgs/${bed.organizationId}/sites`, { title: 'Redirecting', spaces: [spaceId] }, 201);
  base = `/v1/orgs/${bed.organizationId}/sites/${site.id}`;
  main = (await call('GET', `${base}/site-spaces`)).items[0].id;
  second = (await call('POST', `${base}/site-spaces`, { spaceId: other, path: 'guide2' }, 201)).id;
  await bed.store.sites.update(bed.organizationId, site.id, { published: true, defaultSiteSpaceId: main });
  await publishSite(
    { store: bed.store, render: async (input) => renderPageBody(input), logger: testLogger('publish') },
    { organizationId: bed.organizationId, siteId: site.id, requestKey: 'one' },
  );
});

afterAll(async () => {
  await bed?.close();
});

describe('site redirects (issue 33)', () => {
  let oldId: string;

  it('creates, lists, searches, resolves, updates and deletes them in the official shapes', async () => {
    const old = await call('POST', `${base}/redirects`, { source: '/old', destination: { kind: 'site-page', siteSpaceId: main, pageId: 'pstart' } }, 201);
    oldId = old.id;
    expect(old).toMatchObject({ object: 'site-redirect', source: '/old', draft: false, permanent: false, captureWildcard: false });
    const byPath = await call(
      'POST',
      `${base}/redirects`,
      { source: '/older', permanent: true, destination: { kind: 'path', spaceId, path: 'start/deep' } },
      201,
    );
    expect(byPath.destination).toEqual({ kind: 'site-page', siteSpaceId: main, pageId: 'pdeep' });
    await call('POST', `${base}/redirects`, { source: '/ext', destination: { kind: 'external', url: 'https://example.com/elsewhere' } }, 201);
    await call('POST', `${base}/redirects`, { source: '/v1/*', captureWildcard: true, destination: { kind: 'site-space', siteSpaceId: main } }, 201);
    await call('POST', `${base}/redirects`, { source: '/gone', destination: { kind: 'site-page', siteSpaceId: main, pageId: 'pstart' }, draft: true }, 201);
    const listed = await call('GET', `${base}/redirects`);
    expect(listed.items.map((r: { source: string }) => r.source)).toEqual(['/old', '/older', '/ext', '/v1/*']);
    expect(listed.count).toBe(4);
    expect((await call('GET', `${base}/redirects?draft=true`)).items.map((r: { source: string }) => r.source)).toEqual(['/gone']);
    expect((await call('GET', `${base}/redirects?search=old`)).items).toHaveLength(2);
    const paged = await call('GET', `${base}/redirects?limit=3`);
    expect([paged.items.length, paged.count]).toEqual([3, 4]);
    expect((await call('GET', `${base}/redirects?limit=3&page=${paged.next.page}`)).items).toHaveLength(1);
    const resolved = await call('GET', `${base}/redirect?source=/older`);
    expect(resolved.target).toBe(`http://127.0.0.1:9/sites/${site.basename}/start/deep/`);
    const updated = await call('PATCH', `${base}/redirects/${byPath.id}`, { permanent: false });
    expect(updated.permanent).toBe(false);
    expect(updated.updatedAt).toEqual(expect.any(String));
    await call('PATCH', `${base}/redirects/${byPath.id}`, { permanent: true });
    const temp = await call('POST', `${base}/redirects`, { source: '/temp', destination: { kind: 'site-space', siteSpaceId: second } }, 201);
    await call('DELETE', `${base}/redirects/${temp.id}`, undefined, 205);
    await call('DELETE', `${base}/redirects/${temp.id}`, undefined, 204);
    expect((await bed.request(bed.service, 'GET', `${base}/redirect?source=/temp`)).status).toBe(404);
  });

  it('refuses bad sources and destinations with a 400 naming them, a taken source with a 409', async () => {
    const bad = [
      { source: 'no-slash', destination: { kind: 'site-space', siteSpaceId: main } },
      { source: '/*', destination: { kind: 'site-space', siteSpaceId: main } },
      { source: '/x', destination: { kind: 'external', url: 'javascript:alert(1)' } },
      { source: '/x', destination: { kind: 'external', url: 'mailto:a@b.example' } },
      { source: '/x', destination: { kind: 'site-space', siteSpaceId: 'not-here' } },
      { source: '/x', destination: { kind: 'site-page', siteSpaceId: main, pageId: 'nope' } },
      { source: '/x', destination: { kind: 'path', spaceId, path: 'missing' } },
      { source: '/x', destination: { kind: 'site-section', siteSectionId: 'not-a-section' } },
    ];
    for (const body of bad) expect((await bed.request(bed.service, 'POST', `${base}/redirects`, body)).status, JSON.stringify(body)).toBe(400);
    const taken = await bed.request(bed.service, 'POST', `${base}/redirects`, { source: '/old', destination: { kind: 'site-space', siteSpaceId: main } });
    expect(taken.status).toBe(409);
    expect((await bed.request(bed.service, 'PATCH', `${base}/redirects/unknown`, { permanent: true })).status).toBe(404);
  });

  it('the published site follows them for a path with no page: 302, 308 when permanent, chains in one answer, never a loop', async () => {
    const root = `/sites/${site.basename}`;
    expect(await get('old')).toEqual({ status: 302, location: `${root}/start/` });
    expect(await get('old/')).toEqual({ status: 302, location: `${root}/start/` });
    expect(await get('older')).toEqual({ status: 308, location: `${root}/start/deep/` });
    expect(await get('ext')).toEqual({ status: 302, location: 'https://example.com/elsewhere' });
    // The captured suffix appended: /v1/start → start (a page).
    expect(await get('v1/start')).toEqual({ status: 302, location: `${root}/start` });
    // A chain: /v1/old → /old → start/, in one answer.
    expect(await get('v1/old')).toEqual({ status: 302, location: `${root}/start/` });
    // A draft redirect is not live; a page is never shadowed by a redirect.
    expect((await get('gone')).status).toBe(404);
    await call('POST', `${base}/redirects`, { source: '/start', destination: { kind: 'external', url: 'https://example.com/' } }, 201);
    expect((await get('start/')).status).toBe(200);
    // A loop: /guide2/x → guide2/x (the site space's own path, the suffix captured).
    await call('POST', `${base}/redirects`, { source: '/guide2/*', captureWildcard: true, destination: { kind: 'site-space', siteSpaceId: second } }, 201);
    expect((await get('guide2/x')).status).toBe(404);
    // Not public: a permanent redirect is a 307.
    await bed.store.sites.update(bed.organizationId, site.id, { visibility: 'unlisted' });
    expect(await get('older')).toEqual({ status: 307, location: `${root}/start/deep/` });
    await call('DELETE', `${base}/redirects/${oldId}`, undefined, 205);
    expect((await get('old')).status).toBe(404);
  });

  it('a section as destination leads to where the section is served; a site space to its address inside its section', async () => {
    const apiSpace = await space('API', [['ahome', '']]);
    const section = await call('POST', `${base}/sections`, { spaceId: apiSpace, title: 'API reference' }, 201);
    const v2 = (await call('POST', `${base}/site-spaces`, { spaceId: await space('API v2', [['bhome', '']]), sectionId: section.id, path: 'v2' }, 201)).id;
    await publishSite(
      { store: bed.store, render: async (input) => renderPageBody(input), logger: testLogger('publish') },
      { organizationId: bed.organizationId, siteId: site.id, requestKey: 'sections' },
    );
    await call('POST', `${base}/redirects`, { source: '/to-api', destination: { kind: 'site-section', siteSectionId: section.id } }, 201);
    await call('POST', `${base}/redirects`, { source: '/to-v2', destination: { kind: 'site-space', siteSpaceId: v2 } }, 201);
    const root = `/sites/${site.basename}`;
    expect(await get('to-api')).toEqual({ status: 302, location: `${root}/${section.path}/` });
    expect(await get('to-v2')).toEqual({ status: 302, location: `${root}/${section.path}/v2/` });
    expect((await get(`${section.path}/v2/`)).status).toBe(200);
  });
});
