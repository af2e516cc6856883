/**
 * Site sections and section groups (`/v1/orgs/{org}/sites/{siteId}/sections…`, `…/section-groups…`): the parts
 * of a site (products, guides, languages) that its published pages switch between, each with its site spaces
 * (versions, languages), and the groups that gather sections under a title. Another organization's site, and a
 * section or group of another site, answer 404; bodies with unknown members or over the limits, 400.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { siteStructureTree, type SiteRecord, type SiteSectionRecord, type SiteStructurePosition } from '../../store/index.js';
import { organizationNotFound, requireOrg } from '../auth.js';
import type { ApiDeps } from '../deps.js';
import { badRequest, notFound } from '../http-errors.js';
import { siteSectionGroupObject, siteSectionObject } from '../objects/site-section.js';
import type { UrlBuilder } from '../objects/urls.js';
import { pageQuery, paginateArray } from '../pagination.js';
import { siteSpaceBodies } from '../site-space-bodies.js';

type SiteParams = { organizationId: string; siteId: string };
type SectionParams = SiteParams & { siteSectionId: string };
type GroupParams = SiteParams & { siteSectionGroupId: string };

const SITE = '/v1/orgs/:organizationId/sites/:siteId';
const text = (min: number, max: number) => ({ type: 'string', minLength: min, maxLength: max });
/** A string or null (a type list, not anyOf: Ajv would coerce null into the string branch). */
const nullable = (schema: Record<string, unknown>) => ({ ...schema, type: ['string', 'null'] });
const sectionPointer = { type: 'object', required: ['type', 'siteSection'], properties: { type: { enum: ['site-section'] }, siteSection: { type: 'string' } } };
const groupPointer = {
  type: 'object',
  required: ['type', 'id'],
  properties: { type: { enum: ['site-section', 'site-section-group'] }, id: { type: 'string' } },
};
const position = (pointer: Record<string, unknown>) => ({ type: 'object', properties: { before: pointer, after: pointer } });

const createSection = {
  body: {
    type: 'object',
    required: ['spaceId'],
    properties: { spaceId: nullable({ type: 'string' }), title: nullable(text(2, 128)), icon: nullable(text(1, 50)) },
  },
};
const patchSection = {
  body: {
    type: 'object',
    properties: {
      title: text(2, 128),
      path: text(1, 100),
      defaultSiteSpace: { type: 'string' },
      condition: nullable(text(0, 1024)),
      icon: nullable(text(1, 50)),
      description: nullable(text(0, 256)),
    },
  },
};
const moveSection = { body: { type: ['object', 'null'], properties: { position: position(sectionPointer) } } };
const createGroup = {
  body: {
    type: 'object',
    required: ['title'],
    properties: { title: text(1, 100), icon: nullable(text(1, 50)), sections: { type: 'array', maxItems: 100, items: { type: 'string' } } },
  },
};
const patchGroup = { body: { type: 'object', properties: { title: text(1, 100), icon: nullable(text(1, 50)) } } };
const addToGroup = { body: { type: 'object', required: ['sectionId'], properties: { sectionId: { type: 'string' } } } };
const moveGroup = { body: { type: ['object', 'null'], properties: { position: position(groupPointer) } } };

function body(request: FastifyRequest): Record<string, unknown> {
  const b = request.body;
  return b !== null && typeof b === 'object' && !Array.isArray(b) ? (b as Record<string, unknown>) : {};
}

/** A move's position, the section form (`siteSection`) or the group form (`id`), as the store takes it. */
function positionOf(b: Record<string, unknown>): SiteStructurePosition | undefined {
  const p = b.position as Record<string, { type: 'site-section' | 'site-section-group'; siteSection?: string; id?: string } | undefined> | undefined;
  if (p === undefined) return undefined;
  if (p.before && p.after) throw badRequest('position takes before or after, not both');
  const pointer = (x: NonNullable<(typeof p)['before']>) => ({ type: x.type, id: (x.siteSection ?? x.id)! });
  return { ...(p.before ? { before: pointer(p.before) } : {}), ...(p.after ? { after: pointer(p.after) } : {}) };
}

