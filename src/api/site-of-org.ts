import type { FastifyRequest } from 'fastify';
import type { PageRecord, SiteRecord, Store } from '../store/index.js';
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

/** The document page at `path` (`a/b`, slashes and `.md` trimmed) of a revision's page tree, or null. */
export async function documentAtPath(store: Store, revisionId: string, path: string): Promise<PageRecord | null> {
  const wanted = path.replace(/^\/+|\/+$/g, '').replace(/\.md$/, '');
  const walk = (pages: PageRecord[]): PageRecord | null => {
    for (const p of pages) {
      if (p.kind === 'document' && (p.path ?? '') === wanted) return p;
      const inner = walk(p.children);
      if (inner) return inner;
    }
    return null;
  };
  return walk(await store.revisions.pages(revisionId));
}
