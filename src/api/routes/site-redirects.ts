import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { SiteRecord, SiteRedirectRecord, Store } from '../../store/index.js';
import { sourcePath } from '../../publish/site-redirects.js';
import { isAbsoluteAllowedUrl } from '../../url-policy/index.js';
import type { ApiDeps } from '../deps.js';
import { badRequest, conflict, notFound } from '../http-errors.js';
import { checkOfficial, requestBodySchema } from '../official-schema.js';
import { publishedSiteUrl } from '../objects/site.js';
import type { UrlBuilder } from '../objects/urls.js';
import { iso } from '../objects/urls.js';
import { listEnvelope, pageQuery } from '../pagination.js';
import { documentAtPath, siteOfOrg, type SiteParams } from '../site-of-org.js';

type Obj = Record<string, unknown>;
type RedirectParams = SiteParams & { siteRedirectId: string };
const REDIRECTS = '/orgs/{organizationId}/sites/{siteId}/redirects';

/** The official `SiteRedirect`. */
export function siteRedirectObject(r: SiteRedirectRecord) {
  return {
    object: 'site-redirect' as const,
    id: r.id,
    source: r.source,
    draft: r.draft,
    captureWildcard: r.captureWildcard,
    permanent: r.permanent,
    destination: r.destination,
    createdAt: iso(r.createdAt)!,
    ...(r.updatedAt ? { updatedAt: iso(r.updatedAt)! } : {}),
  };
}

/**
 * A destination Folio can serve, as stored: a page, a site space or a section of this site, or an external http(s) URL; a
 * `path` destination (a page of a space by its path) becomes the page it names. Anything else is a 400.
 */
async function storedDestination(store: Store, site: SiteRecord, d: Obj): Promise<Obj> {
  if (d.kind === 'external') {
    if (typeof d.url !== 'string' || !isAbsoluteAllowedUrl(d.url) || !/^https?:/i.test(d.url)) throw badRequest('destination.url must be an http or https URL');
    return { kind: 'external', url: d.url };
  }
  if (d.kind === 'site-section') {
    const { sections } = await store.siteSections.structure(site.id);
    if (!sections.some((s) => s.id === d.siteSectionId)) throw badRequest('destination.siteSectionId: not a section of this site');
    return { kind: 'site-section', siteSectionId: d.siteSectionId };
  }
  const siteSpaces = await store.sites.listSiteSpaces(site.id);
  const ss = d.kind === 'path' ? siteSpaces.find((s) => s.spaceId === d.spaceId) : siteSpaces.find((s) => s.id === d.siteSpaceId);
  if (!ss)
    throw badRequest(
      d.kind === 'path' ? `destination.spaceId: the site shows no space ${String(d.spaceId)}` : `destination.siteSpaceId: not a site space of this site`,
    );
  if (d.kind === 'site-space') return { kind: 'site-space', siteSpaceId: ss.id };
  const space = await store.spaces.get(ss.spaceId);
  const revisionId = space?.revisionId;
  if (!revisionId) throw badRequest('destination: the space has no content yet');
  if (d.kind === 'path') {
    const page = await documentAtPath(store, revisionId, String(d.path));
    if (!page) throw badRequest(`destination.path: no page at ${String(d.path).slice(0, 200)} in the space`);
    return { kind: 'site-page', siteSpaceId: ss.id, pageId: page.id };
  }
  const page = await store.revisions.page(revisionId, String(d.pageId));
  if (!page || page.kind !== 'document') throw badRequest(`destination.pageId: no page ${String(d.pageId)} in the site space`);
  return { kind: 'site-page', siteSpaceId: ss.id, pageId: page.id };
}

/** A redirect from a path to itself would never end. */
function checkSource(source: string): string {
  const normal = source.endsWith('*') ? source : sourcePath(source);
  if (normal === '/') throw badRequest('source must name a path below the site root');
  return normal;
}

/**
 * A site's redirects (`/v1/orgs/{org}/sites/{site}/redirects…`, issue 33) in the official shapes: list (live or
 * draft, searched by path), create, update, delete, and `GET …/redirect?source=` resolving one. The published site
 * follows the live ones (src/publish/site-redirects.ts). Another organization's site answers 404.
 */
