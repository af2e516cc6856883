/**
 * A site with two sections, the first with two site spaces (versions): the publish run serves each section's
 * site spaces at the section's address (the default section at the root), every page carries the section switcher
 * (the current section marked), the pages of a section with several site spaces a version switcher, and every
 * switcher link resolves to a page of the publication. A site without sections shows neither.
 */
import { fromHtml } from 'hast-util-from-html';
import { selectAll } from 'hast-util-select';
import { toString as toText } from 'hast-util-to-string';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memoryEntry, type SourceTree } from '../../src/format/index.js';
import { publishSite } from '../../src/publish/build.js';
import { renderPageBody } from '../../src/publish/render/index.js';
import type { Store } from '../../src/store/index.js';
import { testLogger } from '../helpers/logger.js';
import { createTestStore } from '../helpers/store.js';
import { importIntoSpace } from './corpus-space.js';

let store: Store;
let org: string;

const deps = () => ({
  store,
  render: async (input: Parameters<typeof renderPageBody>[0]) => renderPageBody(input),
  logger: testLogger('publish'),
  publicUrl: 'http://127.0.0.1:1',
});

async function spaceWith(title: string, pages: Record<string, string>): Promise<string> {
  const id = (await store.spaces.create(org, { title })).id;
  const tree: SourceTree = new Map(Object.entries(pages).map(([path, text]) => [path, memoryEntry(new TextEncoder().encode(text))]));
  await importIntoSpace(store, id, tree, '');
  return id;
}

const book = (name: string) => ({
  'README.md': `# ${name} home\n\nWelcome to ${name}.\n`,
  'SUMMARY.md': `# Table of contents\n\n* [${name} home](README.md)\n* [${name} guide](guide.md)\n`,
  'guide.md': `# ${name} guide\n\nHow to use ${name}.\n`,
});

async function publishedFiles(siteId: string): Promise<Map<string, string>> {
  const site = (await store.sites.get(org, siteId))!;
  const out = new Map<string, string>();
  for (const f of await store.sites.publicationFiles(site.livePublicationId!)) {
    if (!f.path.endsWith('.html')) continue;
    out.set(f.path, new TextDecoder().decode((await store.blobs.get(f.hash))!));
  }
  return out;
}

/** A link of a page at `page` (`dir/index.html`) as a publication path. */
function resolve(page: string, href: string): string {
  const url = new URL(href, `http://site/${page}`);
  const path = decodeURIComponent(url.pathname.slice(1));
  return path === '' || path.endsWith('/') ? `${path}index.html` : path;
}

beforeAll(async () => {
  store = await createTestStore();
  org = (await store.orgs.create({ title: 'Sections publish' })).id;
}, 120_000);
afterAll(async () => store?.close());

