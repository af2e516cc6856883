import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { SiteRecord, SiteSpaceRecord } from '../../store/index.js';
import { requestSitePublish } from '../../temporal/client/start.js';
import { organizationNotFound, requireOrg } from '../auth.js';
import { workflowStarter, type ApiDeps } from '../deps.js';
import { badRequest, notFound } from '../http-errors.js';
import { OPERATION_ID_HEADER } from '../operation-id.js';
import { shareLinkObject, siteObject } from '../objects/site.js';
import { deepMerge } from '../objects/site-customization-input.js';
import { siteCustomization } from './site-customization.js';
import type { UrlBuilder } from '../objects/urls.js';
import { listEnvelope, pageQuery, paginateArray } from '../pagination.js';
import { siteSpaceBodies as siteSpaceBodiesOf, siteStructureBody } from '../site-space-bodies.js';
import { applySectionDefaults } from './site-sections.js';

type SiteParams = { organizationId: string; siteId: string };

function body(request: FastifyRequest): Record<string, unknown> {
  const b = request.body;
  if (b === undefined || b === null) return {};
  if (typeof b !== 'object' || Array.isArray(b)) throw badRequest('the body must be a JSON object');
  return b as Record<string, unknown>;
}

function optionalString(b: Record<string, unknown>, key: string): string | undefined {
  const v = b[key];
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw badRequest(`${key} must be a string`);
  return v;
}

function bool(query: Record<string, unknown>, key: string): boolean | undefined {
  const v = query[key];
  if (v === undefined || v === '') return undefined;
  if (v === 'true') return true;
  if (v === 'false') return false;
  throw badRequest(`${key} must be true or false`);
}

/**
 * Docs sites of an organization (`/v1/orgs/{org}/sites…`): sites, their site spaces, share links, publishing
 * (a `site/<id>/publish` workflow) and the published site profile. Another organization's site answers 404.
 */
const noBody = { body: { type: ['object', 'null'], properties: {} } };
/** The members of the official site bodies that Folio keeps; any other (adaptive content, proxy, …) is a 400 naming it. */
const createSite = {
  body: {
    type: ['object', 'null'],
    properties: { title: { type: 'string' }, type: { type: 'string' }, visibility: { type: 'string' }, spaces: { type: 'array', items: { type: 'string' } } },
  },
};
const patchSite = {
  body: {
    type: 'object',
    properties: {
      title: { type: 'string' },
      visibility: { type: 'string' },
      basename: { type: 'string' },
      defaultSiteSpace: { type: 'string' },
      defaultSiteSection: { type: 'string' },
      // Folio's own: publish on every new primary revision of the site's spaces.
      publishOnNewRevision: { type: 'boolean' },
    },
  },
};
const addSiteSpace = {
  body: { type: 'object', required: ['spaceId'], properties: { spaceId: { type: 'string' }, path: { type: 'string' }, sectionId: { type: 'string' } } },
};
const patchSiteSpace = { body: { type: 'object', properties: { path: { type: 'string' }, spaceId: { type: 'string' } } } };
const createShareLink = { body: { type: ['object', 'null'], properties: { name: { type: 'string' } } } };
const patchShareLink = { body: { type: 'object', properties: { active: { type: 'boolean' }, name: { type: 'string' } } } };

export function siteRoutes(app: FastifyInstance, deps: ApiDeps, urls: UrlBuilder): void {
  const ctx = siteRoutesContext(deps, urls);
  siteRecordRoutes(app, ctx);
  sitePublishRoutes(app, ctx);
  siteSpaceRoutes(app, ctx);
  siteShareLinkRoutes(app, ctx);
}

type SiteRoutes = ReturnType<typeof siteRoutesContext>;

