import type { FastifyInstance } from 'fastify';
import { organizationNotFound, requireAuth, requireOrg } from '../auth.js';
import type { ApiDeps } from '../deps.js';
import { organizationObject } from '../objects/organization.js';
import type { UrlBuilder } from '../objects/urls.js';
import { listEnvelope, pageQuery } from '../pagination.js';

export function orgRoutes(app: FastifyInstance, deps: ApiDeps, urls: UrlBuilder): void {
  app.get('/v1/orgs', async (request) => {
    const auth = requireAuth(request);
    pageQuery(request.query as Record<string, unknown>);
    const org = await deps.store.orgs.get(auth.organizationId);
    // A token reaches one organization: the whole list.
    const items = org ? [organizationObject(org, urls)] : [];
    return listEnvelope(items, undefined, items.length);
  });

  app.get<{ Params: { organizationId: string } }>('/v1/orgs/:organizationId', async (request) => {
    requireOrg(request, request.params.organizationId);
    const org = await deps.store.orgs.get(request.params.organizationId);
    if (!org) throw organizationNotFound(request.params.organizationId);
    return organizationObject(org, urls);
  });
}