describe('publishing a site with sections', () => {
  it('serves both sections, each page with a section switcher whose links resolve, versions where a section has several', async () => {
    const v1 = await spaceWith('Guides v1', book('Guides one'));
    const v2 = await spaceWith('Guides v2', book('Guides two'));
    const api = await spaceWith('API', book('API'));
    const site = await store.sites.create(org, { title: 'Sectioned docs', spaces: [v1, v2] });
    const apiSection = await store.siteSections.createSection(org, site.id, { spaceId: api, title: 'API reference' });
    const guides = (await store.siteSections.structure(site.id)).sections.find((s) => s.isDefault)!;
    await store.siteSections.updateSection(org, site.id, guides.id, { title: 'Guides' });
    const outcome = (await publishSite(deps(), { organizationId: org, siteId: site.id, requestKey: 'sections-1' }))!;
    expect(outcome.warnings).toEqual([]);
    const files = await publishedFiles(site.id);
    const siteSpaces = await store.sites.listSiteSpaces(site.id);
    const v2Path = siteSpaces.find((s) => s.spaceId === v2)!.path;
    // The default section's default site space at the root, its other site space at its path, the API section at its own.
    const pages: Record<string, string> = {
      'index.html': 'Guides one home',
      'guide/index.html': 'Guides one guide',
      [`${v2Path}/index.html`]: 'Guides two home',
      [`${v2Path}/guide/index.html`]: 'Guides two guide',
      [`${apiSection.path}/index.html`]: 'API home',
      [`${apiSection.path}/guide/index.html`]: 'API guide',
    };
    for (const [path, title] of Object.entries(pages)) {
      const tree = fromHtml(files.get(path) ?? '');
      expect(toText(selectAll('h1', tree)[0] ?? fromHtml('')), path).toBe(title);
      const sections = selectAll('nav.site-sections a', tree);
      expect(
        sections.map((a) => toText(a)),
        path,
      ).toEqual(['Guides', 'API reference']);
      const current = sections.filter((a) => a.properties.ariaCurrent === 'page').map((a) => toText(a));
      expect(current, path).toEqual([path.startsWith(`${apiSection.path}/`) ? 'API reference' : 'Guides']);
      const targets = sections.map((a) => resolve(path, String(a.properties.href)));
      expect(targets, path).toEqual(['index.html', `${apiSection.path}/index.html`]);
      const versions = selectAll('nav.site-variants a', tree);
      if (path.startsWith(`${apiSection.path}/`)) expect(versions, path).toEqual([]);
      else {
        expect(
          versions.map((a) => toText(a)),
          path,
        ).toEqual(['Guides v1', 'Guides v2']);
        expect(versions.map((a) => resolve(path, String(a.properties.href)))).toEqual(['index.html', `${v2Path}/index.html`]);
        expect(versions.filter((a) => a.properties.ariaCurrent === 'page').map((a) => toText(a))).toEqual([
          path.startsWith(`${v2Path}/`) ? 'Guides v2' : 'Guides v1',
        ]);
      }
      for (const target of [...targets]) expect(files.has(target), `${path} → ${target}`).toBe(true);
    }
    // The search page's frame carries the switcher too, nothing current.
    const shell = fromHtml(files.get('~search.html')!);
    expect(selectAll('nav.site-sections a', shell).map((a) => resolve('~search.html', String(a.properties.href)))).toEqual([
      'index.html',
      `${apiSection.path}/index.html`,
    ]);
    // The frozen structure carries each site space's address (the search page resolves hits with it).
    const publication = (await store.sites.publication(site.id, outcome.publicationId))!;
    expect(Object.fromEntries(publication.structure.siteSpaces.map((s) => [s.spaceId, s.prefix]))).toEqual({
      [v1]: '',
      [v2]: `${v2Path}/`,
      [api]: `${apiSection.path}/`,
    });
  }, 120_000);

  it('a group of sections is a disclosure, open on the pages of its sections; a site without sections has no switcher', async () => {
    const a = await spaceWith('Alpha', book('Alpha'));
    const b = await spaceWith('Beta', book('Beta'));
    const site = await store.sites.create(org, { title: 'Grouped docs' });
    const first = await store.siteSections.createSection(org, site.id, { spaceId: a, title: 'Alpha' });
    const second = await store.siteSections.createSection(org, site.id, { spaceId: b, title: 'Beta' });
    await store.siteSections.createGroup(org, site.id, { title: 'Products', sections: [second.id] });
    await publishSite(deps(), { organizationId: org, siteId: site.id, requestKey: 'grouped-1' });
    const files = await publishedFiles(site.id);
    const home = fromHtml(files.get('index.html')!);
    expect(selectAll('nav.site-sections details', home).map((d) => d.properties.open ?? false)).toEqual([false]);
    const beta = fromHtml(files.get(`${second.path}/guide/index.html`)!);
    expect(selectAll('nav.site-sections details', beta).map((d) => d.properties.open)).toEqual([true]);
    expect(toText(selectAll('nav.site-sections details summary', beta)[0]!)).toBe('Products');
    expect(
      selectAll('nav.site-sections details a[aria-current=page]', beta).map((n) => resolve(`${second.path}/guide/index.html`, String(n.properties.href))),
    ).toEqual([`${second.path}/index.html`]);
    expect(first.isDefault).toBe(true);

    const plain = await store.sites.create(org, { title: 'Plain docs', spaces: [await spaceWith('Plain', book('Plain'))] });
    await publishSite(deps(), { organizationId: org, siteId: plain.id, requestKey: 'plain-1' });
    const plainFiles = await publishedFiles(plain.id);
    expect([...plainFiles.values()].some((html) => html.includes('site-sections') || html.includes('site-variants'))).toBe(false);
  }, 120_000);
});
