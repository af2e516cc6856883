import type { FastifyInstance, FastifyRequest } from 'fastify';
import { applyContentChanges, type ContentChange } from '../../change-requests/apply-changes.js';
import type { ChangeRequestRecord, ChangeRequestStatus, RevisionRecord, SpaceRecord } from '../../store/index.js';
import { actorId, requireAuth } from '../auth.js';
import { workflowStarter, type ApiDeps } from '../deps.js';
import { runChangeRequestMerge } from '../../temporal/client/start.js';
import { WorkflowRunError } from '../../temporal/client/workflow-run-error.js';
import { badRequest, conflict, notFound, unprocessable } from '../http-errors.js';
import { ParseBudgetExceededError, ParseTaskFailedError } from '../../parse-pool/errors.js';
import { ValidationError } from '../../errors.js';
import { assertEditable, assertMergeable, assertStatusMove } from '../../change-requests/status.js';
import { changeRequestObject } from '../objects/change-request.js';
import { fileObject, revisionObject } from '../objects/revision.js';
import type { UrlBuilder } from '../objects/urls.js';
import { listEnvelope, pageQuery } from '../pagination.js';
import { assertSpaceEditable } from '../space-editable.js';
import { registerContentReads } from './content.js';
import { revisionChanges } from '../revision-changes.js';
import { loadSpace } from './spaces.js';

const STATUSES = ['draft', 'open', 'archived', 'merged'] as const;
const pageMeta = {
  title: { type: 'string', minLength: 1 },
  slug: { type: 'string', maxLength: 100 },
  emoji: { type: 'string', maxLength: 50 },
  description: { type: 'string', maxLength: 1000 },
  into: { type: ['string', 'null'] },
  at: { type: 'integer', minimum: 0 },
  document: { type: 'object' },
} as const;
const contentBody = {
  type: 'object',
  required: ['changes'],
  properties: {
    changes: {
      type: 'array',
      minItems: 1,
      maxItems: 50,
      items: {
        type: 'object',
        required: ['operation'],
        properties: {
          operation: { type: 'string', enum: ['insert_page', 'update_page', 'delete_page', 'revert_page', 'insert_files'] },
          page: { type: 'string' },
          ref: { type: 'string' },
          revision: { type: 'string' },
          block: { type: 'array', items: { type: 'string' } },
          ...pageMeta,
          files: {
            type: 'array',
            minItems: 1,
            maxItems: 20,
            items: {
              type: 'object',
              required: ['name'],
              properties: {
                name: { type: 'string', minLength: 1, maxLength: 256 },
                contentType: { type: 'string' },
                base64: { type: 'string' },
                url: { type: 'string' },
                ref: { type: 'string' },
              },
            },
          },
        },
      },
    },
  },
} as const;

/** The ChangeRequest object of a merge revision (for `Revision.mergedFrom`). */
export function mergedFromResolver(deps: ApiDeps, urls: UrlBuilder) {
  const crs = deps.store.changeRequests;
  return async (revision: RevisionRecord) => {
    const cr = await crs.byMergedRevision(revision.id);
    if (!cr) return undefined;
    const space = await deps.store.spaces.get(cr.spaceId);
    const users = await deps.store.users.getMany([cr.createdBy, cr.mergedBy].filter((id): id is string => id !== null));
    const comments = (await deps.store.comments.openCounts([cr.spaceId])).changeRequests.get(cr.id) ?? 0;
    return changeRequestObject(cr, space?.revisionId ?? null, urls, users, comments) as unknown as Record<string, unknown>;
  };
}

export function changeRequestRoutes(app: FastifyInstance, deps: ApiDeps, urls: UrlBuilder): void {
  const ctx = routesContext(deps, urls);
  changeRequestRecordRoutes(app, ctx);
  changeRequestEditRoutes(app, ctx);
  changeRequestMergeRoutes(app, ctx);
  changeRequestReadRoutes(app, ctx);
}

