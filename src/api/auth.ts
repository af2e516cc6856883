import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Store } from '../store/index.js';
import type { TokenScope } from '../store/index.js';
import { notFound, readOnlyToken, unauthorized, type HttpError } from './http-errors.js';

export interface AuthContext {
  organizationId: string;
  tokenId: string;
  scope: TokenScope;
}

/** The only methods a read-scoped token may use. */
const READ_METHODS = new Set(['GET', 'HEAD']);

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
  }
  interface FastifyContextConfig {
    /**
     * The route only reads although its method is not GET or HEAD (a search whose query is a body): a read-scoped
     * token may use it. Such a route must never write.
     */
    readOnly?: boolean;
  }
}

/**
 * Bearer-token authentication for every `/v1` route: 401 without a valid token (unknown, revoked or expired,
 * checked against the store on every request), 403 for a read-scoped token on anything but GET, HEAD and the routes
 * marked `config: { readOnly: true }` (searches whose query is a body), so that every route, present or future, is
 * covered here. GET routes and routes marked read-only must therefore never write.
 */
export function installAuth(app: FastifyInstance, store: Store): void {
  app.decorateRequest('auth', null);
  app.addHook('onRequest', async (request) => {
    if (!request.url.startsWith('/v1/') && request.url !== '/v1') return;
    const header = request.headers.authorization;
    const match = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    if (!match) throw unauthorized();
    const verified = await store.tokens.verify(match[1]!);
    if (!verified) throw unauthorized('the bearer token is not valid');
    if (verified.scope !== 'write' && !READ_METHODS.has(request.method) && request.routeOptions.config?.readOnly !== true) throw readOnlyToken();
    request.auth = { organizationId: verified.orgId, tokenId: verified.tokenId, scope: verified.scope };
  });
}

export function requireAuth(request: FastifyRequest): AuthContext {
  if (!request.auth) throw unauthorized();
  return request.auth;
}

/** The 404 of an organization the caller cannot see: the same body whether it exists elsewhere or not at all. */
export const organizationNotFound = (organizationId: string): HttpError => notFound(`organization not found: ${organizationId}`);

/**
 * The caller's auth when its token belongs to `organizationId`; otherwise 404, exactly as for an unknown
 * organization (a 403 would tell which ids exist).
 */
export function requireOrg(request: FastifyRequest, organizationId: string): AuthContext {
  const auth = requireAuth(request);
  if (auth.organizationId !== organizationId) throw organizationNotFound(organizationId);
  return auth;
}
