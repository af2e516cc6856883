import type { FastifyInstance } from 'fastify';
import type { SiteRecord, SpaceRecord, Store } from '../../store/index.js';
import { requireAuth } from '../auth.js';
import type { ApiDeps } from '../deps.js';
import { badRequest, notFound } from '../http-errors.js';
import { pageObject } from '../objects/revision.js';
import type { UrlBuilder } from '../objects/urls.js';
import { documentAtPath } from '../site-of-org.js';
import { spaceBody } from '../space-bodies.js';

const segments = (path: string) => path.split('/').filter((s) => s !== '');

/** The space and page path a published site's address shows: its site space by its path segment, else the default one. */
async function siteContent(store: Store, site: SiteRecord, rest: string): Promise<{ space: SpaceRecord; path: string } | null> {
  const siteSpaces = await store.sites.listSiteSpaces(site.id);
  const defaultId = site.defaultSiteSpaceId ?? siteSpaces[0]?.id;
  const [first, ...others] = segments(rest);
  const named = siteSpaces.find((s) => s.id !== defaultId && s.path === first);
  const ss = named ?? siteSpaces.find((s) => s.id === defaultId);
  const space = ss ? await store.spaces.get(ss.spaceId) : null;
  if (!space) return null;
  return { space, path: (named ? others : segments(rest)).join('/') };
}

/** What a URL shows: a published site's page (its own host, a custom hostname, or `/sites/<basename>/`), or an app page (`/app/s/<space>/<path>`). */
async function contentOfUrl(
  store: Store,
  url: URL,
  hostnames: Record<string, string>,
): Promise<{ organizationId: string; space: SpaceRecord; path: string } | null> {
  let path: string;
  try {
    path = decodeURIComponent(url.pathname);
  } catch {
    return null;
  }
  const app = /^\/app\/s\/([^/]+)(?:\/(.*))?$/.exec(path);
  if (app) {
    const space = await store.spaces.get(app[1]!);
    return space && !space.deletedAt ? { organizationId: space.organizationId, space, path: (app[2] ?? '').replace(/^~\/.*$/, '') } : null;
  }
  const host = url.hostname.toLowerCase();
  const held = await store.siteSettings.customHostname(host);
  let site: SiteRecord | null = held ? await store.sites.get(held.organizationId, held.siteId) : null;
  let rest = path;
  if (!site && hostnames[host]) site = await store.sites.getByBasename(hostnames[host]);
  if (!site) {
    const m = /^\/sites\/([^/]+)(\/.*)?$/.exec(path);
    if (m) [site, rest] = [await store.sites.getByBasename(m[1]!), m[2] ?? ''];
  }
  if (!site) return null;
  const found = await siteContent(store, site, rest);
  return found ? { organizationId: site.organizationId, ...found } : null;
}

/**
 * `GET /v1/urls/content?url=` (issue 33): the space (and page) a URL of a published site or of the app shows, in the
 * official shape (`{ space, page? }`). Only content of the caller's organization that the caller can see resolves;
 * anything else, another organization's included, is the same 404 as a URL that shows nothing.
 */
export function urlRoutes(app: FastifyInstance, deps: ApiDeps, urls: UrlBuilder): void {
  const { store } = deps;
  const query = { querystring: { type: 'object', required: ['url'], properties: { url: { type: 'string', maxLength: 2048 } } } };
  app.get<{ Querystring: { url: string } }>('/v1/urls/content', { schema: query }, async (request) => {
    const auth = requireAuth(request);
    let url: URL;
    try {
      url = new URL(request.query.url);
    } catch {
      throw badRequest('url must be an absolute URL');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw badRequest('url must be an http or https URL');
    const nothing = notFound('no content found for the URL');
    const found = await contentOfUrl(store, url, deps.config.siteHostnames);
    if (!found || found.organizationId !== auth.organizationId) throw nothing;
    if (!(await auth.access.spaceRoles([found.space])).get(found.space.id)) throw nothing;
    const space = await spaceBody(store, found.space, urls, auth.access);
    const revisionId = found.space.revisionId;
    const page = revisionId ? await documentAtPath(store, revisionId, found.path) : null;
    if (found.path !== '' && !page) throw nothing;
    return { space, ...(page && revisionId ? { page: pageObject(page, { spaceId: found.space.id, revisionId }, urls) } : {}) };
  });
}
