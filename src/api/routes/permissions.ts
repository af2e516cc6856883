/**
 * Permissions on content, the official paths: `POST /v1/spaces/{spaceId}/permissions` (grant a role to users and
 * teams), `GET …/permissions/users`, `…/permissions/teams`, `PATCH|DELETE …/users/{userId}`, `…/teams/{teamId}`, and
 * `GET …/permissions/aggregate` (everyone who can reach the space, with their role there). `contentPermissionRoutes` is
 * written for any kind of content: collections register the same routes under `/v1/collections/{collectionId}`
 * (./collections.ts), and their grants count for everything inside them (src/people/access.ts).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { AccessResolver, type CollectionNode } from '../../people/access.js';
import type { ContentRef, MemberRole, SpaceRecord } from '../../store/index.js';
import { actorOf, requireAuth } from '../auth.js';
import type { ApiDeps } from '../deps.js';
import { badRequest } from '../http-errors.js';
import { teamObject } from '../objects/people.js';
import { userObject } from '../objects/user.js';
import type { UrlBuilder } from '../objects/urls.js';
import { listEnvelope, pageQuery, paginateArray } from '../pagination.js';
import { ROLE_OR_GUEST } from './members.js';
import { loadSpace } from './spaces.js';

/** What the routes need of one kind of content: the path parameter, and the content the caller may see. */
export interface ContentKind {
  /** `/v1/spaces/:spaceId` */
  prefix: string;
  /** The content and its organization (404 when the caller cannot see it: the access gate did that already). */
  load(request: FastifyRequest): Promise<{ ref: ContentRef; organizationId: string; space?: SpaceRecord; collection?: CollectionNode }>;
}

const inviteBody = {
  type: 'object',
  required: ['role'],
  properties: {
    role: ROLE_OR_GUEST,
    users: { type: 'array', minItems: 1, maxItems: 1000, items: { type: 'string', maxLength: 64 } },
    teams: { type: 'array', minItems: 1, maxItems: 1000, items: { type: 'string', maxLength: 64 } },
  },
} as const;
const roleBody = { type: 'object', required: ['role'], properties: { role: ROLE_OR_GUEST } } as const;

export function contentPermissionRoutes(app: FastifyInstance, deps: ApiDeps, urls: UrlBuilder, kind: ContentKind): void {
  const { store } = deps;
  const p = `${kind.prefix}/permissions`;

  app.post<{ Body: { role: MemberRole | null; users?: string[]; teams?: string[] } }>(p, { schema: { body: inviteBody } }, async (request, reply) => {
    const { ref, organizationId } = await kind.load(request);
    const { users = [], teams = [] } = request.body;
    if (users.length + teams.length === 0) throw badRequest('name the users or the teams to give the role to');
    const principals = [...users.map((id) => ({ kind: 'user' as const, id })), ...teams.map((id) => ({ kind: 'team' as const, id }))];
    await store.permissions.set(organizationId, ref, principals, request.body.role, actorOf(request));
    return reply.status(204).send();
  });

  app.get(`${p}/users`, async (request) => {
    const { ref } = await kind.load(request);
    const result = await store.permissions.list(ref, 'user', pageQuery(request.query as Record<string, unknown>));
    const users = await store.users.getMany(result.items.map((g) => g.principal.id));
    const items = result.items.flatMap((g) => {
      const user = users.get(g.principal.id);
      return user ? [{ permission: g.role, user: userObject(user, urls) }] : [];
    });
    return listEnvelope(items, result.next, result.total);
  });

  app.get(`${p}/teams`, async (request) => {
    const { ref, organizationId } = await kind.load(request);
    const callerRole = (await requireAuth(request).access.organizationRole(organizationId)) ?? null;
    const result = await store.permissions.list(ref, 'team', pageQuery(request.query as Record<string, unknown>));
    const teams = await Promise.all(result.items.map((g) => store.teams.get(organizationId, g.principal.id)));
    const items = result.items.flatMap((g, i) => (teams[i] ? [{ permission: g.role, team: teamObject(teams[i], callerRole) }] : []));
    return listEnvelope(items, result.next, result.total);
  });

  for (const principal of ['users', 'teams'] as const) {
    const param = principal === 'users' ? 'userId' : 'teamId';
    const principalOf = (request: FastifyRequest) => ({
      kind: principal === 'users' ? ('user' as const) : ('team' as const),
      id: (request.params as Record<string, string>)[param]!,
    });
    app.patch<{ Body: { role: MemberRole | null } }>(`${p}/${principal}/:${param}`, { schema: { body: roleBody } }, async (request, reply) => {
      const { ref, organizationId } = await kind.load(request);
      await store.permissions.set(organizationId, ref, [principalOf(request)], request.body.role, actorOf(request));
      return reply.status(204).send();
    });
    /** 205 when the grant was removed, 204 when there was none. */
    app.delete(`${p}/${principal}/:${param}`, async (request, reply) => {
      const { ref, organizationId } = await kind.load(request);
      const removed = await store.permissions.remove(organizationId, ref, principalOf(request), actorOf(request));
      return reply.status(removed ? 205 : 204).send();
    });
  }

  /** Every member who can reach the content, with their role there (computed as for their own requests). */
  app.get<{ Querystring: { role?: string } }>(`${p}/aggregate`, async (request) => {
    const { organizationId, space, collection } = await kind.load(request);
    const wanted = request.query.role;
    const items: Array<{ permission: MemberRole; user: ReturnType<typeof userObject> }> = [];
    let page: string | undefined;
    do {
      const members = await store.members.list(organizationId, { limit: 1000, sort: 'name', order: 'asc', ...(page ? { page } : {}) });
      for (const m of members.items) {
        if (m.disabled || (!space && !collection)) continue;
        const theirs = new AccessResolver(store, { kind: 'user', userId: m.userId, organizationId, tokenId: null, scope: 'write' });
        const role = space ? await theirs.spaceRole(space) : await theirs.collectionRole(collection!);
        if (role && (!wanted || wanted === role)) items.push({ permission: role, user: userObject(m.user, urls) });
      }
      page = members.next?.page;
    } while (page);
    return paginateArray('aggregate', items, pageQuery(request.query as Record<string, unknown>));
  });
}

/** The space kind: `/v1/spaces/:spaceId/permissions/…`. */
export function spacePermissionRoutes(app: FastifyInstance, deps: ApiDeps, urls: UrlBuilder): void {
  contentPermissionRoutes(app, deps, urls, {
    prefix: '/v1/spaces/:spaceId',
    async load(request) {
      const space = await loadSpace(deps, request, (request.params as { spaceId: string }).spaceId);
      return { ref: { kind: 'space', id: space.id }, organizationId: space.organizationId, space };
    },
  });
}
