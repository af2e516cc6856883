/**
 * THE table of who may call what: every `/v1` route declares here the role it needs and on what (the organization of
 * `:organizationId`, the space of `:spaceId`, …). The auth hook (./auth.ts) consults it before anything else runs and
 * refuses a route that has no entry (fail closed); test/api/access-matrix.test.ts calls every route with every role
 * from this table and fails on a registered route missing here.
 *
 * Roles, weakest first: read < comment < edit < review < create < admin (src/people/roles.ts). A denied read answers
 * 404 exactly as an unknown object; a denied write to an object the caller can see answers 403 (INSUFFICIENT_ROLE).
 */
import type { MemberRole } from '../people/roles.js';

/**
 * What the role is checked on:
 * - `caller`: nothing but a valid token (the caller's own things: `GET /v1/user`, `GET /v1/orgs`);
 * - `org`: the organization `:organizationId` (the caller's organization role);
 * - `space`: the space `:spaceId` (the caller's role there: organization → collections → space, most permissive wins);
 * - `collection`: the collection `:collectionId` (the caller's role there: organization → collections above → it);
 * - `user`: the user `:userId`, visible when they share an organization with the caller;
 * - `self`: the user `:userId` when it is the caller (their own profile);
 * - `invite`: a link invite `:inviteId` of `:organizationId`, for a user who holds its id (they need not be a member);
 * - `integration`: the integration `:integrationName`, the role checked in its owning organization (a `public`
 *   integration is also readable, with no role, by anyone: the reads that need only `read`).
 */
export type AccessTarget = 'caller' | 'org' | 'space' | 'collection' | 'user' | 'self' | 'invite' | 'integration';

/** A space named in the request body that the caller needs a role on too (checked once the body is parsed). */
export interface BodySpaceReference {
  /** The space ids the body names (none: nothing to check). */
  spaces(body: unknown): string[];
  role: MemberRole;
  /** The error for a space the caller cannot see: the route's own answer for an unknown space. */
  missing: 'not-found' | 'bad-request';
  /** Prefix of the bad-request message (`source.space`, …). */
  field?: string;
}

export interface RouteAccess {
  role: MemberRole;
  target: AccessTarget;
  /** `org` targets: organization guests (role null) pass too (their lists show only what they were given). */
  guests?: boolean;
  /** `space` targets: a deleted space (until purged) is found too. */
  deleted?: boolean;
  /** `space` and `collection` targets: one the caller cannot see reaches the handler as absent (a DELETE answers 204). */
  absentPasses?: boolean;
  body?: BodySpaceReference;
}

const read = (target: AccessTarget, extra: Partial<RouteAccess> = {}): RouteAccess => ({ role: 'read', target, ...extra });
const needs = (role: MemberRole, target: AccessTarget, extra: Partial<RouteAccess> = {}): RouteAccess => ({ role, target, ...extra });

const str = (v: unknown): string[] => (typeof v === 'string' && v !== '' ? [v] : []);
const obj = (v: unknown): Record<string, unknown> => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {});

/** The content reads registered under a prefix (`registerContentReads`). */
function contentReads(prefix: string): Record<string, RouteAccess> {
  const out: Record<string, RouteAccess> = {};
  for (const suffix of ['', '/pages', '/page/:pageId', '/path/*', '/files', '/files/:fileId']) out[`GET ${prefix}${suffix}`] = read('space');
  return out;
}

/**
 * Comments and replies under a prefix: reading needs `read`; posting, replying, reacting and resolving `comment`
 * (changing or deleting someone else's post needs admin on the space, or being its author: the route checks that).
 */
