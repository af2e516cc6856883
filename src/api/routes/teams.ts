/**
 * Teams of an organization, in the official shapes: `GET|PUT /v1/orgs/{organizationId}/teams` (list, create),
 * `GET|PATCH|DELETE …/teams/{teamId}`, `GET|PUT …/teams/{teamId}/members` (list; add, remove and change roles at once)
 * and `PUT|DELETE …/teams/{teamId}/members/{userId}`. Members are organization members, named by user id or e-mail.
 */
import type { FastifyInstance } from 'fastify';
import type { TeamMemberRole, TeamRecord } from '../../store/index.js';
import { actorOf, requireOrg } from '../auth.js';
import type { ApiDeps } from '../deps.js';
import { badRequest, notFound } from '../http-errors.js';
import { teamMemberObject, teamObject } from '../objects/people.js';
import type { UrlBuilder } from '../objects/urls.js';
import { listEnvelope, pageQuery } from '../pagination.js';
import { memberBodies } from './members.js';

const TITLE = { type: 'string', minLength: 1, maxLength: 64 } as const;
const TEAM_ROLE = { type: 'string', enum: ['owner', 'member'] } as const;
const USER_REFS = { type: 'array', maxItems: 1000, items: { type: 'string', maxLength: 320 } } as const;

type TeamParams = { organizationId: string; teamId: string };
type MembersBody = { add?: string[]; remove?: string[]; memberships?: Record<string, { role: TeamMemberRole }> };

/** The team of the organization (404 otherwise), and user references (an id, or the e-mail of a user). */
function teamHelpers(store: ApiDeps['store']) {
  const load = async (organizationId: string, teamId: string): Promise<TeamRecord> => {
    const team = await store.teams.get(organizationId, teamId);
    if (!team) throw notFound(`team not found: ${teamId}`);
    return team;
  };
  /** A user id, or the e-mail of a user: the user id (400 when no user has that e-mail). */
  const userIdOf = async (ref: string): Promise<string> => {
    if (!ref.includes('@')) return ref;
    const user = await store.users.byEmail(ref);
    if (!user) throw badRequest(`no user has the e-mail ${ref.slice(0, 320)}`);
    return user.id;
  };
  return { load, userIdOf };
}

export function teamRoutes(app: FastifyInstance, deps: ApiDeps, urls: UrlBuilder): void {
  const { store } = deps;
  const { load, userIdOf } = teamHelpers(store);
  app.get<{ Params: { organizationId: string }; Querystring: { title?: string; owner?: string } }>('/v1/orgs/:organizationId/teams', async (request) => {
    const { organizationId } = request.params;
    const auth = requireOrg(request, organizationId);
    const q = request.query;
    const result = await store.teams.list(organizationId, {
      ...pageQuery(q as Record<string, unknown>),
      ...(typeof q.title === 'string' && q.title ? { title: q.title } : {}),
      ...(typeof q.owner === 'string' && q.owner ? { owner: q.owner } : {}),
    });
    return listEnvelope(
      result.items.map((t) => teamObject(t, auth.role)),
      result.next,
      result.total,
    );
  });

  app.put<{ Params: { organizationId: string }; Body: { title: string; members?: string[] } }>(
    '/v1/orgs/:organizationId/teams',
    { schema: { body: { type: 'object', required: ['title'], properties: { title: TITLE, members: USER_REFS } } } },
    async (request, reply) => {
      const { organizationId } = request.params;
      const auth = requireOrg(request, organizationId);
      const members = await Promise.all((request.body.members ?? []).map(userIdOf));
      const team = await store.teams.create(organizationId, { title: request.body.title, members }, actorOf(request));
      return reply.status(201).send(teamObject(team, auth.role));
    },
  );

  app.get<{ Params: TeamParams }>('/v1/orgs/:organizationId/teams/:teamId', async (request) => {
    const auth = requireOrg(request, request.params.organizationId);
    return teamObject(await load(request.params.organizationId, request.params.teamId), auth.role);
  });

  app.patch<{ Params: TeamParams; Body: { title: string } }>(
    '/v1/orgs/:organizationId/teams/:teamId',
    { schema: { body: { type: 'object', required: ['title'], properties: { title: TITLE } } } },
    async (request) => {
      const auth = requireOrg(request, request.params.organizationId);
      await load(request.params.organizationId, request.params.teamId);
      return teamObject(await store.teams.rename(request.params.organizationId, request.params.teamId, request.body.title, actorOf(request)), auth.role);
    },
  );

  app.delete<{ Params: TeamParams }>('/v1/orgs/:organizationId/teams/:teamId', async (request, reply) => {
    requireOrg(request, request.params.organizationId);
    const deleted = await store.teams.delete(request.params.organizationId, request.params.teamId, actorOf(request));
    return reply.status(deleted ? 205 : 204).send();
  });

  teamMemberRoutes(app, deps, urls);
}

