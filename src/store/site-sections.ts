import { ConflictError, NotFoundError, ValidationError } from '../errors.js';
import { newId } from './ids.js';
import { addSiteSpace, basenameFromTitle, checkSiteSpacePath, requireSite, siteSpacePathFree } from './sites.js';
import { sqlState } from './sql-helpers.js';
import type { SiteSectionGroupRecord, SiteSectionPatch, SiteSectionRecord, SiteSectionStore, SiteStructurePosition, Sql } from './types/index.js';

/** At most this many sections, and as many groups, on one site (each section is a part of every page's switcher). */
export const MAX_SITE_SECTIONS = 100;

const SECTION_COLUMNS = `s.id, s.site_id, s.section_group_id, s.title, s.description, s.icon, s.path, s.condition, s.is_default, s.position,
  COALESCE(s.default_site_space_id, (SELECT ss.id FROM site_spaces ss WHERE ss.section_id = s.id ORDER BY ss.seq LIMIT 1)) AS default_site_space_id`;

interface SectionRow {
  id: string;
  site_id: string;
  section_group_id: string | null;
  title: string;
  description: string | null;
  icon: string | null;
  path: string;
  condition: string | null;
  is_default: boolean;
  default_site_space_id: string | null;
  position: number;
}

const sectionFromRow = (r: SectionRow): SiteSectionRecord => ({
  id: r.id,
  siteId: r.site_id,
  groupId: r.section_group_id,
  title: r.title,
  description: r.description,
  icon: r.icon,
  path: r.path,
  condition: r.condition,
  isDefault: r.is_default,
  defaultSiteSpaceId: r.default_site_space_id,
  position: Number(r.position),
});

interface GroupRow {
  id: string;
  site_id: string;
  title: string;
  icon: string | null;
  position: number;
}

const groupFromRow = (r: GroupRow): SiteSectionGroupRecord => ({ id: r.id, siteId: r.site_id, title: r.title, icon: r.icon, position: Number(r.position) });

function checkText(name: string, value: unknown, min: number, max: number): string {
  if (typeof value !== 'string' || value.trim().length < min || value.length > max)
    throw new ValidationError(`${name} must be a string of ${min} to ${max} characters`);
  return value;
}

const checkSectionTitle = (t: unknown) => checkText('title', t, 2, 128);
const checkGroupTitle = (t: unknown) => checkText('title', t, 1, 100);
const checkIcon = (i: unknown) => (i === null ? null : checkText('icon', i, 1, 50));

async function sectionsOf(tx: Sql, siteId: string): Promise<SiteSectionRecord[]> {
  const rows = await tx.query<SectionRow>(`SELECT ${SECTION_COLUMNS} FROM site_sections s WHERE s.site_id = $1 ORDER BY s.position, s.seq`, [siteId]);
  return rows.map(sectionFromRow);
}

async function groupsOf(tx: Sql, siteId: string): Promise<SiteSectionGroupRecord[]> {
  const rows = await tx.query<GroupRow>('SELECT id, site_id, title, icon, position FROM site_section_groups WHERE site_id = $1 ORDER BY position, seq', [
    siteId,
  ]);
  return rows.map(groupFromRow);
}

async function requireSection(tx: Sql, siteId: string, sectionId: string): Promise<SiteSectionRecord> {
  const found = (await sectionsOf(tx, siteId)).find((s) => s.id === sectionId);
  if (!found) throw new NotFoundError('site section', sectionId);
  return found;
}

async function requireGroup(tx: Sql, siteId: string, groupId: string): Promise<SiteSectionGroupRecord> {
  const found = (await groupsOf(tx, siteId)).find((g) => g.id === groupId);
  if (!found) throw new NotFoundError('site section group', groupId);
  return found;
}

/**
 * The site's default site space follows its default section's: the API's `default` flags and the publish run's
 * root read it. A site whose sections are all gone keeps (or falls back to) one of its remaining site spaces.
 */
