import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Store } from '../store/index.js';
import { SITE_HOSTNAME } from './routes/custom-hostnames.js';

type Serve = (request: FastifyRequest, reply: FastifyReply, basename: string, rest: string) => Promise<FastifyReply>;

/**
 * Serves a published site at the root of its custom hostname (issue 33, `/v1/custom-hostnames/{hostname}`): a
 * request whose Host is a domain name held in `custom_hostnames` (the API's `/v1/` and `/healthz` aside) is the
 * site's, under the same rules as `/sites/<basename>/` (./site-serving.ts). Only GET and HEAD (405 otherwise).
 */
export function customHostnameServing(app: FastifyInstance, store: Store, serve: Serve): void {
  app.addHook('onRequest', async (request, reply) => {
    if (request.url.startsWith('/v1/') || request.url === '/healthz') return;
    const host = (request.headers.host ?? '').toLowerCase().replace(/:\d+$/, '');
    if (!SITE_HOSTNAME.test(host)) return;
    const held = await store.siteSettings.customHostname(host);
    const site = held ? await store.sites.get(held.organizationId, held.siteId) : null;
    if (!site) return;
    if (request.method !== 'GET' && request.method !== 'HEAD') return reply.status(405).send();
    await serve(request, reply, site.basename, request.url.split('?')[0]!.slice(1));
    return reply;
  });
}
