/**
 * The store's types for people (migration 018_people): users, organization members, teams, grants of a role on a
 * space or a collection, link invites, SAML providers and the audit trail of role and permission changes.
 */

import type { CountedPage, Json, PageOptions } from './common.js';

/** The official `MemberRole`, weakest last in GitBook's order: admin > create > review > edit > comment > read. */
export type MemberRole = 'admin' | 'create' | 'review' | 'edit' | 'comment' | 'read';

export interface UserRecord {
  id: string;
  displayName: string;
  /** Unique (case-insensitively) when present. */
  email: string | null;
  photoUrl: string | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface UserCreateInput {
  /** URL-safe id; generated when absent. */
  id?: string;
  displayName: string;
  email?: string | null;
  photoUrl?: string | null;
}

export interface UserStore {
  /** ConflictError when the e-mail is taken (case-insensitively) or the id exists. */
  create(input: UserCreateInput): Promise<UserRecord>;
  get(id: string): Promise<UserRecord | null>;
  getMany(ids: readonly string[]): Promise<Map<string, UserRecord>>;
  byEmail(email: string): Promise<UserRecord | null>;
  /** NotFoundError when unknown. */
  update(id: string, patch: { displayName?: string; photoUrl?: string | null; email?: string | null }): Promise<UserRecord>;
  /** Whether the two users are members of at least one organization in common. */
  shareOrganization(a: string, b: string): Promise<boolean>;
}

/** Who made a change the audit trail records: the acting user (personal token, SSO) and the token used, or an operator. */
export interface AuditActor {
  userId?: string | null;
  tokenId?: string | null;
  /** `api`, `cli`, `sso`, `bootstrap`. */
  via: 'api' | 'cli' | 'sso' | 'bootstrap';
}

export interface MemberRecord {
  organizationId: string;
  userId: string;
  /** null: a guest (only what is granted to them, or to their teams, on content). */
  role: MemberRole | null;
  sso: boolean;
  disabled: boolean;
  joinedAt: Date;
  lastSeenAt: Date | null;
  user: UserRecord;
}

export interface MemberListOptions extends PageOptions {
  /** A role, or `guest` for members without one. */
  role?: MemberRole | 'guest';
  /** Case-insensitive substring of the display name or the e-mail. */
  search?: string;
  sort?: 'joinedAt' | 'lastSeenAt' | 'name';
  order?: 'asc' | 'desc';
}

export interface MemberStore {
  list(organizationId: string, options: MemberListOptions): Promise<CountedPage<MemberRecord>>;
  get(organizationId: string, userId: string): Promise<MemberRecord | null>;
  /** Every organization the user is a member of (disabled memberships too). */
  ofUser(userId: string): Promise<MemberRecord[]>;
  /**
   * Makes the user a member with `role` unless they are one already (then nothing changes, the role included);
   * `sso` marks the membership as one that may log in with SSO. Returns the membership and whether it is new.
   * NotFoundError when the organization or the user is unknown. Audited (`member.add`).
   */
  add(
    organizationId: string,
    userId: string,
    input: { role: MemberRole | null; sso?: boolean },
    actor: AuditActor,
  ): Promise<{ member: MemberRecord; added: boolean }>;
  /** NotFoundError when not a member. Audited (`member.role`) when the role changes. */
  setRole(organizationId: string, userId: string, role: MemberRole | null, actor: AuditActor): Promise<MemberRecord>;
  /** Marks the membership as an SSO one. NotFoundError when not a member. */
  setSso(organizationId: string, userId: string, sso: boolean, actor: AuditActor): Promise<MemberRecord>;
  /**
   * Removes the member in one transaction: their personal tokens issued for the organization are revoked, their team
   * memberships and content grants in it are deleted. false when they were not a member. Audited (`member.remove`).
   */
  remove(organizationId: string, userId: string, actor: AuditActor): Promise<boolean>;
  /** Records the member's last activity (at most once a minute). */
  touch(organizationId: string, userId: string): Promise<void>;
  /** How many members have the role (`guest`: none). */
  countWithRole(organizationId: string, role: MemberRole): Promise<number>;
}

export interface TeamRecord {
  id: string;
  organizationId: string;
  title: string;
  createdAt: Date;
  /** Members of the team. */
  members: number;
  /** Spaces the team holds a grant on. */
  spaces: number;
}

export type TeamMemberRole = 'owner' | 'member';

export interface TeamMemberRecord {
  teamId: string;
  userId: string;
  role: TeamMemberRole;
  addedAt: Date;
}

export interface TeamStore {
  /** The members must be members of the organization (else ValidationError). Audited (`team.create`). */
  create(organizationId: string, input: { title: string; members?: readonly string[] }, actor: AuditActor): Promise<TeamRecord>;
  get(organizationId: string, teamId: string): Promise<TeamRecord | null>;
  /** `title`: case-insensitive substring; `owner`: only teams that user owns. */
  list(organizationId: string, options: PageOptions & { title?: string; owner?: string }): Promise<CountedPage<TeamRecord>>;
  /** NotFoundError when unknown. Audited (`team.rename`). */
  rename(organizationId: string, teamId: string, title: string, actor: AuditActor): Promise<TeamRecord>;
  /** false when there was no such team; its grants go with it. Audited (`team.delete`). */
  delete(organizationId: string, teamId: string, actor: AuditActor): Promise<boolean>;
  members(teamId: string, options: PageOptions): Promise<CountedPage<TeamMemberRecord>>;
  /**
   * Adds (or updates the team role of) organization members and removes others, in one transaction. ValidationError
   * when an added user is not a member of the organization. Audited (`team.members`). Returns whether anything changed.
   */
  updateMembers(
    organizationId: string,
    teamId: string,
    change: { add?: ReadonlyArray<{ userId: string; role?: TeamMemberRole }>; remove?: readonly string[] },
    actor: AuditActor,
  ): Promise<{ added: number; removed: number }>;
  /** The teams of the organization the user is in, with their team role. */
  ofUser(organizationId: string, userId: string): Promise<Array<{ team: TeamRecord; role: TeamMemberRole }>>;
}

/** What a grant is on: a space, or a collection (collections inherit down to their spaces). */
export type ContentRef = { kind: 'space'; id: string } | { kind: 'collection'; id: string };
/** Who a grant is for. */
export type PrincipalRef = { kind: 'user'; id: string } | { kind: 'team'; id: string };

export interface ContentGrant {
  organizationId: string;
  content: ContentRef;
  principal: PrincipalRef;
  role: MemberRole;
  createdAt: Date;
  updatedAt: Date;
}

export interface PermissionStore {
  /**
   * Grants `role` (null removes the grant) to each principal on the content, in one transaction. The principals must
   * be of the organization (a user a member, a team one of its teams), else NotFoundError. Audited (`permission.set`).
   */
  set(organizationId: string, content: ContentRef, principals: readonly PrincipalRef[], role: MemberRole | null, actor: AuditActor): Promise<void>;
  /** false when there was no such grant. Audited (`permission.remove`). */
  remove(organizationId: string, content: ContentRef, principal: PrincipalRef, actor: AuditActor): Promise<boolean>;
  /** The grants on the content to users (or teams), oldest first. */
  list(content: ContentRef, principalKind: 'user' | 'team', options: PageOptions): Promise<CountedPage<ContentGrant>>;
  /** Every grant on any of `contents` to the user or to any of `teamIds`. */
  forPrincipals(contents: readonly ContentRef[], userId: string, teamIds: readonly string[]): Promise<ContentGrant[]>;
  /** Every grant of the organization on spaces to the user or to any of `teamIds` (the spaces they were given). */
  spaceGrantsOf(organizationId: string, userId: string, teamIds: readonly string[]): Promise<ContentGrant[]>;
  /** How many spaces the user holds a direct grant on, per user of `userIds`. */
  countSpacesOfUsers(organizationId: string, userIds: readonly string[]): Promise<Map<string, number>>;
}

export type InviteTarget = { kind: 'organization' } | { kind: 'space'; spaceId: string } | { kind: 'collection'; collectionId: string };

export interface InviteRecord {
  id: string;
  organizationId: string;
  target: InviteTarget;
  /** The organization role (or the content level) it gives; null: guest. */
  role: MemberRole | null;
  createdBy: string | null;
  createdAt: Date;
}

export interface InviteStore {
  /** Audited (`invite.create`). */
  create(organizationId: string, input: { target: InviteTarget; role: MemberRole | null; createdBy?: string | null }, actor: AuditActor): Promise<InviteRecord>;
  get(organizationId: string, id: string): Promise<InviteRecord | null>;
  /** Oldest first; with `organizationOnly`, only the invites to the organization itself (not to a space or collection). */
  list(organizationId: string, options: PageOptions & { organizationOnly?: boolean }): Promise<CountedPage<InviteRecord>>;
  /** NotFoundError when unknown. Audited (`invite.update`). */
  update(organizationId: string, id: string, role: MemberRole | null, actor: AuditActor): Promise<InviteRecord>;
  /** false when there was no such invite. Audited (`invite.delete`). */
  delete(organizationId: string, id: string, actor: AuditActor): Promise<boolean>;
}

export interface SamlProviderRecord {
  id: string;
  organizationId: string;
  label: string;
  entityId: string | null;
  ssoUrl: string | null;
  certificate: string | null;
  defaultTeamId: string | null;
  defaultRole: MemberRole | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface SamlProviderInput {
  label?: string;
  entityId?: string | null;
  ssoUrl?: string | null;
  certificate?: string | null;
  defaultTeamId?: string | null;
  defaultRole?: MemberRole | null;
}

export interface SamlStore {
  /** NotFoundError when the default team is not the organization's. Audited (`saml.create`). */
  create(organizationId: string, input: SamlProviderInput & { label: string }, actor: AuditActor): Promise<SamlProviderRecord>;
  get(organizationId: string, id: string): Promise<SamlProviderRecord | null>;
  /** A provider by id alone (the SSO flow's unauthenticated routes). */
  byId(id: string): Promise<SamlProviderRecord | null>;
  list(organizationId: string, options: PageOptions): Promise<CountedPage<SamlProviderRecord>>;
  /** NotFoundError when unknown. Audited (`saml.update`). */
  update(organizationId: string, id: string, patch: SamlProviderInput, actor: AuditActor): Promise<SamlProviderRecord>;
  /** Audited (`saml.delete`). */
  delete(organizationId: string, id: string, actor: AuditActor): Promise<boolean>;
  /** Records the id of an AuthnRequest Folio sent (a response must answer one of them, once). */
  saveRequest(providerId: string, requestId: string): Promise<void>;
  /** Takes the request id (deleted at once); false when it was never sent, is older than `maxAgeMs` or was taken already. */
  takeRequest(providerId: string, requestId: string, maxAgeMs: number): Promise<boolean>;
  /** Records an accepted assertion id until `expiresAt`; false when it was accepted before (a replay). */
  consumeAssertion(providerId: string, assertionId: string, expiresAt: Date): Promise<boolean>;
}

export interface AuditEventRecord {
  id: string;
  organizationId: string;
  actor: { userId: string | null; tokenId: string | null; via: string };
  /** `member.add`, `member.role`, `member.remove`, `team.create`, `permission.set`, … */
  action: string;
  target: Json;
  before: Json;
  after: Json;
  createdAt: Date;
}

export interface AuditStore {
  /** Newest first. */
  list(organizationId: string, options: PageOptions & { action?: string }): Promise<CountedPage<AuditEventRecord>>;
}