/** What the groups of site routes share: the organization check, the site of a request, the API objects. */
function siteRoutesContext(deps: ApiDeps, urls: UrlBuilder) {
  const sites = deps.store.sites;

  async function checkOrg(request: FastifyRequest, organizationId: string): Promise<void> {
    requireOrg(request, organizationId);
    if (!(await deps.store.orgs.get(organizationId))) throw organizationNotFound(organizationId);
  }

  async function loadSite(request: FastifyRequest, params: SiteParams): Promise<SiteRecord> {
    await checkOrg(request, params.organizationId);
    const site = await sites.get(params.organizationId, params.siteId);
    if (!site) throw notFound(`site not found: ${params.siteId}`);
    return site;
  }

  const siteBody = async (site: SiteRecord) => siteObject(site, await sites.countSiteSpaces(site.id), urls);

  const siteSpaceBodies = (request: FastifyRequest, site: SiteRecord, list: SiteSpaceRecord[]) => siteSpaceBodiesOf(deps, urls, request, site, list);
  return { deps, urls, sites, checkOrg, loadSite, siteBody, siteSpaceBodies };
}

/** List, create, read, update and delete sites. */
function siteRecordRoutes(app: FastifyInstance, ctx: SiteRoutes): void {
  const { deps, sites, checkOrg, loadSite, siteBody } = ctx;
  app.get<{ Params: { organizationId: string } }>('/v1/orgs/:organizationId/sites', async (request) => {
    await checkOrg(request, request.params.organizationId);
    const q = request.query as Record<string, unknown>;
    const result = await sites.list(request.params.organizationId, {
      ...pageQuery(q),
      ...(bool(q, 'published') !== undefined ? { published: bool(q, 'published') } : {}),
      ...(typeof q.space === 'string' && q.space !== '' ? { spaceId: q.space } : {}),
      ...(typeof q.title === 'string' && q.title !== '' ? { title: q.title } : {}),
    });
    return listEnvelope(await Promise.all(result.items.map(siteBody)), result.next, result.total);
  });

  app.post<{ Params: { organizationId: string } }>('/v1/orgs/:organizationId/sites', { schema: createSite }, async (request, reply) => {
    await checkOrg(request, request.params.organizationId);
    const b = body(request);
    const spaces = b.spaces;
    if (spaces !== undefined && (!Array.isArray(spaces) || spaces.some((s) => typeof s !== 'string'))) throw badRequest('spaces must be an array of space ids');
    const title = b.title === undefined ? 'Docs site' : b.title;
    const site = await sites.create(request.params.organizationId, {
      title: title as string,
      ...(b.type !== undefined ? { type: String(b.type) } : {}),
      ...(b.visibility !== undefined ? { visibility: b.visibility as string } : {}),
      ...(spaces ? { spaces: spaces as string[] } : {}),
    });
    return reply.status(201).send(await siteBody(site));
  });

  app.get<{ Params: SiteParams }>('/v1/orgs/:organizationId/sites/:siteId', async (request) => siteBody(await loadSite(request, request.params)));

  app.patch<{ Params: SiteParams }>('/v1/orgs/:organizationId/sites/:siteId', { schema: patchSite }, async (request) => {
    const site = await loadSite(request, request.params);
    const b = body(request);
    // With sections, the default section and the default site space of the default section (src/api/routes/site-sections.ts).
    const defaultSiteSpace = await applySectionDefaults(deps.store, site, optionalString(b, 'defaultSiteSection'), optionalString(b, 'defaultSiteSpace'));
    const updated = await sites.update(site.organizationId, site.id, {
      ...(b.title !== undefined ? { title: b.title as string } : {}),
      ...(b.visibility !== undefined ? { visibility: b.visibility as string } : {}),
      ...(b.basename !== undefined ? { basename: b.basename as string } : {}),
      ...(defaultSiteSpace !== undefined ? { defaultSiteSpaceId: defaultSiteSpace } : {}),
      ...(typeof b.publishOnNewRevision === 'boolean' ? { publishOnNewRevision: b.publishOnNewRevision } : {}),
    });
    return siteBody(updated);
  });

  // 205 when the site was deleted, 204 when there was no such site (as in the platform API).
  app.delete<{ Params: SiteParams }>('/v1/orgs/:organizationId/sites/:siteId', async (request, reply) => {
    await checkOrg(request, request.params.organizationId);
    const deleted = await sites.delete(request.params.organizationId, request.params.siteId);
    return reply.status(deleted ? 205 : 204).send();
  });
}

