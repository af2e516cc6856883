/**
 * Integrations (issue 28): an organization publishes an integration whose webhook receives its installations'
 * content events; organizations install it; the owner lists the deliveries (`…/events`) with their trace. The
 * webhook address and secret come in the publish body's `secrets` (`WEBHOOK_URL`, `WEBHOOK_SECRET`), are sealed
 * with the vault key at once and never answered back. Folio runs no integration scripts.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { atLeast } from '../../people/roles.js';
import type { IntegrationRecord, IntegrationTarget, IntegrationVisibility } from '../../store/index.js';
import { startWebhookSubscriber } from '../../temporal/client/start.js';
import { webhookSubscriberInput } from '../../temporal/client/webhook-subscribers.js';
import { fieldSealer } from '../../vault/index.js';
import { webhookContext } from '../../webhooks/deliver.js';
import { insufficientRole, integrationNotFound, organizationNotFound, requireAuth, type AuthContext } from '../auth.js';
import { workflowStarter, type ApiDeps } from '../deps.js';
import { badRequest, notFound } from '../http-errors.js';
import { eventTraceObject, installationObject, integrationEventObject, integrationObject } from '../objects/integration.js';
import { organizationObject } from '../objects/organization.js';
import { organizationPermissions } from '../objects/permissions.js';
import type { UrlBuilder } from '../objects/urls.js';
import { listEnvelope, pageQuery } from '../pagination.js';

type NameParams = { integrationName: string };
type InstallationParams = NameParams & { installationId: string };
type EventParams = NameParams & { eventId: string };

const NAME = '^[a-zA-Z0-9-_.]+$';
const nameParams = { type: 'object', properties: { integrationName: { type: 'string', pattern: NAME, maxLength: 100 } } } as const;
const publishBody = {
  type: 'object',
  required: ['organization', 'title', 'description', 'scopes'],
  properties: {
    organization: { type: 'string' },
    runtime: { type: 'string', enum: ['v1', 'v2'] },
    title: { type: 'string', minLength: 2, maxLength: 30 },
    description: { type: 'string', maxLength: 100 },
    summary: { type: 'string', maxLength: 20000 },
    visibility: { type: 'string', enum: ['public', 'private', 'unlisted'] },
    target: { type: 'string', enum: ['all', 'site', 'space', 'organization'] },
    scopes: { type: 'array', maxItems: 50, items: { type: 'string', maxLength: 100 } },
    categories: { type: 'array', maxItems: 20, items: { type: 'string', maxLength: 100 } },
    script: { type: 'string', maxLength: 0 },
    secrets: {
      type: 'object',
      properties: { WEBHOOK_URL: { type: 'string', maxLength: 2048 }, WEBHOOK_SECRET: { type: 'string', minLength: 16, maxLength: 200 } },
    },
  },
} as const;
const installBody = { type: 'object', required: ['organization'], properties: { organization: { type: 'string' } } } as const;
const updateInstallationBody = {
  type: 'object',
  properties: {
    space_selection: { type: 'string', enum: ['all', 'selected'] },
    site_selection: { type: 'string', enum: ['all', 'selected'] },
    configuration: { type: 'object', additionalProperties: true },
    externalIds: { type: 'array', maxItems: 5, items: { type: 'string' } },
    /** Folio's extension: the selected spaces (with `space_selection: "selected"`). */
    spaces: { type: 'array', maxItems: 1000, items: { type: 'string' } },
    /** Folio's extension: the selected sites (with `site_selection: "selected"`). */
    sites: { type: 'array', maxItems: 1000, items: { type: 'string' } },
    status: { type: 'string', enum: ['active', 'paused'] },
  },
} as const;
const listQuery = { type: 'object', properties: { page: { type: 'string' }, limit: { type: 'string' } } } as const;

/** The webhook of a publish body, checked: both or neither, an http(s) address without a fragment. */
function webhookOf(secrets: Record<string, string> | undefined): { url: string; secret: string } | null | undefined {
  if (secrets === undefined) return undefined;
  const url = secrets.WEBHOOK_URL;
  const secret = secrets.WEBHOOK_SECRET;
  if (url === undefined && secret === undefined) return null;
  if (url === undefined || secret === undefined) throw badRequest('body.secrets needs both WEBHOOK_URL and WEBHOOK_SECRET');
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw badRequest('body.secrets.WEBHOOK_URL is not a URL');
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') throw badRequest('body.secrets.WEBHOOK_URL must be an http or https URL');
  return { url, secret };
}