async function syncSiteDefault(tx: Sql, siteId: string): Promise<void> {
  const sections = await sectionsOf(tx, siteId);
  if (sections.length > 0 && !sections.some((s) => s.isDefault)) {
    await tx.query('UPDATE site_sections SET is_default = true WHERE id = $1', [sections[0]!.id]);
    sections[0]!.isDefault = true;
  }
  const target = sections.find((s) => s.isDefault)?.defaultSiteSpaceId;
  if (target) await tx.query('UPDATE sites SET default_site_space_id = $2, updated_at = now() WHERE id = $1', [siteId, target]);
  else
    await tx.query(
      `UPDATE sites SET default_site_space_id = (SELECT id FROM site_spaces WHERE site_id = $1 ORDER BY seq LIMIT 1), updated_at = now()
       WHERE id = $1 AND (default_site_space_id IS NULL OR NOT EXISTS (SELECT 1 FROM site_spaces WHERE id = sites.default_site_space_id))`,
      [siteId],
    );
}

/** One entry of a site's top level: a section, or a group with its sections. */
export type SiteStructureEntry =
  { kind: 'section'; section: SiteSectionRecord } | { kind: 'group'; group: SiteSectionGroupRecord; sections: SiteSectionRecord[] };

/**
 * The tree of a site's sections as the API and the rendered site show it: the top level (groups and the sections
 * outside a group) by position, and each group's sections by position.
 */
export function siteStructureTree(sections: SiteSectionRecord[], groups: SiteSectionGroupRecord[]): SiteStructureEntry[] {
  const groupIds = new Set(groups.map((g) => g.id));
  const byPosition = <T extends { position: number }>(list: T[]) => [...list].sort((a, b) => a.position - b.position);
  const top: Array<SiteStructureEntry & { position: number }> = [
    ...groups.map((group) => ({
      kind: 'group' as const,
      group,
      sections: byPosition(sections.filter((s) => s.groupId === group.id)),
      position: group.position,
    })),
    ...sections
      .filter((s) => s.groupId === null || !groupIds.has(s.groupId))
      .map((section) => ({ kind: 'section' as const, section, position: section.position })),
  ];
  return byPosition(top).map(({ position: _position, ...entry }) => entry as SiteStructureEntry);
}

/** Sections and groups of a site in one order: the tree read top to bottom (a group, then its sections). */
type Item = { kind: 'site-section' | 'site-section-group'; id: string };

async function orderOf(tx: Sql, siteId: string): Promise<Item[]> {
  return siteStructureTree(await sectionsOf(tx, siteId), await groupsOf(tx, siteId)).flatMap((e): Item[] =>
    e.kind === 'section'
      ? [{ kind: 'site-section', id: e.section.id }]
      : [{ kind: 'site-section-group', id: e.group.id }, ...e.sections.map((s) => ({ kind: 'site-section' as const, id: s.id }))],
  );
}

async function writeOrder(tx: Sql, items: Item[]): Promise<void> {
  for (const [i, item] of items.entries())
    await tx.query(`UPDATE ${item.kind === 'site-section' ? 'site_sections' : 'site_section_groups'} SET position = $2 WHERE id = $1`, [item.id, i]);
}

/** Puts `item` before or after the anchor named by `position` (the end of the site without one); returns the anchor. */
async function place(tx: Sql, siteId: string, item: Item, position: SiteStructurePosition | undefined): Promise<{ type: Item['kind']; id: string } | null> {
  const order = (await orderOf(tx, siteId)).filter((i) => !(i.kind === item.kind && i.id === item.id));
  const pointer = position?.before ?? position?.after;
  if (position?.before && position.after) throw new ValidationError('position takes before or after, not both');
  if (!pointer) {
    await writeOrder(tx, [...order, item]);
    return null;
  }
  if (pointer.type === item.kind && pointer.id === item.id) throw new ValidationError('an item cannot move next to itself');
  const at = order.findIndex((i) => i.kind === pointer.type && i.id === pointer.id);
  if (at < 0) throw new NotFoundError(pointer.type === 'site-section' ? 'site section' : 'site section group', pointer.id);
  order.splice(position?.before ? at : at + 1, 0, item);
  await writeOrder(tx, order);
  return pointer;
}

/** A free section path from a title: section and site space paths share one namespace per site. */
async function freeSectionPath(tx: Sql, siteId: string, title: string): Promise<string> {
  return siteSpacePathFree(tx, siteId, basenameFromTitle(title).slice(0, 90));
}

