/**
 * Site sections and section groups in the store: the first section adopts the site's site spaces into a default
 * section, new site spaces go to the default section, the site's default follows the default section's, moves
 * reorder sections and groups, deleting a section takes its site spaces and deleting a group keeps its sections;
 * another organization's site and another site's sections are not found; limits are validation errors.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConflictError, NotFoundError, ValidationError } from '../../src/errors.js';
import type { Store } from '../../src/store/index.js';
import { siteStructureTree } from '../../src/store/index.js';
import { createTestStore } from '../helpers/store.js';

describe('site sections in the store', () => {
  let store: Store;
  let org: string;
  let other: string;
  beforeAll(async () => {
    store = await createTestStore();
    org = (await store.orgs.create({ title: 'Sections org' })).id;
    other = (await store.orgs.create({ title: 'Other org' })).id;
  });
  afterAll(async () => store.close());

  const space = async (title: string, o = org) => (await store.spaces.create(o, { title })).id;
  /** The tree: `[Group: A, B]` for a group, the title for a section of the top level. */
  const order = async (siteId: string) => {
    const s = await store.siteSections.structure(siteId);
    return siteStructureTree(s.sections, s.groups).map((e) =>
      e.kind === 'section' ? e.section.title : `[${e.group.title}: ${e.sections.map((x) => x.title).join(', ')}]`,
    );
  };

  it('the first section adopts the existing site spaces into a default section; new site spaces go to the default section', async () => {
    const guides = await space('Guides');
    const site = await store.sites.create(org, { title: 'Sectioned', spaces: [guides] });
    const [root] = await store.sites.listSiteSpaces(site.id);
    expect(root!.sectionId).toBeNull();
    const api = await store.siteSections.createSection(org, site.id, { spaceId: await space('API reference'), title: 'API' });
    const { sections } = await store.siteSections.structure(site.id);
    expect(sections.map((s) => [s.title, s.path, s.isDefault])).toEqual([
      ['Guides', 'guides-2', true],
      ['API', 'api', false],
    ]);
    expect(sections[0]!.defaultSiteSpaceId).toBe(root!.id);
    expect(api.defaultSiteSpaceId).not.toBeNull();
    const all = await store.sites.listSiteSpaces(site.id);
    expect(all.map((s) => s.sectionId)).toEqual([sections[0]!.id, api.id]);
    // Without sectionId, the default section; with it, that section; a section of another site is not found.
    const v2 = await store.sites.addSiteSpace(org, site.id, { spaceId: await space('Guides v2') });
    expect(v2.sectionId).toBe(sections[0]!.id);
    const apiV2 = await store.sites.addSiteSpace(org, site.id, { spaceId: await space('API v2'), sectionId: api.id });
    expect(apiV2.sectionId).toBe(api.id);
    const elsewhere = await store.sites.create(org, { title: 'Elsewhere' });
    await expect(store.sites.addSiteSpace(org, elsewhere.id, { spaceId: await space('X'), sectionId: api.id })).rejects.toBeInstanceOf(NotFoundError);
    // The site's default follows the default section's default site space.
    await store.siteSections.updateSection(org, site.id, api.id, { defaultSiteSpaceId: apiV2.id });
    await store.siteSections.setDefaultSection(org, site.id, api.id);
    expect((await store.sites.get(org, site.id))!.defaultSiteSpaceId).toBe(apiV2.id);
    await expect(store.siteSections.updateSection(org, site.id, api.id, { defaultSiteSpaceId: v2.id })).rejects.toBeInstanceOf(ValidationError);
    // Deleting the site's default site space: the next one of the default section becomes the site's default.
    const apiV3 = await store.sites.addSiteSpace(org, site.id, { spaceId: await space('API v3'), sectionId: api.id });
    expect(await store.sites.deleteSiteSpace(org, site.id, apiV2.id)).toBe(true);
    const after = (await store.siteSections.structure(site.id)).sections.find((s) => s.id === api.id)!;
    expect(after.defaultSiteSpaceId).not.toBe(apiV2.id);
    expect((await store.sites.get(org, site.id))!.defaultSiteSpaceId).toBe(after.defaultSiteSpaceId);
    expect([api.defaultSiteSpaceId, apiV3.id]).toContain(after.defaultSiteSpaceId);
  });

  it('refuses limits and taken paths, and answers not found across organizations and sites', async () => {
    const site = await store.sites.create(org, { title: 'Limits' });
    const s = await store.siteSections.createSection(org, site.id, { spaceId: await space('First') });
    expect(s.isDefault).toBe(true);
    await expect(store.siteSections.updateSection(org, site.id, s.id, { title: 'x' })).rejects.toBeInstanceOf(ValidationError);
    await expect(store.siteSections.updateSection(org, site.id, s.id, { description: 'd'.repeat(257) })).rejects.toBeInstanceOf(ValidationError);
    await expect(store.siteSections.updateSection(org, site.id, s.id, { condition: 'c'.repeat(1025) })).rejects.toBeInstanceOf(ValidationError);
    await expect(store.siteSections.updateSection(org, site.id, s.id, { path: '../x' })).rejects.toBeInstanceOf(ValidationError);
    const [ss] = await store.sites.listSiteSpaces(site.id);
    await expect(store.siteSections.updateSection(org, site.id, s.id, { path: ss!.path })).rejects.toBeInstanceOf(ConflictError);
    const t = await store.siteSections.createSection(org, site.id, { spaceId: await space('Second') });
    // Section and site space paths share one namespace: a site space cannot take a section's path either.
    await expect(store.sites.updateSiteSpace(org, site.id, ss!.id, { path: t.path })).rejects.toBeInstanceOf(ConflictError);
    await expect(store.sites.addSiteSpace(org, site.id, { spaceId: await space('Third'), path: t.path })).rejects.toBeInstanceOf(ConflictError);
    await expect(store.siteSections.updateSection(org, site.id, t.id, { path: s.path })).rejects.toBeInstanceOf(ConflictError);
    await expect(store.siteSections.createGroup(org, site.id, { title: '' })).rejects.toBeInstanceOf(ValidationError);
    // Another organization: its site is not found, nor is a space of another organization.
    await expect(store.siteSections.updateSection(other, site.id, s.id, { title: 'Taken' })).rejects.toBeInstanceOf(NotFoundError);
    await expect(store.siteSections.deleteSection(other, site.id, s.id)).rejects.toBeInstanceOf(NotFoundError);
    await expect(store.siteSections.createSection(org, site.id, { spaceId: await space('Theirs', other) })).rejects.toBeInstanceOf(NotFoundError);
    const theirSite = await store.sites.create(other, { title: 'Theirs' });
    await expect(store.siteSections.updateSection(other, theirSite.id, s.id, { title: 'Taken' })).rejects.toBeInstanceOf(NotFoundError);
    expect((await store.siteSections.structure(site.id)).sections.map((x) => x.title)).toEqual(['First', 'Second']);
  });

  it('moves sections and groups, deletes a group keeping its sections and a section with its site spaces', async () => {
    const site = await store.sites.create(org, { title: 'Moves' });
    const a = await store.siteSections.createSection(org, site.id, { spaceId: await space('Alpha') });
    const b = await store.siteSections.createSection(org, site.id, { spaceId: await space('Beta') });
    const c = await store.siteSections.createSection(org, site.id, { spaceId: await space('Gamma') });
    await store.siteSections.moveSection(org, site.id, c.id, { before: { type: 'site-section', id: a.id } });
    expect(await order(site.id)).toEqual(['Gamma', 'Alpha', 'Beta']);
    const g = await store.siteSections.createGroup(org, site.id, { title: 'Products', sections: [b.id] });
    await store.siteSections.moveGroup(org, site.id, g.id, { before: { type: 'site-section', id: c.id } });
    expect(await order(site.id)).toEqual(['[Products: Beta]', 'Gamma', 'Alpha']);
    // Next to a grouped section, a section joins the group; removed from it, it lands right after the group.
    const moved = await store.siteSections.moveSection(org, site.id, a.id, { after: { type: 'site-section', id: b.id } });
    expect(moved.groupId).toBe(g.id);
    expect(await order(site.id)).toEqual(['[Products: Beta, Alpha]', 'Gamma']);
    expect(await store.siteSections.removeSectionFromGroup(org, site.id, g.id, a.id)).toBe(true);
    expect(await store.siteSections.removeSectionFromGroup(org, site.id, g.id, a.id)).toBe(false);
    const after = await store.siteSections.structure(site.id);
    expect(after.sections.find((s) => s.id === a.id)!.groupId).toBeNull();
    expect(await order(site.id)).toEqual(['[Products: Beta]', 'Alpha', 'Gamma']);
    await expect(store.siteSections.moveGroup(org, site.id, g.id, { before: { type: 'site-section', id: b.id } })).rejects.toBeInstanceOf(ValidationError);
    await expect(store.siteSections.moveSection(org, site.id, a.id, { before: { type: 'site-section', id: 'nope' } })).rejects.toBeInstanceOf(NotFoundError);
    expect(await store.siteSections.deleteGroup(org, site.id, g.id)).toBe(true);
    expect((await store.siteSections.structure(site.id)).sections.every((s) => s.groupId === null)).toBe(true);
    expect(await order(site.id)).toEqual(['Beta', 'Alpha', 'Gamma']);
    await store.siteSections.moveSection(org, site.id, a.id, { before: { type: 'site-section', id: b.id } });
    expect(await order(site.id)).toEqual(['Alpha', 'Beta', 'Gamma']);
    // Deleting the default section takes its site spaces; the next section becomes the default, and the site's default with it.
    expect(await store.siteSections.deleteSection(org, site.id, a.id)).toBe(true);
    expect(await store.siteSections.deleteSection(org, site.id, a.id)).toBe(false);
    const left = await store.siteSections.structure(site.id);
    expect(left.sections.map((s) => [s.title, s.isDefault])).toEqual([
      ['Beta', true],
      ['Gamma', false],
    ]);
    const siteSpaces = await store.sites.listSiteSpaces(site.id);
    expect(siteSpaces).toHaveLength(2);
    expect((await store.sites.get(org, site.id))!.defaultSiteSpaceId).toBe(left.sections[0]!.defaultSiteSpaceId);
  });
});
