import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { servedFileHeaders } from './served-file-headers.js';
import type { PublicationRecord, SiteRecord, Store } from '../store/index.js';
import { PAGE_CSP } from '../publish/csp.js';
import { siteSearchPage } from './site-search.js';
import { siteRedirectAnswer } from './site-redirect-serving.js';
import { customHostnameServing } from './custom-hostname-serving.js';

const IMMUTABLE = /^_(files|static)\//;
const SHARE_COOKIE = 'folio_share';

interface Resolved {
  site: SiteRecord;
  publication: PublicationRecord;
}

function cookie(request: FastifyRequest, name: string): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const [k, ...v] = part.trim().split('=');
    if (k === name) return decodeURIComponent(v.join('='));
  }
  return undefined;
}

/**
 * Serves published sites: `/sites/<basename>/…`, and whole hosts mapped to a basename (`FOLIO_SITE_HOSTNAMES`).
 * Only a published site with a live publication is served (else 404); a `share-link` site only with an active
 * key (`?share=<key>`, then kept in a cookie scoped to the site): 401 without one. ETag = the file's content
 * hash; `_files/` and `_static/` are immutable; `.gitbook.yaml` redirects answer 301. `~search?q=…` is the site's
 * search page (./site-search.ts), under the same audience rules as its pages.
 */
export function siteServing(app: FastifyInstance, deps: { store: Store; hostnames: Record<string, string>; publicUrl?: string | undefined }): void {
  const { store } = deps;
  const httpsDeployment = deps.publicUrl !== undefined && /^https:/i.test(deps.publicUrl);
  /**
   * The share cookie is `Secure` when the site is reached over https: the deployment's public URL
   * (`FOLIO_PUBLIC_URL`) is https (Folio behind a TLS-terminating proxy), or the connection itself is TLS. On a
   * plain-http deployment it cannot be: a browser drops a `Secure` cookie set over http, and every page after the
   * first would answer 401.
   */
  const secure = (request: FastifyRequest) => httpsDeployment || request.protocol === 'https';

  const serving: Serving = { store, secure };

  app.get<{ Params: { basename: string } }>('/sites/:basename', async (request, reply) => {
    const q = request.url.includes('?') ? request.url.slice(request.url.indexOf('?')) : '';
    return reply.redirect(`/sites/${encodeURIComponent(request.params.basename)}/${q}`, 301);
  });

  app.get<{ Params: { basename: string; '*': string } }>('/sites/:basename/*', async (request, reply) => {
    const raw = request.url.split('?')[0]!;
    const prefix = `/sites/${request.params.basename}/`;
    const rest = raw.startsWith(prefix) ? raw.slice(prefix.length) : request.params['*'];
    return serve(serving, request, reply, request.params.basename, rest, `/sites/${request.params.basename}`);
  });

  customHostnameServing(app, store, (request, reply, basename, rest) => serve(serving, request, reply, basename, rest, ''));

  const hostnames = deps.hostnames;
  if (Object.keys(hostnames).length > 0) {
    app.addHook('onRequest', async (request, reply) => {
      const host = (request.headers.host ?? '').toLowerCase();
      const basename = hostnames[host] ?? hostnames[host.replace(/:\d+$/, '')];
      if (!basename || request.url.startsWith('/v1/') || request.url === '/healthz') return;
      if (request.method !== 'GET' && request.method !== 'HEAD') return reply.status(405).send();
      await serve(serving, request, reply, basename, request.url.split('?')[0]!.slice(1), '');
      return reply;
    });
  }
}

/** What serving a site needs: the store, and whether the share cookie is `Secure` for a request. */
interface Serving {
  store: Store;
  secure: (request: FastifyRequest) => boolean;
}