type P = { spaceId: string; changeRequestId: string };
type Routes = ReturnType<typeof routesContext>;

/** What every group of change-request routes uses: the request's change request, its API objects, the editable check. */
function routesContext(deps: ApiDeps, urls: UrlBuilder) {
  const crs = deps.store.changeRequests;
  const load = async (request: FastifyRequest): Promise<{ space: SpaceRecord; cr: ChangeRequestRecord }> => {
    const params = request.params as P;
    const space = await loadSpace(deps, request, params.spaceId);
    const cr = await crs.get(space.id, params.changeRequestId);
    if (!cr) throw notFound(`change request not found: ${params.changeRequestId}`);
    return { space, cr };
  };
  /** The ChangeRequest objects, with their authors and mergers (users read once for the whole list). */
  const objects = async (list: ChangeRequestRecord[], space: SpaceRecord) => {
    const users = await deps.store.users.getMany(list.flatMap((cr) => [cr.createdBy, cr.mergedBy]).filter((id): id is string => id !== null));
    const comments = (await deps.store.comments.openCounts([space.id])).changeRequests;
    return list.map((cr) => changeRequestObject(cr, space.revisionId, urls, users, comments.get(cr.id) ?? 0));
  };
  const object = async (cr: ChangeRequestRecord, space: SpaceRecord) => (await objects([cr], space))[0]!;
  const open = (cr: ChangeRequestRecord) => assertEditable(cr.number, cr.status);
  return { deps, urls, crs, load, objects, object, open };
}

/** Create, list, read and update change requests (subject, status). */
function changeRequestRecordRoutes(app: FastifyInstance, ctx: Routes): void {
  const { deps, crs, load, objects, object } = ctx;
  app.post<{ Params: { spaceId: string }; Body: { subject?: string } }>(
    '/v1/spaces/:spaceId/change-requests',
    { schema: { body: { type: 'object', additionalProperties: true, properties: { subject: { type: 'string', maxLength: 100 } } } } },
    async (request, reply) => {
      const auth = requireAuth(request);
      const space = await loadSpace(deps, request, request.params.spaceId);
      if (!space.revisionId) throw badRequest('the space has no content yet');
      const cr = await crs.create({ spaceId: space.id, subject: request.body?.subject, createdBy: actorId(auth), revisionId: space.revisionId });
      await deps.store.reviews.contribute(cr.id, actorId(auth), 'edit');
      const body = await object(cr, space);
      return reply.status(201).header('location', body.urls.location).send(body);
    },
  );

  app.get<{
    Params: { spaceId: string };
    Querystring: { status?: ChangeRequestStatus; creator?: string; contributor?: string; requestedReviewer?: string };
  }>(
    '/v1/spaces/:spaceId/change-requests',
    {
      schema: {
        querystring: {
          type: 'object',
          properties: {
            status: { type: 'string', enum: [...STATUSES] },
            limit: { type: 'string' },
            page: { type: 'string' },
            creator: { type: 'string', maxLength: 128 },
            contributor: { type: 'string', maxLength: 128 },
            requestedReviewer: { type: 'string', maxLength: 128 },
          },
        },
      },
    },
    async (request) => {
      const q = pageQuery(request.query as Record<string, unknown>);
      const space = await loadSpace(deps, request, request.params.spaceId);
      const { status, creator, contributor, requestedReviewer } = request.query;
      const result = await crs.list(space.id, { ...q, status: status ?? 'open', creator, contributor, requestedReviewer });
      return listEnvelope(await objects(result.items, space), result.next, result.total);
    },
  );

  app.get('/v1/spaces/:spaceId/change-requests/:changeRequestId', async (request) => {
    const { space, cr } = await load(request);
    return object(cr, space);
  });

  app.patch<{ Body: { subject?: string; status?: ChangeRequestStatus } }>(
    '/v1/spaces/:spaceId/change-requests/:changeRequestId',
    {
      schema: {
        body: {
          type: 'object',
          additionalProperties: true,
          properties: { subject: { type: 'string', maxLength: 100 }, status: { type: 'string', enum: ['draft', 'open', 'archived'] } },
        },
      },
    },
    async (request) => {
      const { space, cr } = await load(request);
      if (cr.status === 'merged') throw badRequest(`change request ${cr.number} is already merged`);
      if (request.body?.status) assertStatusMove(cr.number, cr.status, request.body.status);
      const updated = await crs.update(space.id, cr.id, { subject: request.body?.subject, status: request.body?.status });
      return object(updated, space);
    },
  );
}

