/**
 * SAML providers of an organization (the official `/v1/orgs/{organizationId}/saml[/{samlProviderId}]`), the SSO logins
 * it offers (`GET /v1/orgs/{organizationId}/sso`), the audit trail of role and permission changes (Folio's
 * `GET /v1/orgs/{organizationId}/audit`), and the login flow itself, outside `/v1` (no bearer token: the browser
 * follows it): `GET /sso/saml/{id}/start` redirects to the IdP, `POST /sso/saml/{id}/acs` receives its signed
 * response and answers a personal token, `GET /sso/saml/{id}/metadata` is Folio's SP metadata for the IdP.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { parse as parseQuery } from 'node:querystring';
import { finishLogin, serviceProviderMetadata, serviceProvider, SsoMemberDisabledError, SsoNotConfiguredError, startLogin } from '../../people/sso.js';
import { SamlRejectedError } from '../../people/saml-verify.js';
import type { MemberRole, SamlProviderInput, SamlProviderRecord } from '../../store/index.js';
import { actorOf, requireOrg } from '../auth.js';
import type { ApiDeps } from '../deps.js';
import { HttpError, conflict, notFound } from '../http-errors.js';
import { auditEventObject, samlProviderObject, samlStatus, teamObject } from '../objects/people.js';
import { userObject } from '../objects/user.js';
import type { UrlBuilder } from '../objects/urls.js';
import { iso } from '../objects/urls.js';
import { listEnvelope, pageQuery } from '../pagination.js';
import { ROLE_OR_GUEST } from './members.js';

const providerProperties = {
  label: { type: 'string', minLength: 1, maxLength: 30 },
  entityID: { type: 'string', maxLength: 1024 },
  certificate: { type: 'string', maxLength: 10000 },
  ssoURL: { type: 'string', format: 'uri', maxLength: 2048 },
  defaultTeam: { type: 'string', maxLength: 64 },
  defaultRole: ROLE_OR_GUEST,
} as const;

type ProviderBody = { label?: string; entityID?: string; certificate?: string; ssoURL?: string; defaultTeam?: string; defaultRole?: MemberRole | null };

function inputOf(body: ProviderBody): SamlProviderInput {
  return {
    ...(body.label !== undefined ? { label: body.label } : {}),
    ...(body.entityID !== undefined ? { entityId: body.entityID } : {}),
    ...(body.certificate !== undefined ? { certificate: body.certificate } : {}),
    ...(body.ssoURL !== undefined ? { ssoUrl: body.ssoURL } : {}),
    ...(body.defaultTeam !== undefined ? { defaultTeamId: body.defaultTeam } : {}),
    ...(body.defaultRole !== undefined ? { defaultRole: body.defaultRole } : {}),
  };
}

export function samlRoutes(app: FastifyInstance, deps: ApiDeps, urls: UrlBuilder): void {
  const { store } = deps;
  const root = () => urls.api('/').replace(/\/v1\/$/, '');
  const body = async (request: FastifyRequest, provider: SamlProviderRecord) => {
    const auth = requireOrg(request, provider.organizationId);
    const team = provider.defaultTeamId ? await store.teams.get(provider.organizationId, provider.defaultTeamId) : null;
    return samlProviderObject(provider, team ? teamObject(team, auth.role) : null, urls, root());
  };
  const load = async (organizationId: string, id: string) => {
    const provider = await store.saml.get(organizationId, id);
    if (!provider) throw notFound(`SAML provider not found: ${id}`);
    return provider;
  };
  type P = { organizationId: string; samlProviderId: string };

  app.get<{ Params: { organizationId: string } }>('/v1/orgs/:organizationId/saml', async (request) => {
    requireOrg(request, request.params.organizationId);
    const result = await store.saml.list(request.params.organizationId, pageQuery(request.query as Record<string, unknown>));
    return listEnvelope(await Promise.all(result.items.map((p) => body(request, p))), result.next, result.total);
  });
  app.post<{ Params: { organizationId: string }; Body: ProviderBody & { label: string } }>(
    '/v1/orgs/:organizationId/saml',
    { schema: { body: { type: 'object', required: ['label'], properties: providerProperties } } },
    async (request, reply) => {
      requireOrg(request, request.params.organizationId);
      const created = await store.saml.create(request.params.organizationId, { ...inputOf(request.body), label: request.body.label }, actorOf(request));
      const object = await body(request, created);
      return reply.status(201).header('location', object.urls.location).send(object);
    },
  );
  app.get<{ Params: P }>('/v1/orgs/:organizationId/saml/:samlProviderId', async (request) =>
    body(request, await load(request.params.organizationId, request.params.samlProviderId)),
  );
  app.patch<{ Params: P; Body: ProviderBody }>(
    '/v1/orgs/:organizationId/saml/:samlProviderId',
    { schema: { body: { type: 'object', properties: providerProperties } } },
    async (request) => {
      requireOrg(request, request.params.organizationId);
      await load(request.params.organizationId, request.params.samlProviderId);
      return body(
        request,
        await store.saml.update(request.params.organizationId, request.params.samlProviderId, inputOf(request.body ?? {}), actorOf(request)),
      );
    },
  );
  app.delete<{ Params: P }>('/v1/orgs/:organizationId/saml/:samlProviderId', async (request, reply) => {
    requireOrg(request, request.params.organizationId);
    const deleted = await store.saml.delete(request.params.organizationId, request.params.samlProviderId, actorOf(request));
    return reply.status(deleted ? 205 : 204).send();
  });

  /** The logins members can start: the active providers. */
  app.get<{ Params: { organizationId: string } }>('/v1/orgs/:organizationId/sso', async (request) => {
    requireOrg(request, request.params.organizationId);
    const { items } = await store.saml.list(request.params.organizationId, { limit: 1000 });
    return { items: items.filter((p) => samlStatus(p) === 'active').map((p) => ({ id: p.id, label: p.label, startURL: serviceProvider(p, root()).startUrl })) };
  });

  app.get<{ Params: { organizationId: string }; Querystring: { action?: string } }>('/v1/orgs/:organizationId/audit', async (request) => {
    requireOrg(request, request.params.organizationId);
    const action = typeof request.query.action === 'string' && request.query.action ? request.query.action : undefined;
    const result = await store.audit.list(request.params.organizationId, {
      ...pageQuery(request.query as Record<string, unknown>),
      ...(action ? { action } : {}),
    });
    return listEnvelope(result.items.map(auditEventObject), result.next, result.total);
  });

  ssoFlowRoutes(app, deps, urls, root);
}