/** The caller's admin role on `organizationId` (404 when it cannot see it, 403 when its role is weaker). */
async function requireOrgAdmin(auth: AuthContext, organizationId: string): Promise<void> {
  const membership = await auth.access.membership(organizationId);
  if (!membership) throw organizationNotFound(organizationId);
  const role = (await auth.access.organizationRole(organizationId)) ?? null;
  if (!atLeast(role, 'admin')) throw insufficientRole('admin', role, `organization ${organizationId}`);
}

export function integrationRoutes(app: FastifyInstance, deps: ApiDeps, urls: UrlBuilder): void {
  const sealer = () => fieldSealer({ dataDir: deps.config.dataDir, secret: deps.config.vaultKey });
  const integrationBody = async (auth: AuthContext, integration: IntegrationRecord) => {
    const owner = await deps.store.orgs.get(integration.organizationId);
    const role = (await auth.access.organizationRole(integration.organizationId)) ?? null;
    const ownerObject = owner ? organizationObject(owner, urls, organizationPermissions(role, false)) : null;
    return integrationObject(integration, ownerObject, urls, atLeast(role, 'admin'));
  };
  const load = async (name: string) => {
    const integration = await deps.store.integrations.get(name);
    if (!integration) throw integrationNotFound(name);
    return integration;
  };

  app.post<{ Params: NameParams; Body: Record<string, unknown> }>(
    '/v1/integrations/:integrationName',
    { schema: { params: nameParams, body: publishBody } },
    async (request) => {
      const auth = requireAuth(request);
      const body = request.body as { organization: string; title: string; description: string; summary?: string; scopes: string[] } & Record<string, unknown>;
      const name = request.params.integrationName;
      await requireOrgAdmin(auth, body.organization);
      const existing = await deps.store.integrations.get(name);
      // A name another organization holds answers as an unknown one would for that organization: not found.
      if (existing && existing.organizationId !== body.organization) throw integrationNotFound(name);
      const webhook = webhookOf(body.secrets as Record<string, string> | undefined);
      const s = sealer();
      const sealed = webhook
        ? { url: s.seal(webhook.url, webhookContext(name, 'url')), secret: s.seal(webhook.secret, webhookContext(name, 'secret')) }
        : webhook;
      const published = await deps.store.integrations.publish(name, {
        organizationId: body.organization,
        title: body.title,
        description: body.description,
        summary: body.summary ?? null,
        target: (body.target as IntegrationTarget | undefined) ?? 'all',
        visibility: (body.visibility as IntegrationVisibility | undefined) ?? 'private',
        scopes: body.scopes,
        categories: (body.categories as string[] | undefined) ?? [],
        webhook: sealed,
      });
      return integrationBody(auth, published);
    },
  );

  app.get<{ Params: NameParams }>('/v1/integrations/:integrationName', { schema: { params: nameParams } }, async (request) =>
    integrationBody(requireAuth(request), await load(request.params.integrationName)),
  );

  app.delete<{ Params: NameParams }>('/v1/integrations/:integrationName', { schema: { params: nameParams } }, async (request, reply) => {
    await deps.store.integrations.delete(request.params.integrationName);
    return reply.status(204).send();
  });

  installationRoutes(app, deps, urls);
  eventRoutes(app, deps);
}

/** The installation of `:installationId`, when it is an installation of this integration the caller administers (else 404). */
async function loadInstallation(deps: ApiDeps, request: FastifyRequest<{ Params: InstallationParams }>, admin: boolean) {
  const auth = requireAuth(request);
  const installation = await deps.store.integrations.installation(request.params.installationId);
  const notThere = () => notFound(`installation not found: ${request.params.installationId}`);
  if (!installation || installation.integrationName !== request.params.integrationName) throw notThere();
  const integration = (await deps.store.integrations.get(request.params.integrationName))!;
  const ownerRole = (await auth.access.organizationRole(integration.organizationId)) ?? null;
  const role = (await auth.access.membership(installation.organizationId))
    ? ((await auth.access.organizationRole(installation.organizationId)) ?? null)
    : undefined;
  if (role === undefined && !atLeast(ownerRole, 'admin')) throw notThere();
  if (admin && !atLeast(role ?? null, 'admin')) throw insufficientRole('admin', role ?? null, `organization ${installation.organizationId}`);
  return installation;
}

