import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AccessResolver, type CollectionSource, type Principal } from '../people/access.js';
import { atLeast, type MemberRole } from '../people/roles.js';
import type { AuditActor, CollectionRecord, SpaceRecord, Store, TokenScope } from '../store/index.js';
import { routeAccess, type RouteAccess } from './access.js';
import { badRequest, HttpError, notFound, readOnlyToken, unauthorized } from './http-errors.js';

export interface AuthContext {
  /** The organization this request acts in: its target's (`:organizationId`, the space's), else the token's own. */
  organizationId: string;
  tokenId: string;
  scope: TokenScope;
  /** The user a personal token (or an SSO session) acts for; null for a service token. */
  userId: string | null;
  principal: Principal;
  /** The caller's roles, for this request (lists compute each object's permissions with it). */
  access: AccessResolver;
  /** The caller's role on the route's target (organization or space), capped by the token's scope; null: none. */
  role: MemberRole | null;
  /** `space` targets: the space the gate found (null: not visible to the caller, for routes where absence passes). */
  space?: SpaceRecord | null;
  /** `collection` targets: the collection the gate found (null: not visible to the caller, for routes where absence passes). */
  collection?: CollectionRecord | null;
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

/** A write the caller's role does not allow on an object they can see (403, code INSUFFICIENT_ROLE). */
export const insufficientRole = (needed: MemberRole, has: MemberRole | null, what: string) =>
  new HttpError(403, 'INSUFFICIENT_ROLE', `this needs the ${needed} role on ${what}; the caller has ${has ?? 'no role'} there (INSUFFICIENT_ROLE)`);

/** A `/v1` route that declares no role in src/api/access.ts: refused whatever the token (fail closed). */
export const routeNotDeclared = (key: string) =>
  new HttpError(403, 'ROUTE_NOT_DECLARED', `${key} declares no role in the access table, so nobody may call it (ROUTE_NOT_DECLARED)`);

function isApiPath(url: string): boolean {
  return url.startsWith('/v1/') || url === '/v1' || url.startsWith('/v1?');
}

async function principalOf(store: Store, header: unknown): Promise<Principal> {
  const match = typeof header === 'string' ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  if (!match) throw unauthorized();
  const verified = await store.tokens.verify(match[1]!);
  if (!verified) throw unauthorized('the bearer token is not valid');
  return verified.userId
    ? { kind: 'user', userId: verified.userId, organizationId: verified.orgId, tokenId: verified.tokenId, scope: verified.scope }
    : { kind: 'service', organizationId: verified.orgId, tokenId: verified.tokenId, scope: verified.scope };
}

/**
 * Bearer-token authentication and the one authorization check of every `/v1` route: 401 without a valid token
 * (unknown, revoked or expired, checked against the store on every request), 403 for a read-scoped token on anything
 * but GET, HEAD and the routes marked `config: { readOnly: true }` (searches whose query is a body), then the route's entry of the access table (./access.ts): a route without one is refused; a
 * target the caller cannot see answers 404 exactly as an unknown one; a role too weak on a visible target answers 403
 * (INSUFFICIENT_ROLE). Spaces a request body names are checked once the body is parsed (preHandler).
 */
export function installAuth(app: FastifyInstance, store: Store, options: { collections?: CollectionSource } = {}): void {
  app.decorateRequest('auth', null);
  app.addHook('onRequest', async (request) => {
    if (!isApiPath(request.url)) return;
    const principal = await principalOf(store, request.headers.authorization);
    if (principal.scope !== 'write' && !READ_METHODS.has(request.method) && request.routeOptions.config?.readOnly !== true) throw readOnlyToken();
    const access = new AccessResolver(store, principal, options.collections);
    request.auth = {
      organizationId: principal.organizationId,
      tokenId: principal.tokenId ?? '',
      scope: principal.scope,
      userId: access.userId,
      principal,
      access,
      role: null,
    };
    const url = request.routeOptions.url;
    // No such route: the not-found handler answers (a valid token learns only that the path does not exist).
    if (!url || request.is404) return;
    const entry = routeAccess(request.method, url);
    if (!entry) throw routeNotDeclared(`${request.method} ${url}`);
    await decide(store, request, request.auth, entry);
  });
  app.addHook('preHandler', async (request) => {
    const url = request.routeOptions.url;
    if (!request.auth || !url || !isApiPath(request.url)) return;
    const entry = routeAccess(request.method, url);
    if (entry?.body) await checkBodySpaces(store, request.auth, entry, request.body);
  });
}

function deny(auth: AuthContext, entry: RouteAccess, uncapped: MemberRole | null, what: string): never {
  if (auth.scope === 'read' && atLeast(uncapped, entry.role)) throw readOnlyToken();
  throw insufficientRole(entry.role, auth.scope === 'read' && uncapped ? 'read' : uncapped, what);
}

async function decide(store: Store, request: FastifyRequest, auth: AuthContext, entry: RouteAccess): Promise<void> {
  const params = (request.params ?? {}) as Record<string, string | undefined>;
  switch (entry.target) {
    case 'caller':
      return;
    case 'org':
      return decideOrg(store, auth, entry, params.organizationId ?? '');
    case 'space':
      return decideSpace(store, auth, entry, params.spaceId ?? '');
    case 'collection':
      return decideCollection(store, auth, entry, params.collectionId ?? '');
    case 'user':
    case 'self':
      return decideUser(store, auth, entry, params.userId ?? '');
    case 'invite':
      return decideInvite(store, auth, params.organizationId ?? '', params.inviteId ?? '');
    case 'integration':
      return decideIntegration(store, auth, entry, params.integrationName ?? '');
  }
}

async function decideOrg(store: Store, auth: AuthContext, entry: RouteAccess, organizationId: string): Promise<void> {
  const membership = await auth.access.membership(organizationId);
  if (!membership) throw notFound(`organization not found: ${organizationId}`);
  auth.organizationId = organizationId;
  auth.role = (await auth.access.organizationRole(organizationId)) ?? null;
  if (auth.userId) await store.members.touch(organizationId, auth.userId);
  if (entry.guests && membership.role === null) return;
  if (!atLeast(auth.role, entry.role)) deny(auth, entry, membership.role, `organization ${organizationId}`);
}

/** The integration's owning organization decides, as an `org` target; a public integration is readable by anyone. */
async function decideIntegration(store: Store, auth: AuthContext, entry: RouteAccess, name: string): Promise<void> {
  const integration = await store.integrations.get(name);
  if (!integration) throw integrationNotFound(name);
  const membership = await auth.access.membership(integration.organizationId);
  if (!membership) {
    if (integration.visibility === 'public' && entry.role === 'read') return;
    throw integrationNotFound(name);
  }
  await decideOrg(store, auth, entry, integration.organizationId);
}

/** The 404 of an integration the caller cannot see: the same body whether it exists elsewhere or not at all. */
export const integrationNotFound = (name: string): HttpError => notFound(`integration not found: ${name}`);

async function decideSpace(store: Store, auth: AuthContext, entry: RouteAccess, spaceId: string): Promise<void> {
  const space = await store.spaces.get(spaceId, { includeDeleted: entry.deleted ?? false });
  const uncapped = space ? await auth.access.spaceRole(space, { uncapped: true }) : null;
  if (!space || uncapped === null) {
    if (entry.absentPasses) {
      auth.space = null;
      return;
    }
    throw notFound(`space not found: ${spaceId}`);
  }
  auth.organizationId = space.organizationId;
  auth.space = space;
  auth.role = await auth.access.spaceRole(space);
  if (auth.userId) await store.members.touch(space.organizationId, auth.userId);
  if (!atLeast(auth.role, entry.role)) deny(auth, entry, uncapped, `space ${space.id}`);
}

async function decideCollection(store: Store, auth: AuthContext, entry: RouteAccess, collectionId: string): Promise<void> {
  const collection = await store.collections.get(collectionId);
  const uncapped = collection ? await auth.access.collectionRole(collection, { uncapped: true }) : null;
  if (!collection || uncapped === null) {
    if (entry.absentPasses) {
      auth.collection = null;
      return;
    }
    throw notFound(`collection not found: ${collectionId}`);
  }
  auth.organizationId = collection.organizationId;
  auth.collection = collection;
  auth.role = await auth.access.collectionRole(collection);
  if (auth.userId) await store.members.touch(collection.organizationId, auth.userId);
  if (!atLeast(auth.role, entry.role)) deny(auth, entry, uncapped, `collection ${collection.id}`);
}

async function decideUser(store: Store, auth: AuthContext, entry: RouteAccess, userId: string): Promise<void> {
  const p = auth.principal;
  const self = p.kind === 'user' && p.userId === userId;
  const visible =
    self || (p.kind === 'user' ? await store.users.shareOrganization(p.userId, userId) : (await store.members.get(p.organizationId, userId)) !== null);
  if (!visible) throw notFound(`user not found: ${userId}`);
  if (entry.target === 'self' && !self) throw new HttpError(403, 'NOT_THE_USER', `only user ${userId} may change their own profile (NOT_THE_USER)`);
}

async function decideInvite(store: Store, auth: AuthContext, organizationId: string, inviteId: string): Promise<void> {
  if (auth.principal.kind !== 'user')
    throw new HttpError(403, 'USER_TOKEN_REQUIRED', 'joining an organization needs a personal token: a service token is no one (USER_TOKEN_REQUIRED)');
  const invite = await store.invites.get(organizationId, inviteId);
  if (!invite) throw notFound(`invite not found in organization ${organizationId}`);
  auth.organizationId = organizationId;
}

async function checkBodySpaces(store: Store, auth: AuthContext, entry: RouteAccess, body: unknown): Promise<void> {
  const reference = entry.body!;
  for (const id of reference.spaces(body)) {
    const space = await store.spaces.get(id);
    // Unknown spaces and other organizations' are the handler's to refuse, with its own answer.
    if (!space || space.organizationId !== auth.organizationId) continue;
    const uncapped = await auth.access.spaceRole(space, { uncapped: true });
    if (uncapped === null)
      throw reference.missing === 'bad-request'
        ? badRequest(`${reference.field ?? 'space'}: space not found: ${id.slice(0, 100)}`)
        : notFound(`space not found: ${id}`);
    const role = await auth.access.spaceRole(space);
    if (!atLeast(role, reference.role)) deny(auth, { ...entry, role: reference.role }, uncapped, `space ${space.id}`);
  }
}

export function requireAuth(request: FastifyRequest): AuthContext {
  if (!request.auth) throw unauthorized();
  return request.auth;
}

/** Who the audit trail records for a change this request makes. */
export function actorOf(request: FastifyRequest): AuditActor {
  const auth = requireAuth(request);
  return { userId: auth.userId, tokenId: auth.tokenId || null, via: 'api' };
}

/** The 404 of an organization the caller cannot see: the same body whether it exists elsewhere or not at all. */
export const organizationNotFound = (organizationId: string): HttpError => notFound(`organization not found: ${organizationId}`);

/**
 * The caller's auth when the request acts in `organizationId` (the access gate resolved it from the route's target);
 * otherwise 404, exactly as for an unknown organization (a 403 would tell which ids exist).
 */
export function requireOrg(request: FastifyRequest, organizationId: string): AuthContext {
  const auth = requireAuth(request);
  if (auth.organizationId !== organizationId) throw organizationNotFound(organizationId);
  return auth;
}

/**
 * The id recorded as who did something (a change request's author, its merger, an import's starter): the user, or
 * for a service token the token's id (the organization's installation; no user is behind it).
 */
export function actorId(auth: AuthContext): string {
  return auth.userId ?? auth.tokenId;
}
