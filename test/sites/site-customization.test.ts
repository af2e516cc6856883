/**
 * Issue 33: a site's customization in the official shapes (GET/PUT of the site's, GET/PATCH of a site space's
 * overrides), validated (colours as hex, fonts of the spec's enum, logos over https, header links only to http,
 * https, mailto, relative addresses or pages), and used by the published site: the logo in the header, the primary
 * colour and the tint as CSS custom properties of a stylesheet of its own, the font, the header links; a change of
 * it re-renders the pages.
 */
import { fromHtml } from 'hast-util-from-html';
import { selectAll } from 'hast-util-select';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishSite } from '../../src/publish/build.js';
import { renderPageBody } from '../../src/publish/render/index.js';
import { startApiBed, type ApiBed } from '../helpers/api-bed.js';
import { testLogger } from '../helpers/logger.js';
import { assertContract } from '../helpers/openapi-contract.js';

let bed: ApiBed;
let site: { id: string; basename: string };
let siteSpace: string;
let base: string;
const encoder = new TextEncoder();

async function call(method: string, path: string, body?: unknown, status = 200): Promise<any> {
  const res = await bed.request(bed.service, method, path, body);
  expect(res.status, `${method} ${path}: ${JSON.stringify(res.body)?.slice(0, 400)}`).toBe(status);
  if (status < 300) assertContract(method, path, status, res.body);
  return res.body;
}

async function publish(key: string) {
  return (await publishSite(
    { store: bed.store, render: async (input) => renderPageBody(input), logger: testLogger('publish') },
    { organizationId: bed.organizationId, siteId: site.id, requestKey: key },
  ))!;
}

async function served(path: string): Promise<{ status: number; body: string; type: string }> {
  const res = await bed.app.inject({ method: 'GET', url: `/sites/${site.basename}/${path}` });
  return { status: res.statusCode, body: res.body, type: String(res.headers['content-type']) };
}

beforeAll(async () => {
  bed = await startApiBed('custom-org');
  const space = await bed.store.spaces.create(bed.organizationId, { title: 'Guide' });
  const revision = await bed.store.revisions.create({
    spaceId: space.id,
    parents: [],
    type: 'edits',
    pages: [
      { id: 'phome', kind: 'document', title: 'Home', slug: 'home', path: '', body: encoder.encode('# Home\n\nWelcome.\n') },
      { id: 'pstart', kind: 'document', title: 'Start', slug: 'start', path: 'start', body: encoder.encode('# Start\n\nBegin.\n') },
    ],
    files: [],
  });
  await bed.store.spaces.setPrimaryRevision(space.id, revision.id);
  site = await call('POST', `/v1/orgs/${bed.organizationId}/sites`, { title: 'Custom docs', spaces: [space.id] }, 201);
  siteSpace = (await call('GET', `/v1/orgs/${bed.organizationId}/sites/${site.id}/site-spaces`)).items[0].id;
  await bed.store.sites.update(bed.organizationId, site.id, { published: true });
  base = `/v1/orgs/${bed.organizationId}/sites/${site.id}`;
});

afterAll(async () => {
  await bed?.close();
});

