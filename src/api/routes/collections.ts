/**
 * Collections, in the official shapes: `GET|POST /v1/orgs/{organizationId}/collections`, `GET|PATCH|DELETE
 * /v1/collections/{collectionId}`, `GET …/spaces`, `POST …/move` and `POST /v1/spaces/{spaceId}/move`, and the
 * permission routes of content under `/v1/collections/{collectionId}/permissions` (./permissions.ts). What a
 * collection's `defaultLevel` and grants give reaches everything inside it (src/people/access.ts).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { COLLECTION_DESCRIPTION_MAX, COLLECTION_TITLE_MAX, type CollectionPatch, type CollectionRecord, type SpaceRecord } from '../../store/index.js';
import { actorId, actorOf, requireAuth, requireOrg, type AuthContext } from '../auth.js';
import { targetCollection } from '../collection-target.js';
import type { ApiDeps } from '../deps.js';
import { notFound } from '../http-errors.js';
import { collectionObject } from '../objects/collection.js';
import type { UrlBuilder } from '../objects/urls.js';
import { listEnvelope, pageQuery, paginateArray } from '../pagination.js';
import { spaceBody, spaceBodies } from '../space-bodies.js';
import { contentPermissionRoutes } from './permissions.js';
import { loadSpace } from './spaces.js';

const TITLE = { type: 'string', maxLength: COLLECTION_TITLE_MAX } as const;
const DESCRIPTION = { type: 'string', minLength: 0, maxLength: COLLECTION_DESCRIPTION_MAX } as const;
/** The spec's `DefaultLevel`: `inherit`, a member role, or null. */
const DEFAULT_LEVEL = { anyOf: [{ type: 'string', enum: ['inherit', 'admin', 'create', 'edit', 'review', 'comment', 'read'] }, { type: 'null' }] } as const;
/** `position` (where among its siblings) is not kept by Folio: the closed schema refuses it rather than ignore it. */
const MOVE_BODY = { type: 'object', minProperties: 1, required: ['parent'], properties: { parent: { type: ['string', 'null'], maxLength: 64 } } } as const;

/** The collection the access gate found for `:collectionId`. */
function gated(request: FastifyRequest): CollectionRecord {
  const collection = requireAuth(request).collection;
  if (!collection) throw notFound(`collection not found: ${(request.params as { collectionId: string }).collectionId}`);
  return collection;
}

async function collectionBody(request: FastifyRequest, collection: CollectionRecord, urls: UrlBuilder) {
  return collectionObject(collection, urls, await requireAuth(request).access.collectionRole(collection));
}

/** Every live space directly in the collection that the caller can see, oldest first. */
async function visibleSpacesIn(deps: ApiDeps, auth: AuthContext, collectionId: string): Promise<SpaceRecord[]> {
  const all: SpaceRecord[] = [];
  let page: string | undefined;
  do {
    const result = await deps.store.collections.spaces(collectionId, { limit: 1000, ...(page ? { page } : {}) });
    all.push(...result.items);
    page = result.next?.page;
  } while (page);
  const roles = await auth.access.spaceRoles(all);
  return all.filter((s) => roles.get(s.id) !== null);
}

