/**
 * Issue 33: `GET /v1/urls/content?url=` resolves a URL of a published site (`/sites/<basename>/…`, a custom
 * hostname) or of the app (`/app/s/<space>/…`) to its space and page, in the official shape; another organization's
 * URL, a page the caller cannot see and a URL that shows nothing all answer the same 404.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiBed, type ApiBed, type Person } from '../helpers/api-bed.js';
import { assertContract } from '../helpers/openapi-contract.js';

let bed: ApiBed;
let basename: string;
let spaceId: string;
let secondId: string;
let them: Person;
const OTHER = 'urls-other';
const encoder = new TextEncoder();

async function space(org: string, title: string, pages: Array<[string, string]>): Promise<string> {
  const created = await bed.store.spaces.create(org, { title });
  const revision = await bed.store.revisions.create({
    spaceId: created.id,
    parents: [],
    type: 'edits',
    pages: pages.map(([id, path]) => ({
      id,
      kind: 'document' as const,
      title: id,
      slug: path.split('/').pop() || 'home',
      path,
      body: encoder.encode(`# ${id}\n`),
    })),
    files: [],
  });
  await bed.store.spaces.setPrimaryRevision(created.id, revision.id);
  return created.id;
}

async function resolve(url: string, who: Person = bed.service) {
  return bed.request(who, 'GET', `/v1/urls/content?url=${encodeURIComponent(url)}`);
}

beforeAll(async () => {
  bed = await startApiBed('urls-org');
  await bed.store.orgs.create({ id: OTHER, title: 'Other' });
  them = await bed.person('Them', 'admin', OTHER);
  spaceId = await space(bed.organizationId, 'Guide', [
    ['phome', ''],
    ['pinstall', 'install'],
  ]);
  secondId = await space(bed.organizationId, 'API', [['papi', 'reference']]);
  const site = await bed.request(bed.service, 'POST', `/v1/orgs/${bed.organizationId}/sites`, { title: 'Docs', spaces: [spaceId] });
  basename = site.body.basename;
  await bed.request(bed.service, 'POST', `/v1/orgs/${bed.organizationId}/sites/${site.body.id}/site-spaces`, { spaceId: secondId, path: 'api' });
  expect((await bed.request(bed.service, 'PUT', '/v1/custom-hostnames/docs.urls.example', { site: site.body.id })).status).toBe(201);
});

afterAll(async () => {
  await bed?.close();
});

describe('URL resolution (issue 33)', () => {
  it('a published site URL, a custom hostname URL and an app URL resolve to their space and page', async () => {
    const cases: Array<[string, string, string | undefined]> = [
      [`http://127.0.0.1:9/sites/${basename}/install/`, spaceId, 'pinstall'],
      [`http://127.0.0.1:9/sites/${basename}/`, spaceId, 'phome'],
      [`http://127.0.0.1:9/sites/${basename}/api/reference`, secondId, 'papi'],
      ['https://docs.urls.example/install', spaceId, 'pinstall'],
      ['https://docs.urls.example/api/reference/', secondId, 'papi'],
      [`http://127.0.0.1:9/app/s/${spaceId}/install`, spaceId, 'pinstall'],
    ];
    for (const [url, space, page] of cases) {
      const res = await resolve(url);
      expect(res.status, `${url}: ${JSON.stringify(res.body).slice(0, 300)}`).toBe(200);
      assertContract('GET', '/v1/urls/content', 200, res.body);
      expect([res.body.space.id, res.body.page?.id], url).toEqual([space, page]);
    }
  });

  it('another organization’s URL, a missing page and a bad URL answer as nothing there', async () => {
    const theirs = await space(OTHER, 'Theirs', [['tsecret', 'secret']]);
    const mine = await resolve(`http://127.0.0.1:9/sites/${basename}/install/`, them);
    const foreignApp = await resolve(`http://127.0.0.1:9/app/s/${theirs}/secret`);
    const missing = await resolve(`http://127.0.0.1:9/sites/${basename}/nowhere/`);
    const unknownHost = await resolve('https://docs.nobody.example/install');
    for (const res of [mine, foreignApp, missing, unknownHost])
      expect(res).toEqual({ status: 404, body: { error: { code: 404, message: 'no content found for the URL' } } });
    expect((await resolve('javascript:alert(1)')).status).toBe(400);
    expect((await resolve('not a url')).status).toBe(400);
  });
});
