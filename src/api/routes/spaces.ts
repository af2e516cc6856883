import type { FastifyInstance, FastifyRequest } from 'fastify';
import { newId } from '../../ids.js';
import type { SpacePatch, SpaceRecord } from '../../store/index.js';
import { createSpace } from '../../temporal/client/start.js';
import { WorkflowRunError } from '../../temporal/client/workflow-run-error.js';
import type { AccessResolver } from '../../people/access.js';
import { actorOf, organizationNotFound, requireAuth, requireOrg } from '../auth.js';
import { workflowStarter, type ApiDeps } from '../deps.js';
import { badRequest, conflict, notFound } from '../http-errors.js';
import { signalRestore, startPurge } from '../purge-control.js';
import { spaceBodies, spaceBody } from '../space-bodies.js';
import type { UrlBuilder } from '../objects/urls.js';
import { listEnvelope, pageQuery, paginateArray, type PageQuery } from '../pagination.js';
import { targetCollection } from '../collection-target.js';

/** Every live space of the organization the caller can see, oldest first. */
export async function visibleSpaces(deps: ApiDeps, organizationId: string, access: AccessResolver): Promise<SpaceRecord[]> {
  const all: SpaceRecord[] = [];
  let page: string | undefined;
  do {
    const result = await deps.store.spaces.list(organizationId, { limit: 1000, ...(page ? { page } : {}) });
    all.push(...result.items);
    page = result.next?.page;
  } while (page);
  const roles = await access.spaceRoles(all);
  return all.filter((s) => roles.get(s.id) !== null);
}

const updateSpaceBody = {
  type: 'object',
  additionalProperties: true,
  properties: {
    title: { type: 'string', maxLength: 50 },
    emoji: { type: ['string', 'null'], maxLength: 50 },
    icon: { type: ['string', 'null'], maxLength: 2048 },
    language: { type: ['string', 'null'], maxLength: 16 },
    editMode: { type: 'string', enum: ['live', 'locked'] },
    /** The spec's `DefaultLevel`: `inherit`, a member role, or null (guests). */
    defaultLevel: { anyOf: [{ type: 'string', enum: ['inherit', 'admin', 'create', 'edit', 'review', 'comment', 'read'] }, { type: 'null' }] },
    visibility: { type: 'string', enum: ['public', 'unlisted', 'share-link', 'visitor-auth', 'in-collection', 'private'] },
    mergeRules: { type: 'object' },
    /** Folio: mark the space as a template of its organization (true, or how to present it), or unmark it (false). */
    template: {
      anyOf: [
        { type: 'boolean' },
        {
          type: 'object',
          additionalProperties: false,
          properties: {
            subtitle: { type: ['string', 'null'], maxLength: 300 },
            features: { type: 'array', maxItems: 20, items: { type: 'string', maxLength: 100 } },
          },
        },
      ],
    },
  },
} as const;

const createSpaceBody = {
  type: 'object',
  additionalProperties: true,
  properties: {
    title: { type: 'string', maxLength: 50 },
    emoji: { type: 'string', maxLength: 16 },
    parent: { type: 'string', maxLength: 64 },
    language: { type: 'string', maxLength: 16 },
    editMode: { type: 'string', enum: ['live', 'locked'] },
    visibility: { type: 'string', enum: ['public', 'unlisted', 'share-link', 'visitor-auth', 'in-collection', 'private'] },
  },
} as const;

/**
 * Loads a space the caller may see: the one the access gate found for the route (src/api/auth.ts), or 404 when
 * unknown (or purged) and, with the very same body, when it is another organization's (a 403 would tell which ids exist).
 */
export async function loadSpace(deps: ApiDeps, request: FastifyRequest, spaceId: string, options: { includeDeleted?: boolean } = {}): Promise<SpaceRecord> {
  const auth = requireAuth(request);
  if (auth.space && auth.space.id === spaceId && (options.includeDeleted || !auth.space.deletedAt)) return auth.space;
  const space = await deps.store.spaces.get(spaceId, { includeDeleted: options.includeDeleted ?? false });
  if (!space || space.organizationId !== auth.organizationId) throw notFound(`space not found: ${spaceId}`);
  return space;
}

/** The organization's spaces the caller can see, one page of them (an admin sees all, paged by the store). */
async function spaceList(deps: ApiDeps, organizationId: string, access: AccessResolver, q: PageQuery, urls: UrlBuilder) {
  if ((await access.organizationRole(organizationId, { uncapped: true })) === 'admin') {
    const result = await deps.store.spaces.list(organizationId, q);
    return listEnvelope(await spaceBodies(deps.store, result.items, urls, access), result.next, result.total);
  }
  const page = paginateArray('visible-spaces', await visibleSpaces(deps, organizationId, access), q);
  return { ...page, items: await spaceBodies(deps.store, page.items, urls, access) };
}

export function spaceRoutes(app: FastifyInstance, deps: ApiDeps, urls: UrlBuilder): void {
  organizationSpaceRoutes(app, deps, urls);
  spaceReadUpdateRoutes(app, deps, urls);
  spaceLifecycleRoutes(app, deps, urls);
}