async function insertSection(
  tx: Sql,
  siteId: string,
  input: { title: string; icon: string | null; isDefault: boolean; defaultSiteSpaceId?: string | null },
): Promise<string> {
  const count = await tx.query<{ n: string | number }>('SELECT count(*) AS n FROM site_sections WHERE site_id = $1', [siteId]);
  if (Number(count[0]?.n ?? 0) >= MAX_SITE_SECTIONS) throw new ValidationError(`a site has at most ${MAX_SITE_SECTIONS} sections`);
  const id = newId();
  const path = await freeSectionPath(tx, siteId, input.title);
  await tx.query(
    `INSERT INTO site_sections (id, site_id, title, icon, path, is_default, default_site_space_id, position)
     VALUES ($1, $2, $3, $4, $5, $6, $7, (SELECT COALESCE(max(position) + 1, 0) FROM (
       SELECT position FROM site_sections WHERE site_id = $2 UNION ALL SELECT position FROM site_section_groups WHERE site_id = $2) AS p))`,
    [id, siteId, input.title, input.icon, path, input.isDefault, input.defaultSiteSpaceId ?? null],
  );
  return id;
}

/** A site's first section: the site spaces it had go into a default section of their own first. */
async function adoptRootSiteSpaces(tx: Sql, siteId: string, fallbackTitle: string): Promise<boolean> {
  const roots = await tx.query<{ id: string; title: string | null }>(
    `SELECT ss.id, sp.title FROM site_spaces ss JOIN spaces sp ON sp.id = ss.space_id
     WHERE ss.site_id = $1 AND ss.section_id IS NULL ORDER BY (ss.id = (SELECT default_site_space_id FROM sites WHERE id = $1)) DESC, ss.seq`,
    [siteId],
  );
  if (roots.length === 0) return false;
  const title = (roots[0]!.title ?? '').trim().length >= 2 ? roots[0]!.title!.slice(0, 128) : fallbackTitle;
  const id = await insertSection(tx, siteId, { title, icon: null, isDefault: true, defaultSiteSpaceId: roots[0]!.id });
  await tx.query('UPDATE site_spaces SET section_id = $2 WHERE site_id = $1 AND section_id IS NULL', [siteId, id]);
  return true;
}

async function createSection(
  sql: Sql,
  organizationId: string,
  siteId: string,
  input: { spaceId: string; title?: string; icon?: string },
): Promise<SiteSectionRecord> {
  if (input.title !== undefined) checkSectionTitle(input.title);
  const icon = input.icon === undefined ? null : checkIcon(input.icon);
  return sql.transaction(async (tx) => {
    const site = await requireSite(tx, organizationId, siteId);
    const space = await tx.query<{ title: string | null }>('SELECT title FROM spaces WHERE id = $1 AND organization_id = $2 AND deleted_at IS NULL', [
      input.spaceId,
      organizationId,
    ]);
    if (space.length === 0) throw new NotFoundError('space', input.spaceId);
    const hadSections = (await sectionsOf(tx, site.id)).length > 0;
    const adopted = !hadSections && (await adoptRootSiteSpaces(tx, site.id, site.title));
    const spaceTitle = (space[0]!.title ?? '').trim();
    const title = input.title ?? (spaceTitle.length >= 2 ? spaceTitle.slice(0, 128) : 'Section');
    const id = await insertSection(tx, site.id, { title, icon, isDefault: !hadSections && !adopted });
    await addSiteSpace(tx, (await requireSite(tx, organizationId, siteId))!, { spaceId: input.spaceId, sectionId: id });
    await syncSiteDefault(tx, site.id);
    return requireSection(tx, site.id, id);
  });
}