function commentAccess(prefix: string): Record<string, RouteAccess> {
  const comment = `${prefix}/:commentId`;
  const reply = `${comment}/replies/:commentReplyId`;
  return {
    [`GET ${prefix}`]: read('space'),
    [`POST ${prefix}`]: needs('comment', 'space'),
    [`GET ${comment}`]: read('space'),
    [`PUT ${comment}`]: needs('comment', 'space'),
    [`DELETE ${comment}`]: needs('comment', 'space'),
    [`GET ${comment}/replies`]: read('space'),
    [`POST ${comment}/replies`]: needs('comment', 'space'),
    [`GET ${reply}`]: read('space'),
    [`PUT ${reply}`]: needs('comment', 'space'),
    [`DELETE ${reply}`]: needs('comment', 'space'),
  };
}

const CR = '/v1/spaces/:spaceId/change-requests/:changeRequestId';
const OPENAPI = '/v1/orgs/:organizationId/openapi/:specSlug';
const SITE = '/v1/orgs/:organizationId/sites/:siteId';
const TEAM = '/v1/orgs/:organizationId/teams/:teamId';
const MEMBER = '/v1/orgs/:organizationId/members/:userId';
const SPACE_PERMISSIONS = '/v1/spaces/:spaceId/permissions';
const COLLECTION = '/v1/collections/:collectionId';
const COLLECTION_PERMISSIONS = `${COLLECTION}/permissions`;
const INTEGRATION = '/v1/integrations/:integrationName';

