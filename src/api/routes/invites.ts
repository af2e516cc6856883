/**
 * Invites, in the official shapes. `POST /v1/orgs/{organizationId}/invites` adds people by e-mail at once (a user is
 * made for an address Folio does not know; Folio sends no mail: they log in with SSO, whose e-mail matches, or get a
 * personal token from an admin). Link invites (`/link-invites`) give an organization role, or a level on a space, to
 * whoever holds the link's id and joins with `POST /v1/orgs/{organizationId}/invites/{inviteId}` (a personal token).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { atLeast } from '../../people/roles.js';
import type { InviteRecord, InviteTarget, MemberRole } from '../../store/index.js';
import { actorOf, requireAuth, requireOrg } from '../auth.js';
import type { ApiDeps } from '../deps.js';
import { badRequest, notFound } from '../http-errors.js';
import { inviteObject } from '../objects/people.js';
import type { UrlBuilder } from '../objects/urls.js';
import { listEnvelope, pageQuery } from '../pagination.js';
import { spaceBody } from '../space-bodies.js';
import { ROLE_OR_GUEST } from './members.js';

const EMAIL = { type: 'string', format: 'email', maxLength: 320 } as const;

const inviteUsersBody = {
  type: 'object',
  required: ['emails'],
  properties: {
    emails: {
      type: 'array',
      maxItems: 1000,
      items: { anyOf: [EMAIL, { type: 'object', required: ['email', 'role'], properties: { email: EMAIL, role: ROLE_OR_GUEST } }] },
    },
    role: ROLE_OR_GUEST,
    sso: { type: 'boolean' },
  },
} as const;

type InviteUsersBody = { emails: Array<string | { email: string; role: MemberRole | null }>; role?: MemberRole | null; sso?: boolean };

const createLinkBody = {
  type: 'object',
  properties: { role: ROLE_OR_GUEST, level: ROLE_OR_GUEST, space: { type: 'string', maxLength: 64 }, collection: { type: 'string', maxLength: 64 } },
} as const;

type LinkBody = { role?: MemberRole | null; level?: MemberRole | null; space?: string; collection?: string };

/** The target and role a create body names (the spec's oneOf: `{ role }`, `{ level, space }`, `{ level, collection }`). */
function linkTarget(body: LinkBody): { target: InviteTarget; role: MemberRole | null } {
  if (body.space !== undefined && body.collection === undefined && body.role === undefined && body.level !== undefined)
    return { target: { kind: 'space', spaceId: body.space }, role: body.level };
  if (body.collection !== undefined && body.space === undefined && body.role === undefined && body.level !== undefined)
    return { target: { kind: 'collection', collectionId: body.collection }, role: body.level };
  if (body.role !== undefined && body.level === undefined && body.space === undefined && body.collection === undefined)
    return { target: { kind: 'organization' }, role: body.role };
  throw badRequest('an invite link is { role } (the organization), { level, space } or { level, collection }');
}

/** A display name for a user known only by their e-mail address: its local part. */
const nameFromEmail = (email: string) => email.split('@')[0]!.slice(0, 64) || email.slice(0, 64);

type Helpers = ReturnType<typeof helpers>;

function helpers(deps: ApiDeps, urls: UrlBuilder) {
  const { store } = deps;

  /** The invite object, `redundant` when the caller already has what it gives. */
  const body = async (request: FastifyRequest, invite: InviteRecord) => {
    const auth = requireAuth(request);
    if (invite.target.kind === 'space') {
      const space = await store.spaces.get(invite.target.spaceId, { includeDeleted: true });
      const role = space ? await auth.access.spaceRole(space) : null;
      return inviteObject(invite, atLeast(role, invite.role ?? 'read'), space ? await spaceBody(store, space, urls, auth.access) : undefined);
    }
    const role = (await auth.access.organizationRole(invite.organizationId)) ?? null;
    return inviteObject(invite, invite.role === null ? true : atLeast(role, invite.role));
  };
  const load = async (organizationId: string, inviteId: string) => {
    const invite = await store.invites.get(organizationId, inviteId);
    if (!invite) throw notFound(`invite not found in organization ${organizationId}`);
    return invite;
  };
  return { body, load };
}

export function inviteRoutes(app: FastifyInstance, deps: ApiDeps, urls: UrlBuilder): void {
  const h = helpers(deps, urls);
  emailInviteRoutes(app, deps, h);
  linkInviteRoutes(app, deps, h);
}

