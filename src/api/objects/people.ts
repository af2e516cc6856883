/** The official objects of people: OrganizationMember, OrganizationTeam, OrganizationTeamMember, invite links, SAML providers. */
import type { AuditEventRecord, InviteRecord, MemberRecord, SamlProviderRecord, TeamMemberRole, TeamRecord } from '../../store/index.js';
import type { MemberRole } from '../../people/roles.js';
import { serviceProvider } from '../../people/sso.js';
import { teamPermissions } from './permissions.js';
import { userObject } from './user.js';
import { iso, type UrlBuilder } from './urls.js';

export function memberObject(member: MemberRecord, counts: { spaces: number; teams: number }, urls: UrlBuilder) {
  const lastSeenAt = iso(member.lastSeenAt);
  return {
    object: 'member' as const,
    id: member.userId,
    role: member.role,
    user: userObject(member.user, urls),
    disabled: member.disabled,
    joinedAt: iso(member.joinedAt)!,
    ...(lastSeenAt ? { lastSeenAt } : {}),
    sso: member.sso,
    spaces: counts.spaces,
    teams: counts.teams,
    // Folio has no per-site permissions.
    sites: 0,
  };
}

/** An OrganizationTeam for a caller with organization role `callerRole`. */
export function teamObject(team: TeamRecord, callerRole: MemberRole | null) {
  return {
    object: 'team' as const,
    id: team.id,
    title: team.title,
    members: team.members,
    spaces: team.spaces,
    createdAt: iso(team.createdAt)!,
    permissions: teamPermissions(callerRole),
  };
}

export function teamMemberObject(member: ReturnType<typeof memberObject>, role: TeamMemberRole) {
  return { organization: member, team: { role }, permissions: { view: true } };
}

/** An invite link (organization, space or collection): `space` is the Space object of a space invite. */
export function inviteObject(invite: InviteRecord, redundant: boolean, space?: Record<string, unknown>) {
  const base = { object: 'invite' as const, id: invite.id, redundant };
  if (invite.target.kind === 'organization') return { ...base, role: invite.role };
  if (invite.target.kind === 'space') return { ...base, level: invite.role, space: space! };
  return { ...base, level: invite.role, collection: { id: invite.target.collectionId } };
}

/** The SP side of a provider: where the IdP sends its assertions, where a login starts, the entity id it expects as audience. */
export function samlService(provider: Pick<SamlProviderRecord, 'id'>, publicBase: string) {
  const sp = serviceProvider(provider, publicBase);
  return { acsURL: sp.acsUrl, startURL: sp.startUrl, entityID: sp.entityId };
}

/** `active` once the IdP's entity id, login URL and signing certificate are all known; `pending` before. */
export function samlStatus(provider: SamlProviderRecord): 'active' | 'pending' {
  return provider.entityId && provider.ssoUrl && provider.certificate ? 'active' : 'pending';
}

export function samlProviderObject(provider: SamlProviderRecord, defaultTeam: ReturnType<typeof teamObject> | null, urls: UrlBuilder, publicBase: string) {
  return {
    object: 'saml-provider' as const,
    id: provider.id,
    label: provider.label,
    // The spec requires a URI: a provider still pending without its IdP's login URL reads about:blank.
    ssoURL: provider.ssoUrl ?? 'about:blank',
    entityID: provider.entityId ?? '',
    certificate: provider.certificate ?? '',
    ...(defaultTeam ? { defaultTeam } : {}),
    defaultRole: provider.defaultRole,
    createdAt: iso(provider.createdAt)!,
    status: samlStatus(provider),
    service: samlService(provider, publicBase),
    urls: { location: urls.api(`/orgs/${provider.organizationId}/saml/${provider.id}`) },
  };
}

/** Folio's audit event object (an addition: GitBook's API has no audit log). */
export function auditEventObject(event: AuditEventRecord) {
  return {
    object: 'audit-event' as const,
    id: event.id,
    action: event.action,
    actor: { user: event.actor.userId, token: event.actor.tokenId, via: event.actor.via },
    target: event.target,
    before: event.before,
    after: event.after,
    createdAt: iso(event.createdAt)!,
  };
}