describe('site customization (issue 33)', () => {
  it('answers the defaults, then what was PUT (members left out take their default), strictly in the official shape', async () => {
    const before = await call('GET', `${base}/customization`);
    expect(before.styling.primaryColor).toEqual({ light: '#2251d1', dark: '#8aa8ff' });
    expect(before.updatedAt).toBeUndefined();
    const put = await call('PUT', `${base}/customization`, {
      title: 'Acme Docs',
      styling: { primaryColor: { light: '#aa0000', dark: '#ff8888' }, tint: { color: { light: '#00aa00', dark: '#88ff88' } }, font: 'Merriweather' },
      header: {
        preset: 'default',
        logo: { light: 'https://cdn.example.com/logo.svg', dark: 'https://cdn.example.com/logo-dark.svg' },
        links: [
          { title: 'Home site', to: { kind: 'url', url: 'https://acme.example.com/' }, links: [] },
          { title: 'Start here', to: { kind: 'page', page: 'pstart' }, links: [] },
          { title: 'More', to: null, links: [{ title: 'Write to us', to: { kind: 'url', url: 'mailto:docs@acme.example.com' } }] },
        ],
      },
    });
    expect(put.styling.font).toBe('Merriweather');
    expect(put.styling.corners).toBe('rounded');
    expect(put.updatedAt).toEqual(expect.any(String));
    expect(await call('GET', `${base}/customization`)).toEqual(put);
  });

  it('refuses what is not valid or not publishable with a 400 naming it, and keeps the stored one', async () => {
    const stored = await call('GET', `${base}/customization`);
    const bad = [
      { styling: { primaryColor: { light: 'red', dark: '#000' } } },
      { styling: { primaryColor: { light: '#aa0000', dark: '#000;}body{display:none' } } },
      { styling: { font: 'Comic Sans' } },
      { styling: { font: { id: 'x', custom: true, fontFamily: 'X', fontFaces: [{ weight: 400, sources: [{ url: 'https://x.example/x.woff2' }] }] } } },
      { header: { preset: 'default', links: [{ title: 'Evil', to: { kind: 'url', url: 'javascript:alert(1)' }, links: [] }] } },
      { header: { preset: 'default', links: [{ title: 'Data', to: null, links: [{ title: 'x', to: { kind: 'url', url: 'data:text/html,hi' } }] }] } },
      { header: { preset: 'default', links: [], logo: { light: 'http://cdn.example.com/a.png', dark: 'https://cdn.example.com/b.png' } } },
      { header: { preset: 'default', links: [], logo: { light: 'javascript:alert(1)', dark: 'https://cdn.example.com/b.png' } } },
      { adaptive: true },
    ];
    for (const body of bad) {
      const res = await bed.request(bed.service, 'PUT', `${base}/customization`, body);
      expect(res.status, JSON.stringify(body)).toBe(400);
      expect(res.body.error.message, JSON.stringify(body)).toEqual(expect.any(String));
    }
    expect(await call('GET', `${base}/customization`)).toEqual(stored);
  });

  it('a site space overrides members (null clears the override); GET gives the effective settings', async () => {
    const path = `${base}/site-spaces/${siteSpace}/customization`;
    expect((await call('GET', path)).styling.primaryColor.light).toBe('#aa0000');
    const patched = await call('PATCH', path, { styling: { primaryColor: { light: '#123456', dark: '#654321' } } });
    expect(patched.styling.primaryColor).toEqual({ light: '#123456', dark: '#654321' });
    expect(patched.styling.font).toBe('Merriweather');
    expect((await call('GET', path)).styling.primaryColor.light).toBe('#123456');
    const cleared = await call('PATCH', path, { styling: { primaryColor: null } });
    expect(cleared.styling.primaryColor.light).toBe('#aa0000');
    expect((await bed.request(bed.service, 'PATCH', path, { styling: { tint: { color: { light: 'blue', dark: '#000' } } } })).status).toBe(400);
    expect((await bed.request(bed.service, 'GET', `${base}/site-spaces/unknown/customization`)).status).toBe(404);
  });

  it('the published site shows it: logo, colours and font in a stylesheet of their own, header links; a change re-renders', async () => {
    const first = await publish('one');
    const home = await served('');
    expect(home.status).toBe(200);
    const tree = fromHtml(home.body);
    const logo = selectAll('header .site-title img.site-logo', tree)[0]!;
    expect(logo.properties.src).toBe('https://cdn.example.com/logo.svg');
    expect(logo.properties.alt).toBe('Acme Docs');
    expect(selectAll('header source', tree)[0]!.properties.srcSet).toBe('https://cdn.example.com/logo-dark.svg');
    const links = selectAll('header nav.header-links a', tree).map((a) => [a.properties.href, (a.children[0] as { value: string }).value]);
    expect(links).toEqual([
      ['https://acme.example.com/', 'Home site'],
      ['start/', 'Start here'],
      ['mailto:docs@acme.example.com', 'Write to us'],
    ]);
    const sheets = selectAll('link[rel=stylesheet]', tree).map((l) => String(l.properties.href));
    const theme = sheets.find((h) => h.startsWith('_static/theme.'))!;
    expect(theme).toBeDefined();
    const css = await served(theme);
    expect(css.type).toMatch(/^text\/css/);
    expect(css.body).toContain(':root{--accent:#aa0000;--tint:#00aa00}');
    expect(css.body).toContain('--accent:#ff8888');
    expect(css.body).toContain('"Merriweather"');
    expect(home.body).not.toMatch(/style="/);
    expect(first.rendered).toBe(2);

    // Unchanged: every page reused. Changed: every page rendered again, with the new colour.
    expect((await publish('two')).reused).toBe(2);
    await call('PUT', `${base}/customization`, { styling: { primaryColor: { light: '#0000aa', dark: '#8888ff' } } });
    const third = await publish('three');
    expect(third.rendered).toBe(2);
    const after = fromHtml((await served('start/')).body);
    expect(selectAll('header img.site-logo', after)).toHaveLength(0);
    const sheet = selectAll('link[rel=stylesheet]', after)
      .map((l) => String(l.properties.href))
      .find((h) => h.includes('theme.'))!;
    expect((await served(sheet.replace(/^(\.\.\/)+/, ''))).body).toContain('--accent:#0000aa');
    // The published profile gives the customization the site renders with, for the site and each site space.
    const published = await call('GET', `${base}/published`);
    expect(published.customizations.site.styling.primaryColor).toEqual({ light: '#0000aa', dark: '#8888ff' });
    expect(published.customizations.siteSpaces[siteSpace].styling.primaryColor.light).toBe('#0000aa');
  });
});