/** Publishing a site and what is published. */
function sitePublishRoutes(app: FastifyInstance, ctx: SiteRoutes): void {
  const { deps, urls, sites, loadSite, siteBody, siteSpaceBodies } = ctx;
  app.post<{ Params: SiteParams }>('/v1/orgs/:organizationId/sites/:siteId/publish', { schema: noBody }, async (request, reply: FastifyReply) => {
    const site = await loadSite(request, request.params);
    const updated = await sites.update(site.organizationId, site.id, { published: true });
    const operationId = await requestSitePublish(workflowStarter(deps), { organizationId: site.organizationId, siteId: site.id });
    return reply
      .status(200)
      .header(OPERATION_ID_HEADER, operationId)
      .send(await siteBody(updated));
  });

  app.post<{ Params: SiteParams }>('/v1/orgs/:organizationId/sites/:siteId/unpublish', { schema: noBody }, async (request) => {
    const site = await loadSite(request, request.params);
    return siteBody(await sites.unpublish(site.organizationId, site.id));
  });

  app.get<{ Params: SiteParams }>('/v1/orgs/:organizationId/sites/:siteId/published', async (request) => {
    const site = await loadSite(request, request.params);
    if (!site.published || !site.livePublicationId) throw notFound(`site ${site.id} is not published`);
    const publication = await sites.publication(site.id, site.livePublicationId);
    const frozen = publication?.structure.siteSpaces ?? [];
    const list = (await sites.listSiteSpaces(site.id)).filter((ss) => frozen.some((f) => f.siteSpaceId === ss.id));
    const structure = await siteSpaceBodies(request, site, list);
    return {
      object: 'published-content-site' as const,
      site: await siteBody(site),
      structure: await siteStructureBody(deps, urls, request, site, list),
      customizations: await publishedCustomizations(deps.store, site, structure),
      scripts: [],
    };
  });

  app.get<{ Params: SiteParams }>('/v1/orgs/:organizationId/sites/:siteId/structure', async (request) => {
    const site = await loadSite(request, request.params);
    return siteStructureBody(deps, urls, request, site, await sites.listSiteSpaces(site.id));
  });
}

/** A site's spaces. */
function siteSpaceRoutes(app: FastifyInstance, ctx: SiteRoutes): void {
  const { sites, loadSite, siteSpaceBodies } = ctx;
  app.get<{ Params: SiteParams }>('/v1/orgs/:organizationId/sites/:siteId/site-spaces', async (request) => {
    const site = await loadSite(request, request.params);
    const q = request.query as Record<string, unknown>;
    const wantDefault = bool(q, 'default');
    const all = (await sites.listSiteSpaces(site.id)).filter((ss) => wantDefault === undefined || (site.defaultSiteSpaceId === ss.id) === wantDefault);
    return paginateArray('site-spaces', await siteSpaceBodies(request, site, all), pageQuery(q));
  });

  app.post<{ Params: SiteParams }>('/v1/orgs/:organizationId/sites/:siteId/site-spaces', { schema: addSiteSpace }, async (request, reply) => {
    const site = await loadSite(request, request.params);
    const b = body(request);
    const spaceId = b.spaceId;
    if (typeof spaceId !== 'string') throw badRequest('spaceId is required (Folio does not create a space here: create it first)');
    const path = optionalString(b, 'path');
    const sectionId = optionalString(b, 'sectionId');
    const created = await sites.addSiteSpace(site.organizationId, site.id, {
      spaceId,
      ...(path !== undefined ? { path } : {}),
      ...(sectionId !== undefined ? { sectionId } : {}),
    });
    const fresh = (await sites.get(site.organizationId, site.id))!;
    return reply.status(201).send((await siteSpaceBodies(request, fresh, [created]))[0]);
  });

  type SiteSpaceParams = SiteParams & { siteSpaceId: string };
  app.patch<{ Params: SiteSpaceParams }>('/v1/orgs/:organizationId/sites/:siteId/site-spaces/:siteSpaceId', { schema: patchSiteSpace }, async (request) => {
    const site = await loadSite(request, request.params);
    const b = body(request);
    const path = optionalString(b, 'path');
    const spaceId = optionalString(b, 'spaceId');
    const updated = await sites.updateSiteSpace(site.organizationId, site.id, request.params.siteSpaceId, {
      ...(path !== undefined ? { path } : {}),
      ...(spaceId !== undefined ? { spaceId } : {}),
    });
    return (await siteSpaceBodies(request, site, [updated]))[0];
  });

  app.delete<{ Params: SiteSpaceParams }>('/v1/orgs/:organizationId/sites/:siteId/site-spaces/:siteSpaceId', async (request, reply) => {
    const site = await loadSite(request, request.params);
    const deleted = await sites.deleteSiteSpace(site.organizationId, site.id, request.params.siteSpaceId);
    return reply.status(deleted ? 205 : 204).send();
  });
}