function teamMemberRoutes(app: FastifyInstance, deps: ApiDeps, urls: UrlBuilder): void {
  const { store } = deps;
  const { load, userIdOf } = teamHelpers(store);

  app.get<{ Params: TeamParams }>('/v1/orgs/:organizationId/teams/:teamId/members', async (request) => {
    const { organizationId, teamId } = request.params;
    requireOrg(request, organizationId);
    await load(organizationId, teamId);
    const result = await store.teams.members(teamId, pageQuery(request.query as Record<string, unknown>));
    const members = (await Promise.all(result.items.map((m) => store.members.get(organizationId, m.userId)))).filter((m) => m !== null);
    const bodies = await memberBodies(deps, organizationId, members, urls);
    const roles = new Map(result.items.map((m) => [m.userId, m.role]));
    return listEnvelope(
      bodies.map((b) => teamMemberObject(b, roles.get(b.id) ?? 'member')),
      result.next,
      result.total,
    );
  });

  app.put<{ Params: TeamParams; Body: MembersBody }>(
    '/v1/orgs/:organizationId/teams/:teamId/members',
    {
      schema: {
        body: {
          type: 'object',
          properties: {
            add: USER_REFS,
            remove: USER_REFS,
            memberships: { type: 'object', maxProperties: 1000, additionalProperties: { type: 'object', required: ['role'], properties: { role: TEAM_ROLE } } },
          },
        },
      },
    },
    async (request, reply) => {
      const { organizationId, teamId } = request.params;
      requireOrg(request, organizationId);
      await load(organizationId, teamId);
      const body = request.body ?? {};
      const add = await Promise.all((body.add ?? []).map(async (ref) => ({ userId: await userIdOf(ref), role: body.memberships?.[ref]?.role })));
      for (const [ref, m] of Object.entries(body.memberships ?? {}))
        if (!(body.add ?? []).includes(ref)) add.push({ userId: await userIdOf(ref), role: m.role });
      const remove = await Promise.all((body.remove ?? []).map(userIdOf));
      await store.teams.updateMembers(organizationId, teamId, { add, remove }, actorOf(request));
      return reply.status(204).send();
    },
  );

  app.put<{ Params: TeamParams & { userId: string }; Body: { role?: TeamMemberRole } | undefined }>(
    '/v1/orgs/:organizationId/teams/:teamId/members/:userId',
    { schema: { body: { type: ['object', 'null'], properties: { role: TEAM_ROLE } } } },
    async (request, reply) => {
      const { organizationId, teamId, userId } = request.params;
      requireOrg(request, organizationId);
      await load(organizationId, teamId);
      await store.teams.updateMembers(organizationId, teamId, { add: [{ userId, role: request.body?.role ?? 'member' }] }, actorOf(request));
      return reply.status(204).send();
    },
  );

  app.delete<{ Params: TeamParams & { userId: string } }>('/v1/orgs/:organizationId/teams/:teamId/members/:userId', async (request, reply) => {
    const { organizationId, teamId, userId } = request.params;
    requireOrg(request, organizationId);
    await load(organizationId, teamId);
    const { removed } = await store.teams.updateMembers(organizationId, teamId, { remove: [userId] }, actorOf(request));
    return reply.status(removed > 0 ? 205 : 204).send();
  });
}