/** An organization's spaces: create one, list them. */
function organizationSpaceRoutes(app: FastifyInstance, deps: ApiDeps, urls: UrlBuilder): void {
  app.post<{ Params: { organizationId: string }; Body: Record<string, string | undefined> }>(
    '/v1/orgs/:organizationId/spaces',
    { schema: { body: createSpaceBody } },
    async (request, reply) => {
      const { organizationId } = request.params;
      requireOrg(request, organizationId);
      const org = await deps.store.orgs.get(organizationId);
      if (!org) throw organizationNotFound(organizationId);
      const body = request.body ?? {};
      // The collection it goes into: one of the organization, visible to the caller, where they may create.
      if (body.parent !== undefined) await targetCollection(deps, requireAuth(request), body.parent, 'parent');
      const spaceId = newId();
      try {
        await createSpace(workflowStarter(deps), {
          spaceId,
          organizationId,
          title: body.title,
          emoji: body.emoji,
          language: body.language,
          editMode: body.editMode as 'live' | 'locked' | undefined,
          visibility: body.visibility,
          parent: body.parent,
        });
      } catch (err) {
        if (err instanceof WorkflowRunError && err.code === 'NOT_FOUND') throw notFound(err.message);
        if (err instanceof WorkflowRunError && err.code === 'CONFLICT') throw conflict(err.message);
        throw err;
      }
      const auth = requireAuth(request);
      // A member who may create spaces but not administer the organization's content administers the space they made.
      if (auth.userId && auth.role !== 'admin')
        await deps.store.permissions.set(organizationId, { kind: 'space', id: spaceId }, [{ kind: 'user', id: auth.userId }], 'admin', actorOf(request));
      const space = await deps.store.spaces.get(spaceId);
      if (!space) throw badRequest('the space could not be created');
      return reply.status(201).send(await spaceBody(deps.store, space, urls, auth.access));
    },
  );

  app.get<{ Params: { organizationId: string } }>('/v1/orgs/:organizationId/spaces', async (request) => {
    const { organizationId } = request.params;
    requireOrg(request, organizationId);
    const org = await deps.store.orgs.get(organizationId);
    if (!org) throw organizationNotFound(organizationId);
    return spaceList(deps, organizationId, requireAuth(request).access, pageQuery(request.query as Record<string, unknown>), urls);
  });
}

/** One space: read, update. */
function spaceReadUpdateRoutes(app: FastifyInstance, deps: ApiDeps, urls: UrlBuilder): void {
  /** A deleted space stays readable by its organization (with `deletedAt`) until it is purged. */
  app.get<{ Params: { spaceId: string } }>('/v1/spaces/:spaceId', async (request) => {
    const space = await loadSpace(deps, request, request.params.spaceId, { includeDeleted: true });
    return spaceBody(deps.store, space, urls, requireAuth(request).access);
  });

  app.patch<{ Params: { spaceId: string }; Body: Record<string, string | null | undefined> }>(
    '/v1/spaces/:spaceId',
    { schema: { body: updateSpaceBody } },
    async (request) => {
      const space = await loadSpace(deps, request, request.params.spaceId);
      const body = request.body ?? {};
      const patch: SpacePatch = {};
      if (body.title !== undefined) patch.title = body.title;
      if (body.emoji !== undefined) patch.emoji = body.emoji;
      if (body.icon === null && body.emoji === undefined) patch.emoji = null;
      if (body.language !== undefined) patch.language = body.language;
      if (body.editMode !== undefined) patch.editMode = body.editMode as SpacePatch['editMode'];
      if (body.visibility !== undefined) patch.visibility = body.visibility as SpacePatch['visibility'];
      if (body.defaultLevel !== undefined) patch.defaultLevel = body.defaultLevel as SpacePatch['defaultLevel'];
      const updated = Object.keys(patch).length > 0 ? await deps.store.spaces.update(space.id, patch) : space;
      const template = (request.body as { template?: boolean | { subtitle?: string | null; features?: string[] } } | undefined)?.template;
      if (template === false) await deps.store.spaceTemplates.unmark(space.organizationId, space.id);
      else if (template !== undefined) await deps.store.spaceTemplates.mark(space.organizationId, space.id, template === true ? {} : template);
      return spaceBody(deps.store, updated, urls, requireAuth(request).access);
    },
  );
}

/** A space's deletion and its undoing. */
function spaceLifecycleRoutes(app: FastifyInstance, deps: ApiDeps, urls: UrlBuilder): void {
  /**
   * 205 when the space was deleted (the purge starts), 204 when there was no such live space: another
   * organization's space is no such space (204, untouched).
   */
  app.delete<{ Params: { spaceId: string } }>('/v1/spaces/:spaceId', async (request, reply) => {
    // The access gate found the space, or left it null when the caller cannot see it (then there is no such space).
    const space = requireAuth(request).space ?? null;
    if (!space || space.deletedAt) {
      if (space?.deletionId) await startPurge(deps, space, space.deletionId);
      return reply.status(204).send();
    }
    const { deletionId } = await deps.store.spaces.markDeleted(space.id);
    await startPurge(deps, space, deletionId);
    return reply.status(205).send();
  });

  /** Undoes a deletion within the purge window; 404 once the space was purged. */
  app.post<{ Params: { spaceId: string } }>(
    '/v1/spaces/:spaceId/restore',
    { schema: { body: { type: ['object', 'null'], properties: {} } } },
    async (request) => {
      const space = await loadSpace(deps, request, request.params.spaceId, { includeDeleted: true });
      if (!space.deletedAt || !space.deletionId) return spaceBody(deps.store, space, urls, requireAuth(request).access);
      let restored: SpaceRecord;
      try {
        restored = await deps.store.spaces.restore(space.id, space.deletionId);
      } catch (err) {
        if ((err as { code?: string }).code === 'NOT_FOUND') throw notFound(`space not found: ${space.id}`);
        throw err;
      }
      await signalRestore(deps, space.id, space.deletionId);
      return spaceBody(deps.store, restored, urls, requireAuth(request).access);
    },
  );
}
