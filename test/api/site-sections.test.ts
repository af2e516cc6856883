/**
 * The site-section routes on the API bed: an editor (the `create` role on the organization) creates, patches,
 * moves and deletes sections and groups, a reader lists them but changes nothing (403), another organization's
 * member gets 404 for the site, its sections and its groups; unknown members and limits are 400s that name them;
 * a site space added with `sectionId` belongs to that section, and the site's default section moves with
 * `defaultSiteSection`.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiBed, type ApiBed, type Person } from '../helpers/api-bed.js';
import { assertSchema } from '../helpers/openapi-contract.js';

let bed: ApiBed;
let editor: Person;
let reader: Person;
let outsider: Person;
let base: string;

beforeAll(async () => {
  bed = await startApiBed('sections-org');
  await bed.store.orgs.create({ id: 'sections-other', title: 'Other' });
  editor = await bed.person('editor', 'create');
  reader = await bed.person('reader', 'read');
  outsider = await bed.person('outsider', 'admin', 'sections-other');
  const space = (await bed.store.spaces.create(bed.organizationId, { title: 'Guides' })).id;
  const site = await bed.request(editor, 'POST', `/v1/orgs/${bed.organizationId}/sites`, { title: 'Docs', spaces: [space] });
  expect(site.status, JSON.stringify(site.body)).toBe(201);
  base = `/v1/orgs/${bed.organizationId}/sites/${site.body.id}`;
}, 120_000);
afterAll(async () => bed?.close());

const newSpace = async (title: string) => (await bed.store.spaces.create(bed.organizationId, { title })).id;

describe('site sections over the API', () => {
  it('an editor builds sections and groups; SiteSpace bodies carry their section; the default section moves', async () => {
    const created = await bed.request(editor, 'POST', `${base}/sections`, { spaceId: await newSpace('API'), title: 'API reference' });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    assertSchema('SiteSection', created.body);
    expect(created.body).toMatchObject({
      object: 'site-section',
      title: 'API reference',
      default: false,
      path: 'api-reference',
      siteSpaces: [{ title: 'API' }],
    });
    const listed = await bed.request(reader, 'GET', `${base}/sections`);
    expect(listed.body.items.map((s: { title: string; default: boolean }) => [s.title, s.default])).toEqual([
      ['Guides', true],
      ['API reference', false],
    ]);
    const guides = listed.body.items[0].id as string;
    // null removes a condition, an icon, a description; absent leaves them.
    const described = await bed.request(editor, 'PATCH', `${base}/sections/${created.body.id}`, { condition: 'visitor.claims.beta', description: 'All of it' });
    expect(described.body).toMatchObject({ condition: 'visitor.claims.beta', description: 'All of it' });
    const cleared = await bed.request(editor, 'PATCH', `${base}/sections/${created.body.id}`, { condition: null, icon: null });
    expect(cleared.status, JSON.stringify(cleared.body)).toBe(200);
    expect([cleared.body.condition, cleared.body.description]).toEqual([undefined, 'All of it']);
    // A site space into a section; without sectionId, into the default section.
    const v2 = await bed.request(editor, 'POST', `${base}/site-spaces`, { spaceId: await newSpace('API v2'), sectionId: created.body.id });
    expect(v2.status, JSON.stringify(v2.body)).toBe(201);
    expect(v2.body.section).toBe(created.body.id);
    const plain = await bed.request(editor, 'POST', `${base}/site-spaces`, { spaceId: await newSpace('Guides v2') });
    expect(plain.body.section).toBe(guides);
    const all = await bed.request(reader, 'GET', `${base}/site-spaces`);
    expect(all.body.items.every((s: { section?: string }) => s.section === guides || s.section === created.body.id)).toBe(true);
    // The default section moves: the site's default site space with it.
    const patched = await bed.request(editor, 'PATCH', base, { defaultSiteSection: created.body.id });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    const defaults = await bed.request(reader, 'GET', `${base}/site-spaces?default=true`);
    expect(defaults.body.items.map((s: { section: string }) => s.section)).toEqual([created.body.id]);
    expect((await bed.request(editor, 'PATCH', base, { defaultSiteSection: 'nope' })).status).toBe(400);
    // Groups: created with a section, moved, patched; the section names its group.
    const group = await bed.request(editor, 'POST', `${base}/section-groups`, { title: 'Products', sections: [created.body.id] });
    expect(group.status, JSON.stringify(group.body)).toBe(201);
    assertSchema('SiteSectionGroup', group.body);
    expect(group.body.sections.map((s: { id: string }) => s.id)).toEqual([created.body.id]);
    expect((await bed.request(reader, 'GET', `${base}/sections`)).body.items[1].sectionGroup).toBe(group.body.id);
    const moved = await bed.request(editor, 'POST', `${base}/section-groups/${group.body.id}/move`, {
      position: { before: { type: 'site-section', id: guides } },
    });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const structure = await bed.request(reader, 'GET', `${base}/structure`);
    expect(structure.body.type).toBe('sections');
    expect(structure.body.structure.map((e: { object: string; title: string }) => `${e.object}:${e.title}`)).toEqual([
      'site-section-group:Products',
      'site-section:Guides',
    ]);
    // Deleting the group keeps its section; deleting a section takes its site spaces.
    expect((await bed.request(editor, 'DELETE', `${base}/section-groups/${group.body.id}`)).status).toBe(205);
    expect((await bed.request(reader, 'GET', `${base}/sections`)).body.items).toHaveLength(2);
    expect((await bed.request(editor, 'DELETE', `${base}/sections/${created.body.id}`)).status).toBe(205);
    expect((await bed.request(editor, 'DELETE', `${base}/sections/${created.body.id}`)).status).toBe(204);
    const left = await bed.request(reader, 'GET', `${base}/site-spaces`);
    expect(left.body.items.map((s: { section: string }) => s.section)).toEqual([guides, guides]);
    expect((await bed.request(reader, 'GET', `${base}/sections`)).body.items.map((s: { default: boolean }) => s.default)).toEqual([true]);
  });

  it('refuses unknown members and limits with a 400 that names them', async () => {
    const section = (await bed.request(reader, 'GET', `${base}/sections`)).body.items[0].id as string;
    const cases: Array<[string, string, unknown, RegExp]> = [
      ['POST', `${base}/sections`, { spaceId: 'x', colour: 'red' }, /unknown member "colour"/],
      ['POST', `${base}/sections`, { spaceId: 'x', title: 't'.repeat(129) }, /title/],
      ['POST', `${base}/sections`, { spaceId: null }, /create it first/],
      ['PATCH', `${base}/sections/${section}`, { title: 'x' }, /title/],
      ['PATCH', `${base}/sections/${section}`, { description: 'd'.repeat(257) }, /description/],
      ['PATCH', `${base}/sections/${section}`, { condition: 'c'.repeat(1025) }, /condition/],
      ['PATCH', `${base}/sections/${section}`, { path: '../up' }, /path/],
      ['PATCH', `${base}/sections/${section}`, { hidden: true }, /unknown member "hidden"/],
      ['POST', `${base}/sections/${section}/move`, { position: { before: { type: 'site-space', siteSection: section } } }, /type/],
      ['POST', `${base}/sections/${section}/move`, { position: { before: { type: 'site-section', siteSection: section } } }, /next to itself/],
      ['POST', `${base}/section-groups`, { title: '' }, /title/],
      ['POST', `${base}/section-groups`, { title: 'G', parent: 'x' }, /unknown member "parent"/],
      ['POST', `${base}/section-groups`, { title: 'G', sections: Array.from({ length: 101 }, (_, i) => `s${i}`) }, /sections/],
      ['POST', `${base}/site-spaces`, { spaceId: 'x', section: 'y' }, /unknown member "section"/],
    ];
    for (const [method, path, body, message] of cases) {
      const res = await bed.request(editor, method, path, body);
      expect(res.status, `${method} ${path} ${JSON.stringify(body).slice(0, 80)}: ${JSON.stringify(res.body)}`).toBe(400);
      expect(res.body.error.message).toMatch(message);
    }
    expect(
      (await bed.request(editor, 'POST', `${base}/sections/${section}/move`, { position: { after: { type: 'site-section', siteSection: 'nope' } } })).status,
    ).toBe(404);
  });

  it('a reader changes nothing (403); another organization gets 404 for the site, its sections and its groups', async () => {
    const section = (await bed.request(reader, 'GET', `${base}/sections`)).body.items[0].id as string;
    const group = (await bed.request(editor, 'POST', `${base}/section-groups`, { title: 'Kept' })).body.id as string;
    const writes: Array<[string, string, unknown]> = [
      ['POST', `${base}/sections`, { spaceId: await newSpace('Nope') }],
      ['PATCH', `${base}/sections/${section}`, { title: 'Renamed' }],
      ['DELETE', `${base}/sections/${section}`, undefined],
      ['POST', `${base}/sections/${section}/move`, {}],
      ['POST', `${base}/section-groups`, { title: 'New' }],
      ['PATCH', `${base}/section-groups/${group}`, { title: 'Renamed' }],
      ['DELETE', `${base}/section-groups/${group}`, undefined],
      ['POST', `${base}/section-groups/${group}/sections`, { sectionId: section }],
      ['DELETE', `${base}/section-groups/${group}/sections/${section}`, undefined],
      ['POST', `${base}/section-groups/${group}/move`, {}],
    ];
    for (const [method, path, body] of writes) expect((await bed.request(reader, method, path, body)).status, `${method} ${path}`).toBe(403);
    for (const [method, path, body] of [...writes, ['GET', `${base}/sections`, undefined] as const, ['GET', `${base}/section-groups`, undefined] as const])
      expect((await bed.request(outsider, method, path, body)).status, `${method} ${path}`).toBe(404);
    // Through the outsider's own organization's path too: the site is not theirs.
    const theirs = base.replace(bed.organizationId, 'sections-other');
    expect((await bed.request(outsider, 'PATCH', `${theirs}/sections/${section}`, { title: 'Taken' })).status).toBe(404);
    expect((await bed.request(outsider, 'GET', `${theirs}/section-groups`)).status).toBe(404);
    const after = await bed.request(reader, 'GET', `${base}/sections`);
    expect(after.body.items.map((s: { title: string }) => s.title)).toEqual(['Guides']);
    expect((await bed.request(reader, 'GET', `${base}/section-groups`)).body.items.map((g: { title: string }) => g.title)).toEqual(['Kept']);
  });
});