/** Edits of a change request's content. */
function changeRequestEditRoutes(app: FastifyInstance, ctx: Routes): void {
  const { deps, urls, crs, load, object, open } = ctx;
  app.post<{ Body: { changes: ContentChange[] }; Querystring: { compat?: 'true' | 'false' } }>(
    '/v1/spaces/:spaceId/change-requests/:changeRequestId/content',
    { schema: { body: contentBody, querystring: { type: 'object', properties: { compat: { type: 'string', enum: ['true', 'false'] } } } } },
    async (request) => {
      const { space, cr } = await load(request);
      assertSpaceEditable(space);
      open(cr);
      const decode = (markdown: string) =>
        deps.parsePool!.run('page.decode', markdown).catch((err: unknown) => {
          if (err instanceof ParseBudgetExceededError)
            throw unprocessable('PAGE_TOO_COMPLEX', `a page's markdown is too complex to parse (over the ${err.budget} budget); nothing was changed`, {
              budget: err.budget,
            });
          throw err;
        });
      const fromDocument = (document: unknown, options: { original?: string; title?: string }) =>
        deps.parsePool!.run('page.fromDocument', document, options).catch((err: unknown) => {
          if (err instanceof ParseTaskFailedError && err.data.code === 'DOCUMENT_INVALID')
            throw new ValidationError(String(err.message).replace(/^page\.fromDocument failed: /, ''));
          if (err instanceof ParseBudgetExceededError)
            throw unprocessable('PAGE_TOO_COMPLEX', `a page's document is too complex to convert (over the ${err.budget} budget); nothing was changed`, {
              budget: err.budget,
            });
          throw err;
        });
      const { revisionId, affected, insertedFiles } = await applyContentChanges(deps.store, space.id, cr.revisionId, request.body.changes, {
        decode,
        fromDocument,
        initialRevisionId: cr.revisionInitial,
      });
      const updated = await crs.setRevision(cr.id, revisionId, cr.revisionId);
      await deps.store.reviews.contribute(cr.id, actorId(requireAuth(request)), 'edit');
      if (request.query.compat !== 'false') return object(updated, space);
      // compat=false: the spec's ChangeRequestContentUpdate (the change request, the affected pages, the files inserted).
      const pageRef = (id: string) => ({ object: 'page', id, urls: { location: urls.api(`/spaces/${space.id}/change-requests/${cr.id}/content/page/${id}`) } });
      const scope = { spaceId: space.id, revisionId };
      const files = await Promise.all(insertedFiles.map((id) => deps.store.revisions.file(revisionId, id)));
      return {
        changeRequest: await object(updated, space),
        changes: affected.map((a) =>
          a.object === 'deleted_page'
            ? { object: a.object, page: a.id }
            : { object: a.object, ...('ref' in a && a.ref ? { ref: a.ref } : {}), page: pageRef(a.id) },
        ),
        insertedFiles: files.filter((f) => f !== null).map((f) => fileObject(f, scope, urls)),
      };
    },
  );
}

