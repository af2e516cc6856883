import type { FastifyInstance } from 'fastify';
import type { OrganizationRecord } from '../../store/index.js';
import { organizationNotFound, requireAuth, requireOrg, type AuthContext } from '../auth.js';
import type { ApiDeps } from '../deps.js';
import { organizationObject } from '../objects/organization.js';
import { organizationPermissions } from '../objects/permissions.js';
import type { UrlBuilder } from '../objects/urls.js';
import { pageQuery, paginateArray } from '../pagination.js';

export function orgRoutes(app: FastifyInstance, deps: ApiDeps, urls: UrlBuilder): void {
  /** The organization object with the caller's permissions there. */
  const body = async (auth: AuthContext, org: OrganizationRecord) => {
    const role = (await auth.access.organizationRole(org.id)) ?? null;
    const ownsTeam = auth.userId !== null && (await deps.store.teams.ofUser(org.id, auth.userId)).some((t) => t.role === 'owner');
    return organizationObject(org, urls, organizationPermissions(role, ownsTeam));
  };

  /** A service token reaches its organization; a user, every organization they are an active member of. */
  app.get('/v1/orgs', async (request) => {
    const auth = requireAuth(request);
    const q = pageQuery(request.query as Record<string, unknown>);
    const ids =
      auth.principal.kind === 'service'
        ? [auth.principal.organizationId]
        : (await deps.store.members.ofUser(auth.principal.userId)).filter((m) => !m.disabled).map((m) => m.organizationId);
    const orgs = (await Promise.all(ids.map((id) => deps.store.orgs.get(id)))).filter((o): o is OrganizationRecord => o !== null);
    const page = paginateArray('orgs', orgs, q);
    return { ...page, items: await Promise.all(page.items.map((org) => body(auth, org))) };
  });

  app.get<{ Params: { organizationId: string } }>('/v1/orgs/:organizationId', async (request) => {
    const auth = requireOrg(request, request.params.organizationId);
    const org = await deps.store.orgs.get(request.params.organizationId);
    if (!org) throw organizationNotFound(request.params.organizationId);
    return body(auth, org);
  });
}