/** A site's share links. */
function siteShareLinkRoutes(app: FastifyInstance, ctx: SiteRoutes): void {
  const { urls, sites, loadSite } = ctx;
  type ShareParams = SiteParams & { shareLinkId: string };
  app.get<{ Params: SiteParams }>('/v1/orgs/:organizationId/sites/:siteId/share-links', async (request) => {
    const site = await loadSite(request, request.params);
    const result = await sites.listShareLinks(site.id, pageQuery(request.query as Record<string, unknown>));
    return listEnvelope(
      result.items.map((l) => shareLinkObject(site, l, urls)),
      result.next,
      result.total,
    );
  });

  app.post<{ Params: SiteParams }>('/v1/orgs/:organizationId/sites/:siteId/share-links', { schema: createShareLink }, async (request, reply) => {
    const site = await loadSite(request, request.params);
    const name = optionalString(body(request), 'name');
    if (name === undefined) throw badRequest('name is required');
    return reply.status(201).send(shareLinkObject(site, await sites.createShareLink(site.id, name), urls));
  });

  app.patch<{ Params: ShareParams }>('/v1/orgs/:organizationId/sites/:siteId/share-links/:shareLinkId', { schema: patchShareLink }, async (request) => {
    const site = await loadSite(request, request.params);
    const b = body(request);
    if (b.active !== undefined && typeof b.active !== 'boolean') throw badRequest('active must be a boolean');
    const name = optionalString(b, 'name');
    if (b.active === undefined && name === undefined) throw badRequest('give active or name');
    const link = await sites.updateShareLink(site.id, request.params.shareLinkId, {
      ...(name !== undefined ? { name } : {}),
      ...(b.active !== undefined ? { active: b.active as boolean } : {}),
    });
    return shareLinkObject(site, link, urls);
  });

  app.delete<{ Params: ShareParams }>('/v1/orgs/:organizationId/sites/:siteId/share-links/:shareLinkId', async (request, reply) => {
    const site = await loadSite(request, request.params);
    return reply.status((await sites.deleteShareLink(site.id, request.params.shareLinkId)) ? 205 : 204).send();
  });
}

/** The customization a published site renders with: the site's (stored, else the defaults), and each site space's with its overrides. */
async function publishedCustomizations(store: ApiDeps['store'], site: SiteRecord, siteSpaces: Array<{ id: string }>) {
  const settings = await siteCustomization(store, site);
  const overrides = await store.siteSettings.siteSpaceCustomizations(site.id);
  return { site: settings, siteSpaces: Object.fromEntries(siteSpaces.map((ss) => [ss.id, deepMerge(settings, overrides.get(ss.id) ?? {})])) };
}