async function updateSection(sql: Sql, organizationId: string, siteId: string, sectionId: string, patch: SiteSectionPatch): Promise<SiteSectionRecord> {
  return sql.transaction(async (tx) => {
    await requireSite(tx, organizationId, siteId);
    await requireSection(tx, siteId, sectionId);
    const sets: string[] = [];
    const params: (string | null)[] = [sectionId];
    const set = (column: string, value: string | null) => {
      params.push(value);
      sets.push(`${column} = $${params.length}`);
    };
    if (patch.title !== undefined) set('title', checkSectionTitle(patch.title));
    if (patch.description !== undefined) set('description', patch.description === null ? null : checkText('description', patch.description, 0, 256));
    if (patch.icon !== undefined) set('icon', checkIcon(patch.icon));
    if (patch.condition !== undefined) set('condition', patch.condition === null ? null : checkText('condition', patch.condition, 0, 1024));
    if (patch.path !== undefined) {
      const path = checkSiteSpacePath(patch.path);
      if ((await tx.query('SELECT 1 FROM site_spaces WHERE site_id = $1 AND lower(path) = lower($2)', [siteId, path])).length > 0)
        throw new ConflictError(`the site already has a site space at path ${path}`, { path });
      set('path', path);
    }
    if (patch.defaultSiteSpaceId !== undefined) {
      const ss = await tx.query('SELECT 1 FROM site_spaces WHERE id = $1 AND section_id = $2', [patch.defaultSiteSpaceId, sectionId]);
      if (ss.length === 0) throw new ValidationError(`defaultSiteSpace ${patch.defaultSiteSpaceId} is not a site space of this section`);
      set('default_site_space_id', patch.defaultSiteSpaceId);
    }
    try {
      if (sets.length > 0) await tx.query(`UPDATE site_sections SET ${sets.join(', ')} WHERE id = $1`, params);
    } catch (err) {
      if (sqlState(err) === '23505') throw new ConflictError(`the site already has a section at path ${String(patch.path)}`, { path: String(patch.path) });
      throw err;
    }
    await syncSiteDefault(tx, siteId);
    return requireSection(tx, siteId, sectionId);
  });
}

/** Sections: created with a first site space, patched, moved, deleted with their site spaces, one of them the default. */
function createSectionMembers(
  sql: Sql,
): Pick<SiteSectionStore, 'structure' | 'createSection' | 'updateSection' | 'deleteSection' | 'moveSection' | 'setDefaultSection'> {
  return {
    async structure(siteId) {
      return { sections: await sectionsOf(sql, siteId), groups: await groupsOf(sql, siteId) };
    },
    createSection: (organizationId, siteId, input) => createSection(sql, organizationId, siteId, input),
    updateSection: (organizationId, siteId, sectionId, patch) => updateSection(sql, organizationId, siteId, sectionId, patch),
    deleteSection: (organizationId, siteId, sectionId) =>
      sql.transaction(async (tx) => {
        await requireSite(tx, organizationId, siteId);
        // Its site spaces go with it (ON DELETE CASCADE): they were its variants and have no place outside it.
        const rows = await tx.query('DELETE FROM site_sections WHERE id = $1 AND site_id = $2 RETURNING id', [sectionId, siteId]);
        await syncSiteDefault(tx, siteId);
        return rows.length > 0;
      }),
    moveSection: (organizationId, siteId, sectionId, position) =>
      sql.transaction(async (tx) => {
        await requireSite(tx, organizationId, siteId);
        await requireSection(tx, siteId, sectionId);
        if (position?.before?.type === 'site-section-group' || position?.after?.type === 'site-section-group')
          throw new ValidationError('a section moves before or after another section');
        const anchor = await place(tx, siteId, { kind: 'site-section', id: sectionId }, position);
        // Next to a section, the section joins its group (or the top level); at the end, the top level.
        const group = anchor ? (await requireSection(tx, siteId, anchor.id)).groupId : null;
        await tx.query('UPDATE site_sections SET section_group_id = $2 WHERE id = $1', [sectionId, group]);
        return requireSection(tx, siteId, sectionId);
      }),
    setDefaultSection: (organizationId, siteId, sectionId) =>
      sql.transaction(async (tx) => {
        await requireSite(tx, organizationId, siteId);
        await requireSection(tx, siteId, sectionId);
        await tx.query('UPDATE site_sections SET is_default = false WHERE site_id = $1 AND is_default', [siteId]);
        await tx.query('UPDATE site_sections SET is_default = true WHERE id = $1', [sectionId]);
        await syncSiteDefault(tx, siteId);
      }),
  };
}

