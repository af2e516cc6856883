/**
 * Users and organization members, in the official shapes: `GET /v1/user` (the caller), `GET|PATCH /v1/users/{userId}`,
 * `GET /v1/orgs/{organizationId}/members[/{userId}]`, `PATCH` (role), `DELETE` (removal: the member's personal tokens
 * for the organization are revoked, their teams and grants there dropped), `POST …/{userId}/sso`,
 * `GET …/{userId}/spaces` and `…/{userId}/teams`. Who may call which is the access table's (../access.ts).
 */
import type { FastifyInstance } from 'fastify';
import { AccessResolver } from '../../people/access.js';
import type { MemberRecord, MemberRole } from '../../store/index.js';
import { actorOf, requireAuth, requireOrg } from '../auth.js';
import type { ApiDeps } from '../deps.js';
import { badRequest, conflict, notFound } from '../http-errors.js';
import { memberObject, teamObject } from '../objects/people.js';
import { userObject } from '../objects/user.js';
import type { UrlBuilder } from '../objects/urls.js';
import { listEnvelope, pageQuery, paginateArray } from '../pagination.js';
import { spaceBodies } from '../space-bodies.js';
import { visibleSpaces } from './spaces.js';

export const ROLE_OR_GUEST = { anyOf: [{ type: 'string', enum: ['admin', 'create', 'review', 'edit', 'comment', 'read'] }, { type: 'null' }] } as const;

/** Member objects with their counts (spaces they were given, teams they are in). */
export async function memberBodies(deps: ApiDeps, organizationId: string, members: MemberRecord[], urls: UrlBuilder) {
  const spaces = await deps.store.permissions.countSpacesOfUsers(
    organizationId,
    members.map((m) => m.userId),
  );
  return Promise.all(
    members.map(async (m) =>
      memberObject(m, { spaces: spaces.get(m.userId) ?? 0, teams: (await deps.store.teams.ofUser(organizationId, m.userId)).length }, urls),
    ),
  );
}

async function loadMember(deps: ApiDeps, organizationId: string, userId: string): Promise<MemberRecord> {
  const member = await deps.store.members.get(organizationId, userId);
  if (!member) throw notFound(`member not found: ${userId}`);
  return member;
}

/** Refuses to leave the organization without an admin member (demoting or removing the last one): 409. */
async function keepAnAdmin(deps: ApiDeps, member: MemberRecord, next: MemberRole | null | 'removed'): Promise<void> {
  if (member.role !== 'admin' || next === 'admin') return;
  if ((await deps.store.members.countWithRole(member.organizationId, 'admin')) <= 1)
    throw conflict(`user ${member.userId} is the organization's last admin: make another member admin first`);
}

