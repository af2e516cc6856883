import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { CustomHostnameRecord, SiteRecord } from '../../store/index.js';
import { atLeast, type MemberRole } from '../../people/roles.js';
import { insufficientRole, requireAuth } from '../auth.js';
import type { ApiDeps } from '../deps.js';
import { badRequest, conflict, notFound } from '../http-errors.js';
import type { UrlBuilder } from '../objects/urls.js';

/** The official `SiteHostname`: a lower-case domain name of at least three labels (`docs.example.com`). */
export const SITE_HOSTNAME = /^([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?[.]){2,}[a-z0-9][a-z0-9-]{0,61}[a-z0-9]$/;

export function checkHostname(hostname: string): string {
  if (hostname.length > 253 || !SITE_HOSTNAME.test(hostname))
    throw badRequest('hostname must be a lower-case domain name of at least three labels, such as docs.example.com');
  if (/^[0-9.]+$/.test(hostname)) throw badRequest('hostname must be a domain name, not an address');
  return hostname;
}

/** The official `CustomHostname` (Folio does not check DNS or certificates: no `status`; active while the site is published). */
function customHostnameObject(record: CustomHostnameRecord, site: SiteRecord, urls: UrlBuilder) {
  return {
    object: 'custom-hostname' as const,
    hostname: record.hostname,
    target: { type: 'site' as const, site: record.siteId },
    isActive: site.published && site.livePublicationId !== null,
    urls: { location: urls.api(`/custom-hostnames/${record.hostname}`) },
  };
}

/**
 * Custom hostnames (`/v1/custom-hostnames/{hostname}`, issue 33): a host name that serves a published site of the
 * organization (./custom-hostname-serving.ts). GET and DELETE as the spec says; `PUT` (Folio's own: the spec sets
 * a hostname elsewhere, outside its public API) points one at a site (`{ "site": id }`). A hostname is unique across
 * organizations; one another organization holds answers GET with 404 and DELETE with 204, exactly as a free one,
 * and PUT with 409 naming nothing of the holder. Reading needs a role in the organization, changing the create role.
 */
export function customHostnameRoutes(app: FastifyInstance, deps: ApiDeps, urls: UrlBuilder): void {
  const { store } = deps;
  const hostParams = { params: { type: 'object', properties: { hostname: { type: 'string', maxLength: 512 } } } };

  async function caller(request: FastifyRequest, needed: MemberRole) {
    const auth = requireAuth(request);
    const role = await auth.access.organizationRole(auth.organizationId);
    if (!atLeast(role, needed)) {
      if (needed === 'read') throw notFound(`custom hostname not found: ${(request.params as { hostname: string }).hostname}`);
      throw insufficientRole(needed, role ?? null, 'the organization');
    }
    return auth.organizationId;
  }

  async function owned(organizationId: string, hostname: string) {
    const record = await store.siteSettings.customHostname(hostname.toLowerCase());
    const site = record && record.organizationId === organizationId ? await store.sites.get(organizationId, record.siteId) : null;
    if (!record || !site) throw notFound(`custom hostname not found: ${hostname}`);
    return { record, site };
  }

  app.get<{ Params: { hostname: string } }>('/v1/custom-hostnames/:hostname', { schema: hostParams }, async (request) => {
    const org = await caller(request, 'read');
    const { record, site } = await owned(org, request.params.hostname);
    return customHostnameObject(record, site, urls);
  });

  const putBody = { body: { type: 'object', required: ['site'], properties: { site: { type: 'string', maxLength: 100 } } }, ...hostParams };
  app.put<{ Params: { hostname: string }; Body: { site: string } }>('/v1/custom-hostnames/:hostname', { schema: putBody }, async (request, reply) => {
    const org = await caller(request, 'create');
    const hostname = checkHostname(request.params.hostname.toLowerCase());
    const site = await store.sites.get(org, request.body.site);
    if (!site) throw badRequest(`site: no site ${request.body.site} in the organization`);
    const set = await store.siteSettings.setCustomHostname(org, hostname, site.id).catch((err: unknown) => {
      if (err instanceof Error && (err as { code?: string }).code === 'CONFLICT') throw conflict(`the hostname ${hostname} is not available`);
      throw err;
    });
    return reply.status(set.created ? 201 : 200).send(customHostnameObject(set.record, site, urls));
  });

  app.delete<{ Params: { hostname: string } }>('/v1/custom-hostnames/:hostname', { schema: hostParams }, async (request, reply) => {
    const org = await caller(request, 'create');
    return reply.status((await store.siteSettings.deleteCustomHostname(org, request.params.hostname.toLowerCase())) ? 205 : 204).send();
  });
}