export function siteRedirectRoutes(app: FastifyInstance, deps: ApiDeps, urls: UrlBuilder): void {
  const { store } = deps;
  const base = '/v1/orgs/:organizationId/sites/:siteId';
  const anyBody = { body: { type: 'object', additionalProperties: true } };
  const body = (request: FastifyRequest) => (request.body ?? {}) as Obj;

  app.get<{ Params: SiteParams }>(`${base}/redirects`, async (request) => {
    const site = await siteOfOrg(store, request, request.params);
    const q = request.query as Obj;
    if (q.draft !== undefined && q.draft !== 'true' && q.draft !== 'false') throw badRequest('draft must be true or false');
    const page = await store.siteSettings.listRedirects(site.id, {
      ...pageQuery(q),
      draft: q.draft === 'true',
      ...(typeof q.search === 'string' && q.search !== '' ? { search: q.search.slice(0, 512) } : {}),
    });
    return listEnvelope(page.items.map(siteRedirectObject), page.next, page.total);
  });

  app.post<{ Params: SiteParams }>(`${base}/redirects`, { schema: anyBody }, async (request, reply) => {
    const site = await siteOfOrg(store, request, request.params);
    const b = body(request);
    checkOfficial(requestBodySchema(REDIRECTS, 'post'), b);
    const created = await store.siteSettings
      .createRedirect(site.id, {
        source: checkSource(b.source as string),
        destination: await storedDestination(store, site, b.destination as Obj),
        draft: b.draft === true,
        captureWildcard: b.captureWildcard === true,
        permanent: b.permanent === true,
      })
      .catch(asConflict);
    return reply.status(201).send(siteRedirectObject(created));
  });

  app.patch<{ Params: RedirectParams }>(`${base}/redirects/:siteRedirectId`, { schema: anyBody }, async (request) => {
    const site = await siteOfOrg(store, request, request.params);
    const b = body(request);
    checkOfficial(requestBodySchema(`${REDIRECTS}/{siteRedirectId}`, 'patch'), b);
    if (!(await store.siteSettings.redirect(site.id, request.params.siteRedirectId)))
      throw notFound(`site redirect not found: ${request.params.siteRedirectId}`);
    const updated = await store.siteSettings
      .updateRedirect(site.id, request.params.siteRedirectId, {
        ...(typeof b.source === 'string' ? { source: checkSource(b.source) } : {}),
        ...(b.destination !== undefined ? { destination: await storedDestination(store, site, b.destination as Obj) } : {}),
        ...(typeof b.draft === 'boolean' ? { draft: b.draft } : {}),
        ...(typeof b.captureWildcard === 'boolean' ? { captureWildcard: b.captureWildcard } : {}),
        ...(typeof b.permanent === 'boolean' ? { permanent: b.permanent } : {}),
      })
      .catch(asConflict);
    return siteRedirectObject(updated);
  });

  app.delete<{ Params: RedirectParams }>(`${base}/redirects/:siteRedirectId`, async (request, reply) => {
    const site = await siteOfOrg(store, request, request.params);
    return reply.status((await store.siteSettings.deleteRedirect(site.id, request.params.siteRedirectId)) ? 205 : 204).send();
  });

  app.get<{ Params: SiteParams }>(`${base}/redirect`, async (request) => {
    const site = await siteOfOrg(store, request, request.params);
    const source = (request.query as Obj).source;
    if (typeof source !== 'string' || source === '') throw badRequest('source is required');
    const found =
      (await store.siteSettings.redirectBySource(site.id, checkSource(source), false)) ??
      (await store.siteSettings.redirectBySource(site.id, checkSource(source), true));
    if (!found) throw notFound(`no redirect from ${source.slice(0, 200)}`);
    return { redirect: siteRedirectObject(found), target: await targetUrl(store, site, found, urls) };
  });
}

function asConflict(err: unknown): never {
  if (err instanceof Error && (err as { code?: string }).code === 'CONFLICT') throw conflict(err.message);
  throw err;
}

/** The absolute URL a redirect leads to (its page or site space on the published site, or its external URL). */
async function targetUrl(store: Store, site: SiteRecord, r: SiteRedirectRecord, urls: UrlBuilder): Promise<string> {
  const d = r.destination;
  if (d.kind === 'external') return String(d.url);
  const root = publishedSiteUrl(site, urls);
  const ss = (await store.sites.listSiteSpaces(site.id)).find((s) => s.id === d.siteSpaceId);
  const prefix = !ss || ss.id === (site.defaultSiteSpaceId ?? (await store.sites.listSiteSpaces(site.id))[0]?.id) ? '' : `${ss.path}/`;
  if (d.kind !== 'site-page' || !ss) return root + prefix;
  const space = await store.spaces.get(ss.spaceId);
  const page = space?.revisionId ? await store.revisions.page(space.revisionId, String(d.pageId)) : null;
  return (
    root +
    prefix +
    (page
      ? (page.path ?? '')
          .split('/')
          .filter(Boolean)
          .map((s) => `${encodeURIComponent(s)}/`)
          .join('')
      : '')
  );
}