function userRoutes(app: FastifyInstance, deps: ApiDeps, urls: UrlBuilder): void {
  app.get('/v1/user', async (request) => {
    const auth = requireAuth(request);
    if (!auth.userId) throw notFound('user not found: this is a service token of the organization, not a user’s token');
    const user = await deps.store.users.get(auth.userId);
    if (!user) throw notFound(`user not found: ${auth.userId}`);
    return userObject(user, urls);
  });

  app.get<{ Params: { userId: string } }>('/v1/users/:userId', async (request) => {
    const user = await deps.store.users.get(request.params.userId);
    if (!user) throw notFound(`user not found: ${request.params.userId}`);
    return userObject(user, urls);
  });

  app.patch<{ Params: { userId: string }; Body: { displayName?: string; photoURL?: string } }>(
    '/v1/users/:userId',
    {
      schema: {
        body: {
          type: 'object',
          minProperties: 1,
          properties: { displayName: { type: 'string', minLength: 1, maxLength: 64 }, photoURL: { type: 'string', format: 'uri', maxLength: 2048 } },
        },
      },
    },
    async (request) => {
      const { displayName, photoURL } = request.body;
      if (photoURL !== undefined && !/^https?:\/\//i.test(photoURL)) throw badRequest('photoURL must be an http(s) URL');
      const user = await deps.store.users.update(request.params.userId, {
        ...(displayName !== undefined ? { displayName } : {}),
        ...(photoURL !== undefined ? { photoUrl: photoURL } : {}),
      });
      return userObject(user, urls);
    },
  );
}

const memberQuery = {
  type: 'object',
  properties: {
    role: { type: 'string', enum: ['admin', 'create', 'review', 'edit', 'comment', 'read', 'guest'] },
    search: { type: 'string', maxLength: 200 },
    sort: { type: 'string', enum: ['joinedAt', 'lastSeenAt', 'name'] },
    order: { type: 'string', enum: ['asc', 'desc'] },
  },
} as const;

type MemberParams = { organizationId: string; userId: string };

function memberReadRoutes(app: FastifyInstance, deps: ApiDeps, urls: UrlBuilder): void {
  app.get<{
    Params: { organizationId: string };
    Querystring: { role?: MemberRole | 'guest'; search?: string; sort?: 'joinedAt' | 'lastSeenAt' | 'name'; order?: 'asc' | 'desc' };
  }>('/v1/orgs/:organizationId/members', { schema: { querystring: memberQuery } }, async (request) => {
    const { organizationId } = request.params;
    requireOrg(request, organizationId);
    const { role, search, sort, order } = request.query;
    const result = await deps.store.members.list(organizationId, {
      ...pageQuery(request.query as Record<string, unknown>),
      ...(role ? { role } : {}),
      ...(search ? { search } : {}),
      ...(sort ? { sort } : {}),
      ...(order ? { order } : {}),
    });
    return listEnvelope(await memberBodies(deps, organizationId, result.items, urls), result.next, result.total);
  });

  app.get<{ Params: MemberParams }>('/v1/orgs/:organizationId/members/:userId', async (request) => {
    const { organizationId, userId } = request.params;
    requireOrg(request, organizationId);
    return (await memberBodies(deps, organizationId, [await loadMember(deps, organizationId, userId)], urls))[0];
  });

  /** The spaces the member can reach, with their role there (computed as for the member's own requests). */
  app.get<{ Params: MemberParams }>('/v1/orgs/:organizationId/members/:userId/spaces', async (request) => {
    const { organizationId, userId } = request.params;
    const auth = requireOrg(request, organizationId);
    await loadMember(deps, organizationId, userId);
    const theirs = new AccessResolver(deps.store, { kind: 'user', userId, organizationId, tokenId: null, scope: 'write' });
    const spaces = await visibleSpaces(deps, organizationId, theirs);
    const roles = await theirs.spaceRoles(spaces);
    const page = paginateArray('member-spaces', spaces, pageQuery(request.query as Record<string, unknown>));
    const bodies = await spaceBodies(deps.store, page.items, urls, auth.access);
    return { ...page, items: page.items.map((s, i) => ({ permission: roles.get(s.id)!, space: bodies[i]! })) };
  });

  app.get<{ Params: MemberParams; Querystring: { title?: string } }>('/v1/orgs/:organizationId/members/:userId/teams', async (request) => {
    const { organizationId, userId } = request.params;
    const auth = requireOrg(request, organizationId);
    await loadMember(deps, organizationId, userId);
    const title = typeof request.query.title === 'string' ? request.query.title.toLowerCase() : '';
    const teams = (await deps.store.teams.ofUser(organizationId, userId)).filter((t) => t.team.title.toLowerCase().includes(title));
    const page = paginateArray('member-teams', teams, pageQuery(request.query as Record<string, unknown>));
    return { ...page, items: page.items.map((t) => ({ team: teamObject(t.team, auth.role), member: { role: t.role } })) };
  });
}

function memberWriteRoutes(app: FastifyInstance, deps: ApiDeps, urls: UrlBuilder): void {
  app.patch<{ Params: MemberParams; Body: { role?: MemberRole | null } }>(
    '/v1/orgs/:organizationId/members/:userId',
    { schema: { body: { type: 'object', required: ['role'], properties: { role: ROLE_OR_GUEST } } } },
    async (request) => {
      const { organizationId, userId } = request.params;
      requireOrg(request, organizationId);
      const member = await loadMember(deps, organizationId, userId);
      await keepAnAdmin(deps, member, request.body.role ?? null);
      const updated = await deps.store.members.setRole(organizationId, userId, request.body.role ?? null, actorOf(request));
      request.log.info({ organizationId, userId, role: updated.role }, 'member role changed');
      return (await memberBodies(deps, organizationId, [updated], urls))[0];
    },
  );

  /** 205 when the member was removed (their personal tokens for the organization revoked at once), 204 when there was none. */
  app.delete<{ Params: MemberParams }>('/v1/orgs/:organizationId/members/:userId', async (request, reply) => {
    const { organizationId, userId } = request.params;
    requireOrg(request, organizationId);
    const member = await deps.store.members.get(organizationId, userId);
    if (!member) return reply.status(204).send();
    await keepAnAdmin(deps, member, 'removed');
    const removed = await deps.store.members.remove(organizationId, userId, actorOf(request));
    request.log.info({ organizationId, userId }, 'member removed; their tokens for the organization are revoked');
    return reply.status(removed ? 205 : 204).send();
  });

  app.post<{ Params: MemberParams }>(
    '/v1/orgs/:organizationId/members/:userId/sso',
    { schema: { body: { type: ['object', 'null'], properties: {} } } },
    async (request) => {
      const { organizationId, userId } = request.params;
      requireOrg(request, organizationId);
      await loadMember(deps, organizationId, userId);
      const updated = await deps.store.members.setSso(organizationId, userId, true, actorOf(request));
      return (await memberBodies(deps, organizationId, [updated], urls))[0];
    },
  );
}

export function memberRoutes(app: FastifyInstance, deps: ApiDeps, urls: UrlBuilder): void {
  userRoutes(app, deps, urls);
  memberReadRoutes(app, deps, urls);
  memberWriteRoutes(app, deps, urls);
}
