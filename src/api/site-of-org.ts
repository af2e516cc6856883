import type { FastifyRequest } from 'fastify';
import type { SiteRecord, Store } from '../store/index.js';
import { organizationNotFound, requireOrg } from './auth.js';
import { notFound } from './http-errors.js';

export type SiteParams = { organizationId: string; siteId: string };

/** The site `siteId` of the organization the caller is in; another organization's site (or an unknown one) answers 404. */
export async function siteOfOrg(store: Store, request: FastifyRequest, params: SiteParams): Promise<SiteRecord> {
  requireOrg(request, params.organizationId);
  if (!(await store.orgs.get(params.organizationId))) throw organizationNotFound(params.organizationId);
  const site = await store.sites.get(params.organizationId, params.siteId);
  if (!site) throw notFound(`site not found: ${params.siteId}`);
  return site;
}