export function siteSectionRoutes(app: FastifyInstance, deps: ApiDeps, urls: UrlBuilder): void {
  const store = deps.store;

  async function loadSite(request: FastifyRequest, params: SiteParams): Promise<SiteRecord> {
    requireOrg(request, params.organizationId);
    if (!(await store.orgs.get(params.organizationId))) throw organizationNotFound(params.organizationId);
    const site = await store.sites.get(params.organizationId, params.siteId);
    if (!site) throw notFound(`site not found: ${params.siteId}`);
    return site;
  }

  /** The bodies of the site's sections (all, in the site's order), keyed by id, and its groups. */
  async function bodies(request: FastifyRequest, siteId: string, organizationId: string) {
    const site = (await store.sites.get(organizationId, siteId))!;
    const model = await store.siteSections.structure(site.id);
    const siteSpaces = await siteSpaceBodies(deps, urls, request, site, await store.sites.listSiteSpaces(site.id));
    const section = (s: SiteSectionRecord) =>
      siteSectionObject(
        site,
        s,
        siteSpaces.filter((b) => b.section === s.id),
        urls,
      );
    const tree = siteStructureTree(model.sections, model.groups);
    const sections = tree.flatMap((e) => (e.kind === 'section' ? [e.section] : e.sections)).map(section);
    const groups = tree.flatMap((e) => (e.kind === 'group' ? [siteSectionGroupObject(e.group, e.sections.map(section))] : []));
    return { sections, groups };
  }

  const sectionBody = async (request: FastifyRequest, site: SiteRecord, id: string) =>
    (await bodies(request, site.id, site.organizationId)).sections.find((s) => s.id === id)!;
  const groupBody = async (request: FastifyRequest, site: SiteRecord, id: string) =>
    (await bodies(request, site.id, site.organizationId)).groups.find((g) => g.id === id)!;

  app.get<{ Params: SiteParams }>(`${SITE}/sections`, async (request) => {
    const site = await loadSite(request, request.params);
    return paginateArray('site-sections', (await bodies(request, site.id, site.organizationId)).sections, pageQuery(request.query as Record<string, unknown>));
  });

  app.post<{ Params: SiteParams }>(`${SITE}/sections`, { schema: createSection }, async (request, reply) => {
    const site = await loadSite(request, request.params);
    const b = body(request);
    if (typeof b.spaceId !== 'string' || b.spaceId === '')
      throw badRequest('spaceId must be the id of an existing space (Folio does not create a space here: create it first)');
    const created = await store.siteSections.createSection(site.organizationId, site.id, {
      spaceId: b.spaceId,
      ...(typeof b.title === 'string' ? { title: b.title } : {}),
      ...(typeof b.icon === 'string' ? { icon: b.icon } : {}),
    });
    return reply.status(201).send(await sectionBody(request, site, created.id));
  });

  app.patch<{ Params: SectionParams }>(`${SITE}/sections/:siteSectionId`, { schema: patchSection }, async (request) => {
    const site = await loadSite(request, request.params);
    const b = body(request);
    const { defaultSiteSpace, ...rest } = b as { defaultSiteSpace?: string } & Record<string, string | null | undefined>;
    await store.siteSections.updateSection(site.organizationId, site.id, request.params.siteSectionId, {
      ...rest,
      ...(defaultSiteSpace !== undefined ? { defaultSiteSpaceId: defaultSiteSpace } : {}),
    });
    return sectionBody(request, site, request.params.siteSectionId);
  });

  // 205 when the section (and its site spaces) was deleted, 204 when the site has no such section.
  app.delete<{ Params: SectionParams }>(`${SITE}/sections/:siteSectionId`, async (request, reply) => {
    const site = await loadSite(request, request.params);
    return reply.status((await store.siteSections.deleteSection(site.organizationId, site.id, request.params.siteSectionId)) ? 205 : 204).send();
  });

  app.post<{ Params: SectionParams }>(`${SITE}/sections/:siteSectionId/move`, { schema: moveSection }, async (request) => {
    const site = await loadSite(request, request.params);
    await store.siteSections.moveSection(site.organizationId, site.id, request.params.siteSectionId, positionOf(body(request)));
    return sectionBody(request, site, request.params.siteSectionId);
  });

  groupRoutes(app, deps, loadSite, groupBody, bodies);
}

