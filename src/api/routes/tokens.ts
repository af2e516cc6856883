import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { TokenScope } from '../../store/index.js';
import { parseTokenLifetime } from '../../store/token-lifetime.js';
import { requireOrg } from '../auth.js';
import type { ApiDeps } from '../deps.js';
import { badRequest, notFound } from '../http-errors.js';
import { tokenObject } from '../objects/token.js';
import { decodeOffsetCursor, encodeOffsetCursor, listEnvelope, pageQuery } from '../pagination.js';

const createTokenBody = {
  type: 'object',
  additionalProperties: false,
  properties: {
    label: { type: 'string', maxLength: 200 },
    scope: { type: 'string', enum: ['read', 'write'] },
    expiresAt: { type: 'string', format: 'date-time' },
    expiresIn: { type: 'string', maxLength: 16 },
    /** A personal token of this member (who it acts for); absent: a service token of the organization. */
    user: { type: 'string', maxLength: 64 },
  },
} as const;

interface CreateTokenBody {
  label?: string;
  scope?: TokenScope;
  expiresAt?: string;
  expiresIn?: string;
  user?: string;
}

/**
 * The token administration of an organization (a Folio addition; GitBook's API has no such routes): the access
 * table gives it to the organization's admins (a write service token is one), so a read-only token can neither see
 * the others nor mint a write token. Another organization answers 404, as does a token id of another organization.
 */
const requireTokenAdmin = (request: FastifyRequest, organizationId: string) => requireOrg(request, organizationId);

export function tokenRoutes(app: FastifyInstance, deps: ApiDeps): void {
  app.get<{ Params: { organizationId: string } }>('/v1/orgs/:organizationId/tokens', async (request) => {
    requireTokenAdmin(request, request.params.organizationId);
    const { limit, page } = pageQuery(request.query as Record<string, unknown>);
    const offset = decodeOffsetCursor('tokens', page);
    const all = await deps.store.tokens.list(request.params.organizationId);
    const items = all.slice(offset, offset + limit).map((t) => tokenObject(t));
    const next = offset + limit < all.length ? { page: encodeOffsetCursor('tokens', offset + limit) } : undefined;
    return listEnvelope(items, next, all.length);
  });

  app.post<{ Params: { organizationId: string }; Body: CreateTokenBody | undefined }>(
    '/v1/orgs/:organizationId/tokens',
    { schema: { body: createTokenBody } },
    async (request, reply) => {
      requireTokenAdmin(request, request.params.organizationId);
      const body = request.body ?? {};
      if (body.expiresAt !== undefined && body.expiresIn !== undefined) throw badRequest('give expiresAt or expiresIn, not both');
      const expiresAt =
        body.expiresIn !== undefined
          ? new Date(Date.now() + parseTokenLifetime(body.expiresIn))
          : body.expiresAt !== undefined
            ? new Date(body.expiresAt)
            : null;
      const created = await deps.store.tokens.create(request.params.organizationId, {
        label: body.label,
        scope: body.scope ?? 'write',
        expiresAt,
        ...(body.user !== undefined ? { userId: body.user } : {}),
      });
      request.log.info(
        { organizationId: request.params.organizationId, tokenId: created.id, scope: created.record.scope, userId: created.record.userId },
        'API token created',
      );
      // The secret is in this response only; the store keeps its sha256.
      return reply.status(201).send({ ...tokenObject(created.record), token: created.token });
    },
  );

  app.get<{ Params: { organizationId: string; tokenId: string } }>('/v1/orgs/:organizationId/tokens/:tokenId', async (request) => {
    requireTokenAdmin(request, request.params.organizationId);
    const token = await deps.store.tokens.get(request.params.organizationId, request.params.tokenId);
    if (!token) throw notFound(`token not found: ${request.params.tokenId}`);
    return tokenObject(token);
  });

  app.delete<{ Params: { organizationId: string; tokenId: string } }>('/v1/orgs/:organizationId/tokens/:tokenId', async (request, reply) => {
    requireTokenAdmin(request, request.params.organizationId);
    await deps.store.tokens.revoke(request.params.organizationId, request.params.tokenId);
    request.log.info({ organizationId: request.params.organizationId, tokenId: request.params.tokenId }, 'API token revoked');
    return reply.status(204).send();
  });
}