/** `METHOD /route/:pattern` (fastify's route URL) → what it needs. HEAD follows GET. */
export const ACCESS: Readonly<Record<string, RouteAccess>> = {
  // The caller
  'GET /v1/user': read('caller'),
  'GET /v1/users/:userId': read('user'),
  'PATCH /v1/users/:userId': read('self'),
  'GET /v1/orgs': read('caller'),

  // Organizations, members, invites, teams, SSO, audit
  'GET /v1/orgs/:organizationId': read('org', { guests: true }),
  'GET /v1/orgs/:organizationId/members': read('org'),
  [`GET ${MEMBER}`]: read('org'),
  [`PATCH ${MEMBER}`]: needs('admin', 'org'),
  [`DELETE ${MEMBER}`]: needs('admin', 'org'),
  [`POST ${MEMBER}/sso`]: needs('admin', 'org'),
  [`GET ${MEMBER}/spaces`]: needs('admin', 'org'),
  [`GET ${MEMBER}/teams`]: read('org'),
  'POST /v1/orgs/:organizationId/invites': needs('admin', 'org'),
  'POST /v1/orgs/:organizationId/invites/:inviteId': read('invite'),
  'GET /v1/orgs/:organizationId/link-invites': needs('admin', 'org'),
  'POST /v1/orgs/:organizationId/link-invites': needs('admin', 'org'),
  'GET /v1/orgs/:organizationId/link-invites/:inviteId': needs('admin', 'org'),
  'PATCH /v1/orgs/:organizationId/link-invites/:inviteId': needs('admin', 'org'),
  'DELETE /v1/orgs/:organizationId/link-invites/:inviteId': needs('admin', 'org'),
  'GET /v1/orgs/:organizationId/teams': read('org'),
  'PUT /v1/orgs/:organizationId/teams': needs('admin', 'org'),
  [`GET ${TEAM}`]: read('org'),
  [`PATCH ${TEAM}`]: needs('admin', 'org'),
  [`DELETE ${TEAM}`]: needs('admin', 'org'),
  [`GET ${TEAM}/members`]: read('org'),
  [`PUT ${TEAM}/members`]: needs('admin', 'org'),
  [`PUT ${TEAM}/members/:userId`]: needs('admin', 'org'),
  [`DELETE ${TEAM}/members/:userId`]: needs('admin', 'org'),
  'GET /v1/orgs/:organizationId/saml': needs('admin', 'org'),
  'POST /v1/orgs/:organizationId/saml': needs('admin', 'org'),
  'GET /v1/orgs/:organizationId/saml/:samlProviderId': needs('admin', 'org'),
  'PATCH /v1/orgs/:organizationId/saml/:samlProviderId': needs('admin', 'org'),
  'DELETE /v1/orgs/:organizationId/saml/:samlProviderId': needs('admin', 'org'),
  'GET /v1/orgs/:organizationId/sso': read('org', { guests: true }),
  'GET /v1/orgs/:organizationId/audit': needs('admin', 'org'),
  'GET /v1/orgs/:organizationId/tokens': needs('admin', 'org'),
  'POST /v1/orgs/:organizationId/tokens': needs('admin', 'org'),
  'GET /v1/orgs/:organizationId/tokens/:tokenId': needs('admin', 'org'),
  'DELETE /v1/orgs/:organizationId/tokens/:tokenId': needs('admin', 'org'),

  // Spaces and their permissions
  'POST /v1/orgs/:organizationId/spaces': needs('create', 'org'),
  'GET /v1/orgs/:organizationId/spaces': read('org', { guests: true }),
  'GET /v1/spaces/:spaceId': read('space', { deleted: true }),
  'GET /v1/spaces/:spaceId/preview': read('space'),
  'GET /v1/spaces/:spaceId/preview/*': read('space'),
  'PATCH /v1/spaces/:spaceId': needs('admin', 'space'),
  'DELETE /v1/spaces/:spaceId': needs('admin', 'space', { deleted: true, absentPasses: true }),
  'POST /v1/spaces/:spaceId/restore': needs('admin', 'space', { deleted: true }),
  [`POST ${SPACE_PERMISSIONS}`]: needs('admin', 'space'),
  [`GET ${SPACE_PERMISSIONS}/users`]: read('space'),
  [`PATCH ${SPACE_PERMISSIONS}/users/:userId`]: needs('admin', 'space'),
  [`DELETE ${SPACE_PERMISSIONS}/users/:userId`]: needs('admin', 'space'),
  [`GET ${SPACE_PERMISSIONS}/teams`]: read('space'),
  [`PATCH ${SPACE_PERMISSIONS}/teams/:teamId`]: needs('admin', 'space'),
  [`DELETE ${SPACE_PERMISSIONS}/teams/:teamId`]: needs('admin', 'space'),
  [`GET ${SPACE_PERMISSIONS}/aggregate`]: read('space'),
  // A space moves with the admin role on it; the collection it moves into needs `create` there (checked by the route).
  'POST /v1/spaces/:spaceId/move': needs('admin', 'space'),
  // A copy of the space beside it: `create` there (the organization's or its collection's role reaches the space).
  'POST /v1/spaces/:spaceId/duplicate': needs('create', 'space'),

  // Collections: guests list what was given them; creating one in a collection needs `create` there too (the route).
  'GET /v1/orgs/:organizationId/collections': read('org', { guests: true }),
  'POST /v1/orgs/:organizationId/collections': needs('create', 'org'),
  [`GET ${COLLECTION}`]: read('collection'),
  [`PATCH ${COLLECTION}`]: needs('admin', 'collection'),
  [`DELETE ${COLLECTION}`]: needs('admin', 'collection', { absentPasses: true }),
  [`GET ${COLLECTION}/spaces`]: read('collection'),
  [`POST ${COLLECTION}/move`]: needs('admin', 'collection'),
  [`POST ${COLLECTION_PERMISSIONS}`]: needs('admin', 'collection'),
  [`GET ${COLLECTION_PERMISSIONS}/users`]: read('collection'),
  [`PATCH ${COLLECTION_PERMISSIONS}/users/:userId`]: needs('admin', 'collection'),
  [`DELETE ${COLLECTION_PERMISSIONS}/users/:userId`]: needs('admin', 'collection'),
  [`GET ${COLLECTION_PERMISSIONS}/teams`]: read('collection'),
  [`PATCH ${COLLECTION_PERMISSIONS}/teams/:teamId`]: needs('admin', 'collection'),
  [`DELETE ${COLLECTION_PERMISSIONS}/teams/:teamId`]: needs('admin', 'collection'),
  [`GET ${COLLECTION_PERMISSIONS}/aggregate`]: read('collection'),

  // Content, revisions, change requests
  ...contentReads('/v1/spaces/:spaceId/content'),
  ...contentReads('/v1/spaces/:spaceId/revisions/:revisionId'),
  'GET /v1/spaces/:spaceId/revisions/:revisionId/changes': read('space'),
  'GET /v1/spaces/:spaceId/revisions/:revisionId/files/:fileId/download': read('space'),
  'POST /v1/spaces/:spaceId/change-requests': needs('edit', 'space'),
  'GET /v1/spaces/:spaceId/change-requests': read('space'),
  [`GET ${CR}`]: read('space'),
  [`PATCH ${CR}`]: needs('edit', 'space'),
  [`POST ${CR}/content`]: needs('edit', 'space'),
  [`POST ${CR}/merge`]: needs('review', 'space'),
  [`GET ${CR}/reviews`]: read('space'),
  [`POST ${CR}/reviews`]: needs('review', 'space'),
  [`GET ${CR}/reviews/:reviewId`]: read('space'),
  [`GET ${CR}/requested-reviewers`]: read('space'),
  [`POST ${CR}/requested-reviewers`]: needs('edit', 'space'),
  [`DELETE ${CR}/requested-reviewers/:userId`]: needs('edit', 'space'),
  [`GET ${CR}/contributors`]: read('space'),
  // Across the organization's spaces: each caller sees the change requests of the spaces they can see.
  'GET /v1/orgs/:organizationId/change-requests': read('org', { guests: true }),
  [`POST ${CR}/update`]: needs('edit', 'space'),
  ...contentReads(`${CR}/content`),
  [`GET ${CR}/changes`]: read('space'),
  'POST /v1/spaces/:spaceId/content/template': needs('edit', 'space'),
  'POST /v1/spaces/:spaceId/content/import': needs('edit', 'space'),
  'GET /v1/spaces/:spaceId/search': read('space'),

  ...commentAccess('/v1/spaces/:spaceId/comments'),
  ...commentAccess(`${CR}/comments`),

  // Git sync: configuring a repository (with its credentials) and overwriting content is the space admin's.
  'POST /v1/spaces/:spaceId/git/import': needs('admin', 'space'),
  'POST /v1/spaces/:spaceId/git/export': needs('admin', 'space'),
  'GET /v1/spaces/:spaceId/git/info': read('space'),
  'PUT /v1/spaces/:spaceId/git/push-secret': needs('admin', 'space'),
  'DELETE /v1/spaces/:spaceId/git/push-secret': needs('admin', 'space'),

  // OpenAPI specs, translations, templates, search, imports, uploads, sites: the organization's content.
  'GET /v1/orgs/:organizationId/openapi': read('org'),
  'POST /v1/orgs/:organizationId/openapi': needs('create', 'org'),
  [`GET ${OPENAPI}`]: read('org'),
  [`PUT ${OPENAPI}`]: needs('create', 'org'),
  [`PATCH ${OPENAPI}`]: needs('create', 'org'),
  [`DELETE ${OPENAPI}`]: needs('create', 'org'),
  [`GET ${OPENAPI}/versions`]: read('org'),
  [`GET ${OPENAPI}/versions/latest`]: read('org'),
  [`GET ${OPENAPI}/versions/latest/content`]: read('org'),
  [`GET ${OPENAPI}/versions/latest/content/raw`]: read('org'),
  [`GET ${OPENAPI}/versions/:versionId`]: read('org'),
  [`GET ${OPENAPI}/versions/:versionId/content`]: read('org'),
  [`GET ${OPENAPI}/versions/:versionId/content/raw`]: read('org'),
  'GET /v1/orgs/:organizationId/translations': read('org'),
  'POST /v1/orgs/:organizationId/translations': needs('create', 'org', {
    body: { spaces: (b) => str(obj(obj(b).source).space), role: 'read', missing: 'bad-request', field: 'source.space' },
  }),
  'GET /v1/orgs/:organizationId/translations/:translationId': read('org'),
  'PUT /v1/orgs/:organizationId/translations/:translationId': needs('create', 'org'),
  'DELETE /v1/orgs/:organizationId/translations/:translationId': needs('create', 'org'),
  'POST /v1/orgs/:organizationId/translations/:translationId/run': needs('create', 'org'),
  'GET /v1/orgs/:organizationId/translations-glossary': read('org'),
  'PUT /v1/orgs/:organizationId/translations-glossary': needs('create', 'org'),
  'GET /v1/orgs/:organizationId/translations-glossary/:glossaryEntryId': read('org'),
  'GET /v1/orgs/:organizationId/templates': read('org'),
  'GET /v1/orgs/:organizationId/templates/:templateId/preview': read('org'),
  'GET /v1/orgs/:organizationId/templates/:templateId/preview.svg': read('org'),
  'GET /v1/orgs/:organizationId/search': read('org', { guests: true }),
  'POST /v1/org/:organizationId/imports': read('org', {
    body: { spaces: (b) => str(obj(obj(b).target).space), role: 'edit', missing: 'not-found' },
  }),
  'GET /v1/org/:organizationId/imports': read('org'),
  'GET /v1/org/:organizationId/imports/:importRunId': read('org'),
  'POST /v1/org/:organizationId/imports/:importRunId/cancel': needs('edit', 'org'),
  'POST /v1/orgs/:organizationId/storage/upload': needs('edit', 'org'),
  // PDF exports (a temporary URL; the download itself, `/pdf-exports/:token`, is outside /v1: its secret is the permission).
  'GET /v1/spaces/:spaceId/pdf': read('space'),
  [`GET ${CR}/pdf`]: read('space'),
  'GET /v1/orgs/:organizationId/sites': read('org'),
  'POST /v1/orgs/:organizationId/sites': needs('create', 'org', {
    body: { spaces: (b) => (Array.isArray(obj(b).spaces) ? (obj(b).spaces as unknown[]).flatMap(str) : []), role: 'read', missing: 'not-found' },
  }),
  [`GET ${SITE}`]: read('org'),
  [`PATCH ${SITE}`]: needs('create', 'org'),
  [`DELETE ${SITE}`]: needs('create', 'org'),
  [`POST ${SITE}/publish`]: needs('create', 'org'),
  [`POST ${SITE}/unpublish`]: needs('create', 'org'),
  [`GET ${SITE}/published`]: read('org'),
  [`GET ${SITE}/structure`]: read('org'),
  [`POST ${SITE}/search`]: read('org'),
  [`GET ${SITE}/site-spaces`]: read('org'),
  [`POST ${SITE}/site-spaces`]: needs('create', 'org', { body: { spaces: (b) => str(obj(b).spaceId), role: 'read', missing: 'not-found' } }),
  [`PATCH ${SITE}/site-spaces/:siteSpaceId`]: needs('create', 'org', { body: { spaces: (b) => str(obj(b).spaceId), role: 'read', missing: 'not-found' } }),
  [`DELETE ${SITE}/site-spaces/:siteSpaceId`]: needs('create', 'org'),
  [`GET ${SITE}/share-links`]: read('org'),
  [`POST ${SITE}/share-links`]: needs('create', 'org'),
  [`PATCH ${SITE}/share-links/:shareLinkId`]: needs('create', 'org'),
  [`DELETE ${SITE}/share-links/:shareLinkId`]: needs('create', 'org'),
  [`GET ${SITE}/sections`]: read('org'),
  [`POST ${SITE}/sections`]: needs('create', 'org', { body: { spaces: (b) => str(obj(b).spaceId), role: 'read', missing: 'not-found' } }),
  [`PATCH ${SITE}/sections/:siteSectionId`]: needs('create', 'org'),
  [`DELETE ${SITE}/sections/:siteSectionId`]: needs('create', 'org'),
  [`POST ${SITE}/sections/:siteSectionId/move`]: needs('create', 'org'),
  [`GET ${SITE}/section-groups`]: read('org'),
  [`POST ${SITE}/section-groups`]: needs('create', 'org'),
  [`PATCH ${SITE}/section-groups/:siteSectionGroupId`]: needs('create', 'org'),
  [`DELETE ${SITE}/section-groups/:siteSectionGroupId`]: needs('create', 'org'),
  [`POST ${SITE}/section-groups/:siteSectionGroupId/sections`]: needs('create', 'org'),
  [`DELETE ${SITE}/section-groups/:siteSectionGroupId/sections/:siteSectionId`]: needs('create', 'org'),
  [`POST ${SITE}/section-groups/:siteSectionGroupId/move`]: needs('create', 'org'),
  // Site customization (issue 33): read with the site, changed by those who may change the site.
  [`GET ${SITE}/customization`]: read('org'),
  [`PUT ${SITE}/customization`]: needs('create', 'org'),
  [`GET ${SITE}/site-spaces/:siteSpaceId/customization`]: read('org'),
  [`PATCH ${SITE}/site-spaces/:siteSpaceId/customization`]: needs('create', 'org'),
  // Site redirects (issue 33).
  [`GET ${SITE}/redirects`]: read('org'),
  [`POST ${SITE}/redirects`]: needs('create', 'org'),
  [`PATCH ${SITE}/redirects/:siteRedirectId`]: needs('create', 'org'),
  [`DELETE ${SITE}/redirects/:siteRedirectId`]: needs('create', 'org'),
  [`GET ${SITE}/redirect`]: read('org'),
  // Custom hostnames (issue 33): in the caller's organization; the handler checks the role (read to see, create to change).
  'GET /v1/custom-hostnames/:hostname': read('caller'),
  'PUT /v1/custom-hostnames/:hostname': read('caller'),
  'DELETE /v1/custom-hostnames/:hostname': read('caller'),
  // URL resolution: the handler resolves only the caller's organization's content that the caller can see.
  'GET /v1/urls/content': read('caller'),

  // Integrations: publishing checks the admin role on the body's organization (the integration may not exist yet);
  // installing, the admin role on the organization it installs on; the rest is the owning organization's.
  'GET /v1/integrations': read('caller'),
  [`POST ${INTEGRATION}`]: read('caller'),
  [`PUT ${INTEGRATION}/dev`]: needs('admin', 'integration'),
  [`DELETE ${INTEGRATION}/dev`]: needs('admin', 'integration'),
  [`GET ${INTEGRATION}`]: read('integration'),
  [`DELETE ${INTEGRATION}`]: needs('admin', 'integration'),
  [`GET ${INTEGRATION}/installations`]: needs('admin', 'integration'),
  [`POST ${INTEGRATION}/installations`]: read('integration'),
  [`GET ${INTEGRATION}/installations/:installationId`]: read('integration'),
  [`PATCH ${INTEGRATION}/installations/:installationId`]: read('integration'),
  [`GET ${INTEGRATION}/events`]: needs('admin', 'integration'),
  [`GET ${INTEGRATION}/events/:eventId`]: needs('admin', 'integration'),
};

/** The table's key of a request's route: `METHOD /route/pattern` (HEAD is GET's). */
export function accessKey(method: string, routeUrl: string): string {
  return `${method === 'HEAD' ? 'GET' : method} ${routeUrl}`;
}

/** What a route needs, or undefined when it declares nothing (the hook then refuses it). */
export function routeAccess(method: string, routeUrl: string): RouteAccess | undefined {
  return Object.prototype.hasOwnProperty.call(ACCESS, accessKey(method, routeUrl)) ? ACCESS[accessKey(method, routeUrl)] : undefined;
}
