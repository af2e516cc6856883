/**
 * The integration routes beside publishing and installing (issue 28): the list of integrations
 * (`GET /v1/integrations`: the public ones and the caller's organizations' own) and development mode
 * (`PUT /v1/integrations/{name}/dev` `{ tunnelUrl, all }` forwards the integration's events to the tunnel — with
 * `all: false`, only those of its installation on the owning organization — until `DELETE …/dev`). The tunnel
 * address is sealed with the vault key like the webhook's and never answered back; deliveries to it go through the
 * guarded fetch and are signed with the webhook's secret.
 */
import type { FastifyInstance } from 'fastify';
import type { IntegrationTarget } from '../../store/index.js';
import { fieldSealer } from '../../vault/index.js';
import { webhookContext } from '../../webhooks/deliver.js';
import { requireAuth } from '../auth.js';
import type { ApiDeps } from '../deps.js';
import { badRequest } from '../http-errors.js';
import { integrationObject } from '../objects/integration.js';
import { organizationObject } from '../objects/organization.js';
import { organizationPermissions } from '../objects/permissions.js';
import type { UrlBuilder } from '../objects/urls.js';
import { listEnvelope, pageQuery } from '../pagination.js';

const NAME = '^[a-zA-Z0-9-_.]+$';
const nameParams = { type: 'object', properties: { integrationName: { type: 'string', pattern: NAME, maxLength: 100 } } } as const;
const devBody = {
  type: 'object',
  required: ['tunnelUrl'],
  properties: { tunnelUrl: { type: 'string', minLength: 1, maxLength: 256 }, all: { type: 'boolean' } },
} as const;
const listQuery = {
  type: 'object',
  properties: {
    page: { type: 'string' },
    limit: { type: 'string' },
    search: { type: 'string', maxLength: 200 },
    category: { type: 'string', maxLength: 100 },
    owner: { type: 'string', maxLength: 200 },
    target: { type: 'string', enum: ['all', 'site', 'space', 'organization'] },
    // The spec's other filters (blocks, content sources, scope) name what Folio's integrations never have.
    blockDomain: { type: 'string' },
    blocks: { type: 'string' },
    contentSources: { type: 'string' },
    scope: { type: 'string' },
  },
} as const;

/** The tunnel address: an http(s) URL without credentials. */
function tunnelOf(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw badRequest('body.tunnelUrl is not a URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw badRequest('body.tunnelUrl must be an http or https URL');
  if (url.username || url.password) throw badRequest('body.tunnelUrl must not carry credentials');
  return url.href;
}

export function integrationDevRoutes(app: FastifyInstance, deps: ApiDeps, urls: UrlBuilder): void {
  const sealer = () => fieldSealer({ dataDir: deps.config.dataDir, secret: deps.config.vaultKey });

  app.get<{ Querystring: Record<string, string> }>('/v1/integrations', { schema: { querystring: listQuery } }, async (request) => {
    const auth = requireAuth(request);
    const q = request.query;
    const organizationIds =
      auth.principal.kind === 'service'
        ? [auth.principal.organizationId]
        : (await deps.store.members.ofUser(auth.principal.userId)).filter((m) => !m.disabled).map((m) => m.organizationId);
    // Folio's integrations have no blocks, content sources or listed scopes: such a filter matches none.
    const none = [q.blockDomain, q.blocks, q.contentSources, q.scope].some((v) => v !== undefined && v !== '');
    const query = pageQuery(q);
    if (none) return listEnvelope([], undefined, 0);
    const page = await deps.store.integrations.list({
      organizationIds,
      ...query,
      ...(q.search ? { search: q.search } : {}),
      ...(q.owner ? { owner: q.owner } : {}),
      ...(q.target ? { target: q.target as IntegrationTarget } : {}),
      ...(q.category ? { category: q.category } : {}),
    });
    const items = await Promise.all(
      page.items.map(async (integration) => {
        const role = organizationIds.includes(integration.organizationId) ? ((await auth.access.organizationRole(integration.organizationId)) ?? null) : null;
        const owner = await deps.store.orgs.get(integration.organizationId);
        const ownerObject = owner ? organizationObject(owner, urls, organizationPermissions(role, false)) : null;
        return integrationObject(integration, ownerObject, urls, role === 'admin');
      }),
    );
    return listEnvelope(items, page.next, page.total);
  });

  app.put<{ Params: { integrationName: string }; Body: { tunnelUrl: string; all?: boolean } }>(
    '/v1/integrations/:integrationName/dev',
    { schema: { params: nameParams, body: devBody } },
    async (request, reply) => {
      const name = request.params.integrationName;
      const tunnel = tunnelOf(request.body.tunnelUrl);
      if (!(await deps.store.integrations.webhook(name)))
        throw badRequest('the integration has no webhook secret to sign its events with: publish it with secrets.WEBHOOK_URL and WEBHOOK_SECRET first');
      const sealed = sealer().seal(tunnel, webhookContext(name, 'dev-tunnel'));
      await deps.store.integrations.setDevMode(name, { tunnelUrl: sealed, all: request.body.all ?? false });
      return reply.status(204).send();
    },
  );

  app.delete<{ Params: { integrationName: string } }>('/v1/integrations/:integrationName/dev', { schema: { params: nameParams } }, async (request, reply) => {
    await deps.store.integrations.setDevMode(request.params.integrationName, null);
    return reply.status(205).send();
  });
}
