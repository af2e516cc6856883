/**
 * Issue 33: custom hostnames (`/v1/custom-hostnames/{hostname}`): pointed at a site of the caller's organization
 * (PUT, Folio's own), read and removed as the spec says; a hostname is validated and unique across organizations,
 * and one held by another organization answers exactly as a free one (GET 404, DELETE 204; PUT 409 naming nothing of
 * the holder). The published site is served at the root of its hostname.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishSite } from '../../src/publish/build.js';
import { renderPageBody } from '../../src/publish/render/index.js';
import { startApiBed, type ApiBed, type Person } from '../helpers/api-bed.js';
import { testLogger } from '../helpers/logger.js';
import { assertContract } from '../helpers/openapi-contract.js';

let bed: ApiBed;
let site: { id: string; basename: string };
let theirSite: string;
let them: Person;
let reader: Person;
const encoder = new TextEncoder();
const OTHER = 'hostname-other';

async function call(who: Person, method: string, path: string, body?: unknown, status = 200): Promise<any> {
  const res = await bed.request(who, method, path, body);
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)?.slice(0, 400)}`).toBe(status);
  if (status < 300 && res.body !== undefined && method !== 'PUT') assertContract(method, path, status, res.body);
  return res.body;
}

beforeAll(async () => {
  bed = await startApiBed('hostname-org');
  await bed.store.orgs.create({ id: OTHER, title: 'Other' });
  them = await bed.person('Them', 'admin', OTHER);
  reader = await bed.person('Reader', 'read');
  const space = await bed.store.spaces.create(bed.organizationId, { title: 'Guide' });
  const revision = await bed.store.revisions.create({
    spaceId: space.id,
    parents: [],
    type: 'edits',
    pages: [{ id: 'phome', kind: 'document', title: 'Home', slug: 'home', path: '', body: encoder.encode('# Home\n\nOn my own host.\n') }],
    files: [],
  });
  await bed.store.spaces.setPrimaryRevision(space.id, revision.id);
  site = await call(bed.service, 'POST', `/v1/orgs/${bed.organizationId}/sites`, { title: 'Hosted', spaces: [space.id] }, 201);
  theirSite = (await call(them, 'POST', `/v1/orgs/${OTHER}/sites`, { title: 'Theirs' }, 201)).id;
  await bed.store.sites.update(bed.organizationId, site.id, { published: true });
  await publishSite(
    { store: bed.store, render: async (input) => renderPageBody(input), logger: testLogger('publish') },
    { organizationId: bed.organizationId, siteId: site.id, requestKey: 'one' },
  );
});

afterAll(async () => {
  await bed?.close();
});

describe('custom hostnames (issue 33)', () => {
  it('points a hostname at a site, reads it in the official shape, moves it, removes it', async () => {
    const created = await call(bed.service, 'PUT', '/v1/custom-hostnames/docs.acme.example', { site: site.id }, 201);
    assertContract('GET', '/v1/custom-hostnames/docs.acme.example', 200, created);
    expect(created).toMatchObject({ object: 'custom-hostname', hostname: 'docs.acme.example', target: { type: 'site', site: site.id }, isActive: true });
    expect(await call(bed.service, 'GET', '/v1/custom-hostnames/docs.acme.example')).toEqual(created);
    expect(await call(reader, 'GET', '/v1/custom-hostnames/docs.acme.example')).toEqual(created);
    expect((await bed.request(reader, 'PUT', '/v1/custom-hostnames/other.acme.example', { site: site.id })).status).toBe(403);
    await call(bed.service, 'PUT', '/v1/custom-hostnames/docs.acme.example', { site: site.id }, 200);
    await call(bed.service, 'PUT', '/v1/custom-hostnames/gone.acme.example', { site: site.id }, 201);
    await call(bed.service, 'DELETE', '/v1/custom-hostnames/gone.acme.example', undefined, 205);
    await call(bed.service, 'DELETE', '/v1/custom-hostnames/gone.acme.example', undefined, 204);
    expect((await bed.request(bed.service, 'GET', '/v1/custom-hostnames/gone.acme.example')).status).toBe(404);
  });

  it('validates the hostname and the site', async () => {
    for (const host of ['localhost', 'acme.example', '127.0.0.1', '10.0.0.1.5', 'bad_host.acme.example', '-x.acme.example', `${'a'.repeat(64)}.acme.example`]) {
      const res = await bed.request(bed.service, 'PUT', `/v1/custom-hostnames/${host}`, { site: site.id });
      expect(res.status, host).toBe(400);
    }
    expect((await bed.request(bed.service, 'PUT', '/v1/custom-hostnames/x.acme.example', { site: theirSite })).status).toBe(400);
  });

  it('another organization’s hostname is never revealed: GET 404 and DELETE 204 as for a free one, PUT 409 naming nothing', async () => {
    await call(them, 'PUT', '/v1/custom-hostnames/docs.theirs.example', { site: theirSite }, 201);
    const foreign = await bed.request(bed.service, 'GET', '/v1/custom-hostnames/docs.theirs.example');
    const free = await bed.request(bed.service, 'GET', '/v1/custom-hostnames/docs.nobody.example');
    expect([foreign.status, free.status]).toEqual([404, 404]);
    expect(foreign.body.error.message.replace('theirs', 'X')).toBe(free.body.error.message.replace('nobody', 'X'));
    expect((await bed.request(bed.service, 'DELETE', '/v1/custom-hostnames/docs.theirs.example')).status).toBe(204);
    const taken = await bed.request(bed.service, 'PUT', '/v1/custom-hostnames/docs.theirs.example', { site: site.id });
    expect(taken.status).toBe(409);
    expect(JSON.stringify(taken.body)).not.toMatch(new RegExp(`${OTHER}|${theirSite}|Theirs`));
    // Still theirs, untouched.
    expect((await call(them, 'GET', '/v1/custom-hostnames/docs.theirs.example')).target.site).toBe(theirSite);
    // Their own organization's route: the same 404 as anything else.
    expect((await bed.request(them, 'GET', '/v1/custom-hostnames/docs.acme.example')).status).toBe(404);
  });

  it('the site is served at the root of its hostname; an unknown host is not', async () => {
    const home = await bed.app.inject({ method: 'GET', url: '/', headers: { host: 'docs.acme.example:8080' } });
    expect(home.statusCode).toBe(200);
    expect(home.body).toContain('On my own host.');
    expect((await bed.app.inject({ method: 'POST', url: '/', headers: { host: 'docs.acme.example' } })).statusCode).toBe(405);
    expect((await bed.app.inject({ method: 'GET', url: '/', headers: { host: 'docs.nobody.example' } })).statusCode).toBe(404);
    // Their hostname points at an unpublished site: nothing is served.
    expect((await bed.app.inject({ method: 'GET', url: '/', headers: { host: 'docs.theirs.example' } })).statusCode).toBe(404);
    // The API stays the API on a custom hostname.
    expect((await bed.app.inject({ method: 'GET', url: '/v1/custom-hostnames/docs.acme.example', headers: { host: 'docs.acme.example' } })).statusCode).toBe(
      401,
    );
    await call(bed.service, 'DELETE', '/v1/custom-hostnames/docs.acme.example', undefined, 205);
    expect((await bed.app.inject({ method: 'GET', url: '/', headers: { host: 'docs.acme.example' } })).statusCode).toBe(404);
  });
});