/** A SAML response is a few kilobytes; anything past this is refused before it is parsed. */
const MAX_ACS_BYTES = 256 * 1024;

function ssoFlowRoutes(app: FastifyInstance, deps: ApiDeps, urls: UrlBuilder, root: () => string): void {
  const { store } = deps;
  const provider = async (id: string) => {
    const found = /^[A-Za-z0-9_-]{1,64}$/.test(id) ? await store.saml.byId(id) : null;
    if (!found) throw notFound(`SAML provider not found: ${id}`);
    return found;
  };
  const refused = (request: FastifyRequest, providerId: string, err: unknown): never => {
    if (err instanceof SsoNotConfiguredError) throw conflict(err.message);
    if (err instanceof SsoMemberDisabledError) throw new HttpError(403, 'MEMBER_DISABLED', `${err.message} (MEMBER_DISABLED)`);
    if (err instanceof SamlRejectedError) {
      request.log.warn({ providerId, reason: err.reason }, 'SAML response refused');
      throw new HttpError(401, 'SAML_REJECTED', `${err.message} (SAML_REJECTED)`);
    }
    throw err;
  };

  app.get<{ Params: { providerId: string } }>('/sso/saml/:providerId/start', async (request, reply) => {
    const found = await provider(request.params.providerId);
    const location = await startLogin(store, found, serviceProvider(found, root())).catch((err: unknown) => refused(request, found.id, err));
    return reply.status(302).header('location', location).header('cache-control', 'no-store').send();
  });

  app.get<{ Params: { providerId: string } }>('/sso/saml/:providerId/metadata', async (request, reply) => {
    const found = await provider(request.params.providerId);
    return reply.type('application/samlmetadata+xml').send(serviceProviderMetadata(found, serviceProvider(found, root())));
  });

  void app.register(async (scope) => {
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: MAX_ACS_BYTES }, (_request, text, done) =>
      done(null, parseQuery(text as string)),
    );
    scope.post<{ Params: { providerId: string } }>('/sso/saml/:providerId/acs', { bodyLimit: MAX_ACS_BYTES }, async (request, reply) => {
      const found = await provider(request.params.providerId);
      const form = (request.body ?? {}) as Record<string, unknown>;
      if (typeof form.SAMLResponse !== 'string' || form.SAMLResponse === '') throw new HttpError(400, 'BAD_REQUEST', 'the form carries no SAMLResponse');
      const pool = deps.parsePool;
      if (!pool) throw new Error('the API has no parse pool');
      const session = await finishLogin(store, (...args) => pool.run('saml.verify', ...args), found, serviceProvider(found, root()), form.SAMLResponse).catch(
        (err: unknown) => refused(request, found.id, err),
      );
      request.log.info({ providerId: found.id, userId: session.user.id, tokenId: session.tokenId }, 'SSO login');
      return reply.header('cache-control', 'no-store').send({
        object: 'sso-session',
        organization: found.organizationId,
        user: userObject(session.user, urls),
        role: session.member.role,
        token: session.token,
        expiresAt: iso(session.expiresAt),
      });
    });
  });
}
