/**
 * The `permissions` member of API objects: what the caller may do with that object, derived from the caller's role
 * there and the route table (../access.ts), so an object never says yes to what the routes refuse.
 */
import type { SpaceRecord } from '../../store/index.js';
import { atLeast, type MemberRole } from '../../people/roles.js';
import { ACCESS } from '../access.js';

const can = (role: MemberRole | null, key: string): boolean => {
  const entry = ACCESS[key];
  if (!entry) throw new Error(`no access entry ${key}`);
  return atLeast(role, entry.role);
};

/** The official Space `permissions` for a caller with `role` on the space (null: no access). */
export function spacePermissions(role: MemberRole | null, space: Pick<SpaceRecord, 'editMode'>) {
  const cr = '/v1/spaces/:spaceId/change-requests/:changeRequestId';
  return {
    view: can(role, 'GET /v1/spaces/:spaceId'),
    access: can(role, 'GET /v1/spaces/:spaceId'),
    admin: can(role, 'PATCH /v1/spaces/:spaceId'),
    viewInviteLinks: can(role, 'POST /v1/spaces/:spaceId/permissions'),
    edit: can(role, `POST ${cr}/content`) && space.editMode !== 'locked',
    triggerGitSync: can(role, 'POST /v1/spaces/:spaceId/git/import'),
    comment: can(role, 'POST /v1/spaces/:spaceId/comments'),
    merge: can(role, `POST ${cr}/merge`),
    review: can(role, `POST ${cr}/reviews`),
    // Folio has no integrations.
    installIntegration: false,
  };
}

/** The official Organization `permissions` for a member with `role` (null: a guest); `ownsTeam`: owner of a team. */
export function organizationPermissions(role: MemberRole | null, ownsTeam: boolean) {
  const org = '/v1/orgs/:organizationId';
  return {
    view: true,
    access: true,
    admin: can(role, `PATCH ${org}/members/:userId`),
    ownTeam: ownsTeam,
    createContent: can(role, `POST ${org}/spaces`),
    createOpenAPISpec: can(role, `POST ${org}/openapi`),
    ingestConversations: false,
    viewBilling: false,
    listMembers: can(role, `GET ${org}/members`),
    listTeams: can(role, `GET ${org}/teams`),
    listIntegrations: false,
    listInstallations: false,
    installIntegration: false,
  };
}

/** The official OrganizationTeam `permissions` for a caller with organization role `role`. */
export function teamPermissions(role: MemberRole | null) {
  const team = '/v1/orgs/:organizationId/teams/:teamId';
  return { admin: can(role, `PATCH ${team}`), view: can(role, `GET ${team}`) };
}

/** The official Collection `permissions` for a caller with `role` on the collection. */
export function collectionPermissions(role: MemberRole | null) {
  const c = '/v1/collections/:collectionId';
  return {
    view: can(role, `GET ${c}`),
    admin: can(role, `PATCH ${c}`),
    viewInviteLinks: can(role, `POST ${c}/permissions`),
    create: can(role, 'POST /v1/orgs/:organizationId/collections'),
  };
}