/** The section-group routes (same rules as the sections'). */
function groupRoutes(
  app: FastifyInstance,
  deps: ApiDeps,
  loadSite: (request: FastifyRequest, params: SiteParams) => Promise<SiteRecord>,
  groupBody: (request: FastifyRequest, site: SiteRecord, id: string) => Promise<unknown>,
  bodies: (request: FastifyRequest, siteId: string, organizationId: string) => Promise<{ groups: unknown[] }>,
): void {
  const sections = deps.store.siteSections;
  app.get<{ Params: SiteParams }>(`${SITE}/section-groups`, async (request) => {
    const site = await loadSite(request, request.params);
    return paginateArray(
      'site-section-groups',
      (await bodies(request, site.id, site.organizationId)).groups,
      pageQuery(request.query as Record<string, unknown>),
    );
  });

  app.post<{ Params: SiteParams }>(`${SITE}/section-groups`, { schema: createGroup }, async (request, reply) => {
    const site = await loadSite(request, request.params);
    const b = body(request) as { title: string; icon?: string | null; sections?: string[] };
    const created = await sections.createGroup(site.organizationId, site.id, b);
    return reply.status(201).send(await groupBody(request, site, created.id));
  });

  app.patch<{ Params: GroupParams }>(`${SITE}/section-groups/:siteSectionGroupId`, { schema: patchGroup }, async (request) => {
    const site = await loadSite(request, request.params);
    await sections.updateGroup(site.organizationId, site.id, request.params.siteSectionGroupId, body(request) as { title?: string; icon?: string | null });
    return groupBody(request, site, request.params.siteSectionGroupId);
  });

  // 205 when the group was deleted (its sections stay, at the top level), 204 when the site has no such group.
  app.delete<{ Params: GroupParams }>(`${SITE}/section-groups/:siteSectionGroupId`, async (request, reply) => {
    const site = await loadSite(request, request.params);
    return reply.status((await sections.deleteGroup(site.organizationId, site.id, request.params.siteSectionGroupId)) ? 205 : 204).send();
  });

  app.post<{ Params: GroupParams }>(`${SITE}/section-groups/:siteSectionGroupId/sections`, { schema: addToGroup }, async (request) => {
    const site = await loadSite(request, request.params);
    await sections.addSectionToGroup(site.organizationId, site.id, request.params.siteSectionGroupId, String(body(request).sectionId));
    return groupBody(request, site, request.params.siteSectionGroupId);
  });

  type MemberParams = GroupParams & { siteSectionId: string };
  app.delete<{ Params: MemberParams }>(`${SITE}/section-groups/:siteSectionGroupId/sections/:siteSectionId`, async (request, reply) => {
    const site = await loadSite(request, request.params);
    const { siteSectionGroupId, siteSectionId } = request.params;
    if (!(await sections.removeSectionFromGroup(site.organizationId, site.id, siteSectionGroupId, siteSectionId)))
      throw notFound(`section ${siteSectionId} is not in the group ${siteSectionGroupId}`);
    return reply.status(204).send();
  });

  app.post<{ Params: GroupParams }>(`${SITE}/section-groups/:siteSectionGroupId/move`, { schema: moveGroup }, async (request) => {
    const site = await loadSite(request, request.params);
    await sections.moveGroup(site.organizationId, site.id, request.params.siteSectionGroupId, positionOf(body(request)));
    return groupBody(request, site, request.params.siteSectionGroupId);
  });
}

/**
 * A site PATCH's `defaultSiteSection` and, on a site with sections, its `defaultSiteSpace` (the default site space
 * of the default section); returns the `defaultSiteSpace` left for the site itself (a site without sections).
 */
export async function applySectionDefaults(
  store: ApiDeps['store'],
  site: SiteRecord,
  defaultSiteSection: string | undefined,
  defaultSiteSpace: string | undefined,
): Promise<string | undefined> {
  const model = await store.siteSections.structure(site.id);
  if (defaultSiteSection !== undefined) {
    if (!model.sections.some((s) => s.id === defaultSiteSection)) throw badRequest(`defaultSiteSection ${defaultSiteSection} is not a section of this site`);
    await store.siteSections.setDefaultSection(site.organizationId, site.id, defaultSiteSection);
  }
  if (defaultSiteSpace === undefined || model.sections.length === 0) return defaultSiteSpace;
  const section = defaultSiteSection ?? model.sections.find((s) => s.isDefault)!.id;
  await store.siteSections.updateSection(site.organizationId, site.id, section, { defaultSiteSpaceId: defaultSiteSpace });
  return undefined;
}
