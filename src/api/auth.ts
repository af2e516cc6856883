import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Store } from '../store/index.js';
import { unauthorized } from './http-errors.js';

export interface AuthContext {
  organizationId: string;
  tokenId: string;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
  }
}

/** Bearer-token authentication for every `/v1` route: 401 without a valid token. */
export function installAuth(app: FastifyInstance, store: Store): void {
  app.decorateRequest('auth', null);
  app.addHook('onRequest', async (request) => {
    if (!request.url.startsWith('/v1/') && request.url !== '/v1') return;
    const header = request.headers.authorization;
    const match = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
    if (!match) throw unauthorized();
    const verified = await store.tokens.verify(match[1]!);
    if (!verified) throw unauthorized('the bearer token is not valid');
    request.auth = { organizationId: verified.orgId, tokenId: verified.tokenId };
  });
}

export function requireAuth(request: FastifyRequest): AuthContext {
  if (!request.auth) throw unauthorized();
  return request.auth;
}