/** A request for a path of the site `basename` (served under `base`): the audience check, then the file. */
async function serve(serving: Serving, request: FastifyRequest, reply: FastifyReply, basename: string, rest: string, base: string): Promise<FastifyReply> {
  const { store, secure } = serving;
  const site = await store.sites.getByBasename(basename);
  if (!site || !site.published || !site.livePublicationId) return reply.status(404).type('text/plain; charset=utf-8').send('site not found');
  const query = request.query as Record<string, unknown>;
  let shareSetCookie: string | undefined;
  if (site.visibility === 'share-link') {
    const given = typeof query.share === 'string' ? query.share : cookie(request, `${SHARE_COOKIE}_${site.id}`);
    const link = given ? await store.sites.shareLinkByKey(site.id, given) : null;
    if (!link || !link.active) {
      return reply
        .status(401)
        .header('cache-control', 'no-store')
        .type('text/plain; charset=utf-8')
        .send('this site is shared by link: open it with its share link');
    }
    if (typeof query.share === 'string')
      shareSetCookie = `${SHARE_COOKIE}_${site.id}=${encodeURIComponent(given!)}; Path=${base || '/'}; HttpOnly;${secure(request) ? ' Secure;' : ''} SameSite=Lax`;
  }
  const publication = await store.sites.publication(site.id, site.livePublicationId);
  if (!publication) return reply.status(404).send('site not found');
  return serveFile(serving, request, reply, { site, publication }, rest, base, shareSetCookie);
}

/** A file of the live publication: the search page, a directory's index, a redirect, the 404 page, or the file with its cache headers. */
async function serveFile(
  { store }: Serving,
  request: FastifyRequest,
  reply: FastifyReply,
  r: Resolved,
  rest: string,
  base: string,
  setCookie: string | undefined,
) {
  let path: string;
  try {
    path = decodeURIComponent(rest);
  } catch {
    return reply.status(400).send('bad path');
  }
  if (path.split('/').some((s) => s === '..')) return reply.status(400).send('bad path');
  if (setCookie) reply.header('set-cookie', setCookie);
  const privateSite = r.site.visibility !== 'public';
  if (path === '~search') {
    const page = await siteSearchPage(store, r.site, r.publication, request.query as Record<string, unknown>);
    if (page) {
      return reply
        .status(page.status)
        .header('cache-control', privateSite ? 'private, no-store' : 'no-cache')
        .header('content-security-policy', PAGE_CSP)
        .header('x-content-type-options', 'nosniff')
        .header('x-robots-tag', 'noindex, nofollow')
        .type('text/html; charset=utf-8')
        .send(page.html);
    }
  }
  const candidate = path === '' || path.endsWith('/') ? `${path}index.html` : path;
  const file = await store.sites.publicationFile(r.publication.id, candidate);
  if (!file && !path.endsWith('/') && path !== '') {
    if (await store.sites.publicationFile(r.publication.id, `${path}/index.html`)) return reply.redirect(`${base}/${rest}/`, 301);
  }
  if (!file) {
    const redirected = await siteRedirectAnswer(store, r.site, r.publication, path, base);
    if (redirected) return reply.header('cache-control', 'no-cache').redirect(redirected.location, redirected.status);
    const redirects = (r.publication.structure as { redirects?: Record<string, string> }).redirects ?? {};
    const target = redirects[path.replace(/\/+$/g, '').replace(/\.md$/, '')];
    if (target !== undefined) return reply.redirect(`${base}/${target}`, 301);
    const missing = await store.sites.publicationFile(r.publication.id, '404.html');
    const bytes = missing ? await store.blobs.get(missing.hash) : null;
    return reply
      .status(404)
      .header('cache-control', 'no-cache')
      .header('content-security-policy', PAGE_CSP)
      .type('text/html; charset=utf-8')
      .send(bytes ? Buffer.from(bytes) : 'not found');
  }
  const etag = `"${file.hash}"`;
  const immutable = IMMUTABLE.test(candidate);
  reply.header('etag', etag);
  reply.header('x-content-type-options', 'nosniff');
  reply.header(
    'cache-control',
    immutable ? `${privateSite ? 'private' : 'public'}, max-age=31536000, immutable` : `${privateSite ? 'private' : 'public'}, max-age=0, must-revalidate`,
  );
  if (candidate.startsWith('_files/')) {
    for (const [k, v] of Object.entries(servedFileHeaders({ name: decodeURIComponent(candidate.split('/').pop() ?? 'file'), contentType: file.contentType })))
      reply.header(k, v);
  } else {
    reply.header('content-type', file.contentType);
    if (file.contentType.startsWith('text/html')) reply.header('content-security-policy', PAGE_CSP);
  }
  if (privateSite) reply.header('x-robots-tag', 'noindex, nofollow');
  const match = request.headers['if-none-match'];
  if (typeof match === 'string' && match.split(',').some((m) => m.trim() === etag)) return reply.status(304).send();
  const bytes = await store.blobs.get(file.hash);
  if (!bytes) return reply.status(503).header('retry-after', '5').send('content unavailable');
  return reply.status(200).send(Buffer.from(bytes));
}
