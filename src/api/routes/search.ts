import type { FastifyInstance } from 'fastify';
import { NotFoundError } from '../../errors.js';
import { organizationNotFound, requireOrg } from '../auth.js';
import type { ApiDeps } from '../deps.js';
import { searchPageObject, searchSpaceObjects } from '../objects/search.js';
import type { UrlBuilder } from '../objects/urls.js';
import { listEnvelope, pageQuery } from '../pagination.js';
import { searchPages } from '../../search/query.js';
import { loadSpace, visibleSpaces } from './spaces.js';
import type { AccessResolver } from '../../people/access.js';

const searchQuery = {
  type: 'object',
  required: ['query'],
  properties: { query: { type: 'string', minLength: 1, maxLength: 512 }, limit: { type: 'string' }, page: { type: 'string' } },
} as const;

/**
 * Full-text search from the index of each space's primary revision (`src/search/`): ranked pages with
 * their matching sections and highlighted snippets. Deleted spaces are never found; another organization's
 * space answers 404, and an organization's search sees only its own spaces.
 */
/** The spaces a search may look into: undefined when the caller sees every space of the organization. */
async function searchableSpaces(deps: ApiDeps, organizationId: string, access: AccessResolver): Promise<string[] | undefined> {
  if ((await access.organizationRole(organizationId, { uncapped: true })) === 'admin') return undefined;
  return (await visibleSpaces(deps, organizationId, access)).map((s) => s.id);
}

export function searchRoutes(app: FastifyInstance, deps: ApiDeps, urls: UrlBuilder): void {
  app.get<{ Params: { spaceId: string }; Querystring: { query: string } }>(
    '/v1/spaces/:spaceId/search',
    { schema: { querystring: searchQuery } },
    async (request) => {
      const space = await loadSpace(deps, request, request.params.spaceId);
      const q = pageQuery(request.query as Record<string, unknown>);
      const found = await searchPages(deps.store, { organizationId: space.organizationId, spaceIds: [space.id], query: request.query.query, ...q });
      return listEnvelope(
        found.items.map((hit) => searchPageObject(hit, urls)),
        found.next,
        found.total,
      );
    },
  );

  app.get<{ Params: { organizationId: string }; Querystring: { query: string } }>(
    '/v1/orgs/:organizationId/search',
    { schema: { querystring: searchQuery } },
    async (request) => {
      const { organizationId } = request.params;
      const { access } = requireOrg(request, organizationId);
      if (!(await deps.store.orgs.get(organizationId))) throw organizationNotFound(organizationId);
      const q = pageQuery(request.query as Record<string, unknown>);
      // Only the spaces the caller can see are searched.
      const spaceIds = await searchableSpaces(deps, organizationId, access);
      const found =
        spaceIds && spaceIds.length === 0
          ? { items: [], spaces: 0 }
          : await searchPages(deps.store, { organizationId, query: request.query.query, ...(spaceIds ? { spaceIds } : {}), ...q });
      const titles = new Map<string, string>();
      for (const spaceId of new Set(found.items.map((h) => h.spaceId))) titles.set(spaceId, (await deps.store.spaces.get(spaceId))?.title ?? '');
      // The items are spaces (each with its pages): the total is the spaces with a hit.
      return listEnvelope(searchSpaceObjects(found.items, titles, urls), 'next' in found ? found.next : undefined, found.spaces);
    },
  );

  /**
   * `searchSiteContent`: the pages of the site's spaces (all of them, or `siteSpaceIds`), ranked like the org search.
   * Another organization's site answers 404.
   */
  app.post<{ Params: { organizationId: string; siteId: string }; Body: { query: string; siteSpaceIds?: string[] } }>(
    '/v1/orgs/:organizationId/sites/:siteId/search',
    {
      // A search (its query is the body): a read, open to read-only tokens.
      config: { readOnly: true },
      schema: {
        body: {
          type: 'object',
          required: ['query'],
          properties: { query: { type: 'string', minLength: 1, maxLength: 512 }, siteSpaceIds: { type: 'array', maxItems: 100, items: { type: 'string' } } },
        },
      },
    },
    async (request) => {
      const { organizationId, siteId } = request.params;
      const { access } = requireOrg(request, organizationId);
      const site = await deps.store.sites.get(organizationId, siteId);
      if (!site) throw new NotFoundError('site', siteId);
      const wanted = request.body.siteSpaceIds ? new Set(request.body.siteSpaceIds) : null;
      const visible = await searchableSpaces(deps, organizationId, access);
      const spaceIds = (await deps.store.sites.listSiteSpaces(site.id))
        .filter((ss) => (!wanted || wanted.has(ss.id)) && (!visible || visible.includes(ss.spaceId)))
        .map((ss) => ss.spaceId);
      const q = pageQuery(request.query as Record<string, unknown>);
      const found = spaceIds.length ? await searchPages(deps.store, { organizationId, spaceIds, query: request.body.query, ...q }) : { items: [], spaces: 0 };
      const titles = new Map<string, string>();
      for (const spaceId of new Set(found.items.map((h) => h.spaceId))) titles.set(spaceId, (await deps.store.spaces.get(spaceId))?.title ?? '');
      return listEnvelope(searchSpaceObjects(found.items, titles, urls), 'next' in found ? found.next : undefined, found.spaces);
    },
  );
}