async function createGroup(sql: Sql, organizationId: string, siteId: string, input: { title: string; icon?: string | null; sections?: string[] }) {
  const title = checkGroupTitle(input.title);
  const icon = input.icon === undefined ? null : checkIcon(input.icon);
  if ((input.sections?.length ?? 0) > MAX_SITE_SECTIONS) throw new ValidationError(`sections holds at most ${MAX_SITE_SECTIONS} ids`);
  return sql.transaction(async (tx) => {
    await requireSite(tx, organizationId, siteId);
    if ((await groupsOf(tx, siteId)).length >= MAX_SITE_SECTIONS) throw new ValidationError(`a site has at most ${MAX_SITE_SECTIONS} section groups`);
    for (const sectionId of input.sections ?? []) await requireSection(tx, siteId, sectionId);
    const id = newId();
    await tx.query(
      `INSERT INTO site_section_groups (id, site_id, title, icon, position) VALUES ($1, $2, $3, $4, (SELECT COALESCE(max(position) + 1, 0) FROM (
         SELECT position FROM site_sections WHERE site_id = $2 UNION ALL SELECT position FROM site_section_groups WHERE site_id = $2) AS p))`,
      [id, siteId, title, icon],
    );
    for (const sectionId of input.sections ?? []) await tx.query('UPDATE site_sections SET section_group_id = $2 WHERE id = $1', [sectionId, id]);
    return requireGroup(tx, siteId, id);
  });
}

/** Groups: a title and an icon over sections; deleting one leaves its sections at the top level. */
function createGroupMembers(
  sql: Sql,
): Pick<SiteSectionStore, 'createGroup' | 'updateGroup' | 'deleteGroup' | 'addSectionToGroup' | 'removeSectionFromGroup' | 'moveGroup'> {
  const inSite = <T>(organizationId: string, siteId: string, fn: (tx: Sql) => Promise<T>) =>
    sql.transaction(async (tx) => {
      await requireSite(tx, organizationId, siteId);
      return fn(tx);
    });
  return {
    createGroup: (organizationId, siteId, input) => createGroup(sql, organizationId, siteId, input),
    updateGroup: (organizationId, siteId, groupId, patch) =>
      inSite(organizationId, siteId, async (tx) => {
        await requireGroup(tx, siteId, groupId);
        if (patch.title !== undefined) await tx.query('UPDATE site_section_groups SET title = $2 WHERE id = $1', [groupId, checkGroupTitle(patch.title)]);
        if (patch.icon !== undefined) await tx.query('UPDATE site_section_groups SET icon = $2 WHERE id = $1', [groupId, checkIcon(patch.icon)]);
        return requireGroup(tx, siteId, groupId);
      }),
    deleteGroup: (organizationId, siteId, groupId) =>
      inSite(organizationId, siteId, async (tx) => {
        // ON DELETE SET NULL: its sections stay where the group was, at the top level.
        await writeOrder(tx, await orderOf(tx, siteId));
        const rows = await tx.query('DELETE FROM site_section_groups WHERE id = $1 AND site_id = $2 RETURNING id', [groupId, siteId]);
        return rows.length > 0;
      }),
    addSectionToGroup: (organizationId, siteId, groupId, sectionId) =>
      inSite(organizationId, siteId, async (tx) => {
        await requireGroup(tx, siteId, groupId);
        await requireSection(tx, siteId, sectionId);
        await place(tx, siteId, { kind: 'site-section', id: sectionId }, undefined);
        await tx.query('UPDATE site_sections SET section_group_id = $2 WHERE id = $1', [sectionId, groupId]);
        return requireGroup(tx, siteId, groupId);
      }),
    removeSectionFromGroup: (organizationId, siteId, groupId, sectionId) =>
      inSite(organizationId, siteId, async (tx) => {
        await requireGroup(tx, siteId, groupId);
        const section = await requireSection(tx, siteId, sectionId);
        if (section.groupId !== groupId) return false;
        await place(tx, siteId, { kind: 'site-section', id: sectionId }, { after: { type: 'site-section-group', id: groupId } });
        await tx.query('UPDATE site_sections SET section_group_id = NULL WHERE id = $1', [sectionId]);
        return true;
      }),
    moveGroup: (organizationId, siteId, groupId, position) =>
      inSite(organizationId, siteId, async (tx) => {
        await requireGroup(tx, siteId, groupId);
        const pointer = position?.before ?? position?.after;
        if (pointer?.type === 'site-section' && (await requireSection(tx, siteId, pointer.id)).groupId !== null)
          throw new ValidationError('a group moves before or after a section of the top level, or another group');
        await place(tx, siteId, { kind: 'site-section-group', id: groupId }, position);
        return requireGroup(tx, siteId, groupId);
      }),
  };
}

export function createSiteSectionStore(sql: Sql): SiteSectionStore {
  return { ...createSectionMembers(sql), ...createGroupMembers(sql) };
}