/** Merging a change request, and updating it with the primary content. */
function changeRequestMergeRoutes(app: FastifyInstance, ctx: Routes): void {
  const { deps, urls, load, open } = ctx;
  /** Runs the update or the merge as its workflow; a conflict is a 409 naming the pages and blocks. */
  const runStep = async (space: SpaceRecord, cr: ChangeRequestRecord, operation: 'update' | 'merge', actor: string | null) => {
    try {
      return await runChangeRequestMerge(workflowStarter(deps), {
        organizationId: space.organizationId,
        spaceId: space.id,
        changeRequestId: cr.id,
        operation,
        actor,
      });
    } catch (err) {
      if (!(err instanceof WorkflowRunError)) throw err;
      if (err.code === 'CONFLICT') throw conflict(err.message, err.data);
      if (err.code === 'NOT_FOUND') throw notFound(err.message);
      if (err.code === 'VALIDATION') throw badRequest(err.message);
      if (err.code === 'PAGE_TOO_COMPLEX') throw unprocessable('PAGE_TOO_COMPLEX', err.message);
      throw err;
    }
  };

  app.post(
    '/v1/spaces/:spaceId/change-requests/:changeRequestId/merge',
    { schema: { body: { type: ['object', 'null'], properties: {} } } },
    async (request) => {
      const auth = requireAuth(request);
      const { space, cr } = await load(request);
      assertSpaceEditable(space);
      if (cr.status === 'merged') throw badRequest(`change request ${cr.number} is already merged`);
      assertMergeable(cr.number, cr.status);
      if (!space.revisionId) throw badRequest('the space has no content yet');
      // Not behind: the change request's content. Behind: three-way, page by page and block by block (a workflow).
      const result = await runStep(space, cr, 'merge', actorId(auth));
      return { revision: result.revisionId, result: 'merge' };
    },
  );

  app.post(
    '/v1/spaces/:spaceId/change-requests/:changeRequestId/update',
    { schema: { body: { type: ['object', 'null'], properties: {} } } },
    async (request) => {
      const { space, cr } = await load(request);
      open(cr);
      if (!space.revisionId || space.revisionId === cr.revisionInitial) return { revision: cr.revisionId, result: 'update' };
      const result = await runStep(space, cr, 'update', null);
      return { revision: result.revisionId, result: 'update' };
    },
  );

  registerContentReads(app, deps, urls, '/v1/spaces/:spaceId/change-requests/:changeRequestId/content', async (request) => {
    const { space, cr } = await load(request);
    return { space, spaceId: space.id, revisionId: cr.revisionId };
  });
}

/** A change request's content and its changes. */
function changeRequestReadRoutes(app: FastifyInstance, ctx: Routes): void {
  const { deps, urls, load } = ctx;
  /** What the change request changes: its revision against the primary revision it was made from (or last updated against). */
  app.get<{ Querystring: { limit?: number } }>(
    '/v1/spaces/:spaceId/change-requests/:changeRequestId/changes',
    { schema: { querystring: { type: 'object', properties: { limit: { type: 'integer', minimum: 1, maximum: 1000 } } } } },
    async (request) => {
      const { space, cr } = await load(request);
      const { revisions } = deps.store;
      const [beforePages, beforeFiles, afterPages, afterFiles] = await Promise.all([
        revisions.pages(cr.revisionInitial),
        revisions.files(cr.revisionInitial),
        revisions.pages(cr.revisionId),
        revisions.files(cr.revisionId),
      ]);
      const scope = { spaceId: space.id, revisionId: cr.revisionId };
      const all = revisionChanges(
        { pages: beforePages, files: beforeFiles },
        { pages: afterPages, files: afterFiles },
        (f) => fileObject(f, scope, urls).downloadURL as string,
      );
      const limit = request.query.limit ?? 100;
      return { changes: all.slice(0, limit), ...(all.length > limit ? { more: all.length - limit } : {}) };
    },
  );
  app.get('/v1/spaces/:spaceId/change-requests/:changeRequestId/content', async (request) => {
    const { cr } = await load(request);
    const revision = (await deps.store.revisions.get(cr.revisionId))!;
    return revisionObject(revision, await deps.store.revisions.pages(revision.id), await deps.store.revisions.files(revision.id), urls);
  });
}