function emailInviteRoutes(app: FastifyInstance, deps: ApiDeps, { load }: Helpers): void {
  const { store } = deps;
  app.post<{ Params: { organizationId: string }; Body: InviteUsersBody }>(
    '/v1/orgs/:organizationId/invites',
    { schema: { body: inviteUsersBody } },
    async (request) => {
      const { organizationId } = request.params;
      requireOrg(request, organizationId);
      const users: string[] = [];
      let invited = 0;
      for (const item of request.body.emails) {
        const email = typeof item === 'string' ? item : item.email;
        const role = typeof item === 'string' ? (request.body.role === undefined ? 'read' : request.body.role) : item.role;
        const user = (await store.users.byEmail(email)) ?? (await store.users.create({ displayName: nameFromEmail(email), email }));
        const { added } = await store.members.add(organizationId, user.id, { role, sso: request.body.sso ?? false }, actorOf(request));
        users.push(user.id);
        if (added) invited++;
      }
      return { users, invited };
    },
  );

  /** Joins with a link invite: its organization role, or a guest membership and its level on the space. */
  app.post<{ Params: { organizationId: string; inviteId: string } }>(
    '/v1/orgs/:organizationId/invites/:inviteId',
    { schema: { body: { type: ['object', 'null'], properties: {} } } },
    async (request) => {
      const { organizationId, inviteId } = request.params;
      const auth = requireAuth(request);
      const invite = await load(organizationId, inviteId);
      const actor = { ...actorOf(request), userId: auth.userId };
      const orgRole = invite.target.kind === 'organization' ? invite.role : null;
      await store.members.add(organizationId, auth.userId!, { role: orgRole }, actor);
      if (invite.target.kind === 'space' && invite.role !== null)
        await store.permissions.set(organizationId, { kind: 'space', id: invite.target.spaceId }, [{ kind: 'user', id: auth.userId! }], invite.role, actor);
      request.log.info({ organizationId, userId: auth.userId }, 'joined with a link invite');
      return {};
    },
  );
}

function linkInviteRoutes(app: FastifyInstance, deps: ApiDeps, { body, load }: Helpers): void {
  const { store } = deps;
  app.get<{ Params: { organizationId: string } }>('/v1/orgs/:organizationId/link-invites', async (request) => {
    const { organizationId } = request.params;
    requireOrg(request, organizationId);
    // The official list holds the invites to the organization (a space's invite is read by its id).
    const result = await store.invites.list(organizationId, { ...pageQuery(request.query as Record<string, unknown>), organizationOnly: true });
    return listEnvelope(await Promise.all(result.items.map((i) => body(request, i))), result.next, result.total);
  });

  app.post<{ Params: { organizationId: string }; Body: LinkBody }>(
    '/v1/orgs/:organizationId/link-invites',
    { schema: { body: createLinkBody } },
    async (request, reply) => {
      const { organizationId } = request.params;
      const auth = requireOrg(request, organizationId);
      const { target, role } = linkTarget(request.body ?? {});
      // Collections come with their own issue: until then no collection exists to invite to.
      if (target.kind === 'collection') throw notFound(`collection not found: ${target.collectionId}`);
      const invite = await store.invites.create(organizationId, { target, role, createdBy: auth.userId ?? auth.tokenId }, actorOf(request));
      return reply.status(201).send(await body(request, invite));
    },
  );

  app.get<{ Params: { organizationId: string; inviteId: string } }>('/v1/orgs/:organizationId/link-invites/:inviteId', async (request) => {
    requireOrg(request, request.params.organizationId);
    return body(request, await load(request.params.organizationId, request.params.inviteId));
  });

  app.patch<{ Params: { organizationId: string; inviteId: string }; Body: { role?: MemberRole | null; level?: MemberRole | null } }>(
    '/v1/orgs/:organizationId/link-invites/:inviteId',
    { schema: { body: { type: 'object', properties: { role: ROLE_OR_GUEST, level: ROLE_OR_GUEST } } } },
    async (request) => {
      const { organizationId, inviteId } = request.params;
      requireOrg(request, organizationId);
      const invite = await load(organizationId, inviteId);
      const key = invite.target.kind === 'organization' ? 'role' : 'level';
      const value = request.body?.[key];
      if (value === undefined) throw badRequest(`this invite's ${key} is what can change: { "${key}": … }`);
      return body(request, await store.invites.update(organizationId, inviteId, value, actorOf(request)));
    },
  );

  app.delete<{ Params: { organizationId: string; inviteId: string } }>('/v1/orgs/:organizationId/link-invites/:inviteId', async (request, reply) => {
    requireOrg(request, request.params.organizationId);
    const deleted = await store.invites.delete(request.params.organizationId, request.params.inviteId, actorOf(request));
    return reply.status(deleted ? 205 : 204).send();
  });
}