function installationRoutes(app: FastifyInstance, deps: ApiDeps, urls: UrlBuilder): void {
  app.get<{ Params: NameParams; Querystring: Record<string, string> }>(
    '/v1/integrations/:integrationName/installations',
    { schema: { params: nameParams, querystring: listQuery } },
    async (request) => {
      const page = await deps.store.integrations.installations(request.params.integrationName, pageQuery(request.query));
      return listEnvelope(
        page.items.map((i) => installationObject(i, urls)),
        page.next,
        page.total,
      );
    },
  );

  app.post<{ Params: NameParams; Body: { organization: string } }>(
    '/v1/integrations/:integrationName/installations',
    { schema: { params: nameParams, body: installBody } },
    async (request, reply) => {
      const auth = requireAuth(request);
      await requireOrgAdmin(auth, request.body.organization);
      const { installation, created } = await deps.store.integrations.install(request.params.integrationName, request.body.organization);
      await startWebhookSubscriber(workflowStarter(deps), webhookSubscriberInput(deps.config, installation));
      const location = urls.api(`/integrations/${installation.integrationName}/installations/${installation.id}`);
      return reply
        .status(created ? 201 : 200)
        .header('location', location)
        .send(installationObject(installation, urls));
    },
  );

  app.get<{ Params: InstallationParams }>('/v1/integrations/:integrationName/installations/:installationId', async (request) =>
    installationObject(await loadInstallation(deps, request, false), urls),
  );

  app.patch<{ Params: InstallationParams; Body: Record<string, unknown> }>(
    '/v1/integrations/:integrationName/installations/:installationId',
    { schema: { body: updateInstallationBody } },
    async (request) => {
      const installation = await loadInstallation(deps, request, true);
      const body = request.body as {
        space_selection?: 'all' | 'selected';
        spaces?: string[];
        site_selection?: 'all' | 'selected';
        sites?: string[];
        status?: 'active' | 'paused';
        configuration?: never;
      };
      if (body.spaces !== undefined && body.space_selection !== 'selected') throw badRequest('body.spaces needs space_selection "selected"');
      if (body.sites !== undefined && body.site_selection !== 'selected') throw badRequest('body.sites needs site_selection "selected"');
      try {
        const updated = await deps.store.integrations.updateInstallation(installation.id, {
          spaceSelection: body.space_selection,
          spaces: body.space_selection === 'all' ? [] : body.spaces,
          siteSelection: body.site_selection,
          sites: body.site_selection === 'all' ? [] : body.sites,
          status: body.status,
          configuration: body.configuration,
        });
        return installationObject(updated, urls);
      } catch (err) {
        if (err instanceof Error && err.name === 'ValidationError')
          throw badRequest(`body.${err.message.startsWith('site') ? 'sites' : 'spaces'}: ${err.message}`);
        throw err;
      }
    },
  );
}

function eventRoutes(app: FastifyInstance, deps: ApiDeps): void {
  app.get<{ Params: NameParams; Querystring: Record<string, string> }>(
    '/v1/integrations/:integrationName/events',
    { schema: { params: nameParams, querystring: listQuery } },
    async (request) => {
      const page = await deps.store.integrations.deliveries(request.params.integrationName, pageQuery(request.query));
      return listEnvelope(page.items.map(integrationEventObject), page.next, page.total);
    },
  );

  app.get<{ Params: EventParams }>('/v1/integrations/:integrationName/events/:eventId', async (request) => {
    const delivery = await deps.store.integrations.delivery(request.params.eventId);
    if (!delivery || delivery.integrationName !== request.params.integrationName || delivery.status === 'pending')
      throw notFound(`event not found: ${request.params.eventId}`);
    return { event: integrationEventObject(delivery), trace: eventTraceObject(await deps.store.integrations.logs(delivery.id)) };
  });
}