export function collectionRoutes(app: FastifyInstance, deps: ApiDeps, urls: UrlBuilder): void {
  const { store } = deps;

  app.post<{ Params: { organizationId: string }; Body: { title?: string; parent?: string } | undefined }>(
    '/v1/orgs/:organizationId/collections',
    { schema: { body: { type: ['object', 'null'], properties: { title: TITLE, parent: { type: 'string', maxLength: 64 } } } } },
    async (request, reply) => {
      const auth = requireOrg(request, request.params.organizationId);
      const body = request.body ?? {};
      if (body.parent !== undefined) await targetCollection(deps, auth, body.parent, 'parent');
      const collection = await store.collections.create(auth.organizationId, {
        title: body.title ?? '',
        parent: body.parent ?? null,
        createdBy: actorId(auth),
      });
      // As for spaces: a member who may create but not administer the organization's content administers what they made.
      if (auth.userId && auth.role !== 'admin')
        await store.permissions.set(
          auth.organizationId,
          { kind: 'collection', id: collection.id },
          [{ kind: 'user', id: auth.userId }],
          'admin',
          actorOf(request),
        );
      return reply.status(201).send(await collectionBody(request, collection, urls));
    },
  );

  app.get<{ Params: { organizationId: string }; Querystring: { nested?: boolean; page?: string; limit?: number } }>(
    '/v1/orgs/:organizationId/collections',
    { schema: { querystring: { type: 'object', properties: { nested: { type: 'boolean' }, page: { type: 'string' }, limit: { type: 'number' } } } } },
    async (request) => {
      const auth = requireOrg(request, request.params.organizationId);
      const q = pageQuery(request.query as Record<string, unknown>);
      const topLevel = request.query.nested === false;
      const all = (await store.collections.all(auth.organizationId)).filter((c) => !topLevel || c.parent === null);
      const roles = await Promise.all(all.map((c) => auth.access.collectionRole(c)));
      const visible = all.flatMap((c, i) => (roles[i] !== null ? [collectionObject(c, urls, roles[i]!)] : []));
      return paginateArray(topLevel ? 'collections-top' : 'collections', visible, q);
    },
  );

  app.get('/v1/collections/:collectionId', async (request) => collectionBody(request, gated(request), urls));

  app.patch<{ Body: CollectionPatch }>(
    '/v1/collections/:collectionId',
    { schema: { body: { type: 'object', properties: { title: TITLE, description: DESCRIPTION, defaultLevel: DEFAULT_LEVEL } } } },
    async (request) => collectionBody(request, await store.collections.update(gated(request).id, request.body ?? {}), urls),
  );

  /** 205 when deleted, 204 when there was no such collection (or one the caller cannot see); 409 when it is not empty. */
  app.delete('/v1/collections/:collectionId', async (request, reply) => {
    const collection = requireAuth(request).collection;
    const deleted = collection ? await store.collections.delete(collection.id) : false;
    return reply.status(deleted ? 205 : 204).send();
  });

  app.get('/v1/collections/:collectionId/spaces', async (request) => {
    const auth = requireAuth(request);
    const page = paginateArray('collection-spaces', await visibleSpacesIn(deps, auth, gated(request).id), pageQuery(request.query as Record<string, unknown>));
    return listEnvelope(await spaceBodies(store, page.items, urls, auth.access), page.next, page.count);
  });

  collectionMoveRoutes(app, deps, urls);
  contentPermissionRoutes(app, deps, urls, {
    prefix: '/v1/collections/:collectionId',
    async load(request) {
      const collection = gated(request);
      return { ref: { kind: 'collection', id: collection.id }, organizationId: collection.organizationId, collection };
    },
  });
}

/** Moving a collection or a space into a collection (or to the top level: `parent: null`). */
function collectionMoveRoutes(app: FastifyInstance, deps: ApiDeps, urls: UrlBuilder): void {
  const { store } = deps;
  app.post<{ Body: { parent: string | null } }>('/v1/collections/:collectionId/move', { schema: { body: MOVE_BODY } }, async (request) => {
    const collection = gated(request);
    if (request.body.parent !== null) await targetCollection(deps, requireAuth(request), request.body.parent, 'parent');
    return collectionBody(request, await store.collections.move(collection.id, request.body.parent), urls);
  });

  app.post<{ Params: { spaceId: string }; Body: { parent: string | null } }>('/v1/spaces/:spaceId/move', { schema: { body: MOVE_BODY } }, async (request) => {
    const auth = requireAuth(request);
    const space = await loadSpace(deps, request, request.params.spaceId);
    if (request.body.parent !== null) await targetCollection(deps, auth, request.body.parent, 'parent');
    return spaceBody(store, await store.collections.moveSpace(space.organizationId, space.id, request.body.parent), urls, auth.access);
  });
}
