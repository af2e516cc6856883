/**
 * Reviews of a change request, in the official shapes: requested reviewers (`GET|POST …/requested-reviewers`,
 * `DELETE …/requested-reviewers/{userId}`), reviews (`GET|POST …/reviews`, `GET …/reviews/{reviewId}`: approved or
 * changes requested, against the change request's revision, with an optional comment in its thread), its contributors
 * (`GET …/contributors`: who edited, who commented), and the organization-wide list `GET /v1/orgs/{id}/change-requests`.
 * Reviewing needs the `review` role (as merging does); asking for reviewers needs `edit`.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { newId, type ChangeRequestRecord, type ChangeRequestStatus, type ReviewRecord, type ReviewStatus, type SpaceRecord } from '../../store/index.js';
import { actorId, requireAuth, requireOrg } from '../auth.js';
import type { ApiDeps } from '../deps.js';
import { badRequest, notFound } from '../http-errors.js';
import { changeRequestObject } from '../objects/change-request.js';
import { contributorObject, requestedReviewerObject, reviewObject } from '../objects/review.js';
import type { UrlBuilder } from '../objects/urls.js';
import { listEnvelope, pageQuery } from '../pagination.js';
import { commentBodies, commentObjectFor } from './comments.js';
import { loadSpace, visibleSpaces } from './spaces.js';

const CR = '/v1/spaces/:spaceId/change-requests/:changeRequestId';
const STATUSES = ['draft', 'open', 'archived', 'merged'] as const;

type Load = (request: FastifyRequest) => Promise<{ space: SpaceRecord; cr: ChangeRequestRecord }>;
type ReviewBody = (request: FastifyRequest, space: SpaceRecord, cr: ChangeRequestRecord, review: ReviewRecord) => Promise<ReturnType<typeof reviewObject>>;

/** The change request of the route (404 when not in the space), and a review's object with its comment. */
function reviewHelpers(deps: ApiDeps, urls: UrlBuilder): { load: Load; reviewBody: ReviewBody } {
  const { store } = deps;
  const load: Load = async (request) => {
    const params = request.params as { spaceId: string; changeRequestId: string };
    const space = await loadSpace(deps, request, params.spaceId);
    const cr = await store.changeRequests.get(space.id, params.changeRequestId);
    if (!cr) throw notFound(`change request not found: ${params.changeRequestId}`);
    return { space, cr };
  };
  const reviewBody: ReviewBody = async (request, space, cr, review) => {
    const users = await store.users.getMany([review.reviewer, ...(review.requestedBy ? [review.requestedBy] : [])]);
    const scope = { spaceId: space.id, changeRequestId: cr.id };
    const comment = review.commentId ? await store.comments.get(scope, review.commentId) : null;
    const commentBody = comment ? await commentObjectFor(deps, urls, request, { scope, space, revisionId: cr.revisionId }, comment) : undefined;
    return reviewObject(space.id, review, users, urls, commentBody);
  };
  return { load, reviewBody };
}

export function reviewRoutes(app: FastifyInstance, deps: ApiDeps, urls: UrlBuilder): void {
  const { load, reviewBody } = reviewHelpers(deps, urls);
  reviewReadRoutes(app, deps, load, reviewBody);
  submitReviewRoute(app, deps, load, reviewBody);
  reviewerRoutes(app, deps, urls, load);
  organizationChangeRequests(app, deps, urls);
}

function reviewReadRoutes(app: FastifyInstance, deps: ApiDeps, load: Load, reviewBody: ReviewBody): void {
  const { store } = deps;
  app.get<{ Querystring: { outdated?: boolean } }>(
    `${CR}/reviews`,
    {
      schema: {
        querystring: {
          type: 'object',
          properties: {
            outdated: { type: 'boolean' },
            page: { type: 'string' },
            limit: { type: 'number' },
            format: { type: 'string', enum: ['markdown', 'document'] },
          },
        },
      },
    },
    async (request) => {
      const { space, cr } = await load(request);
      const result = await store.reviews.list(cr.id, {
        ...pageQuery(request.query as Record<string, unknown>),
        ...(request.query.outdated !== undefined ? { outdated: request.query.outdated } : {}),
      });
      return listEnvelope(await Promise.all(result.items.map((r) => reviewBody(request, space, cr, r))), result.next, result.total);
    },
  );

  app.get<{ Params: { reviewId: string } }>(
    `${CR}/reviews/:reviewId`,
    { schema: { querystring: { type: 'object', properties: { format: { type: 'string', enum: ['markdown', 'document'] } } } } },
    async (request) => {
      const { space, cr } = await load(request);
      const review = await store.reviews.get(cr.id, request.params.reviewId);
      if (!review) throw notFound(`review not found: ${request.params.reviewId}`);
      return reviewBody(request, space, cr, review);
    },
  );
}

function submitReviewRoute(app: FastifyInstance, deps: ApiDeps, load: Load, reviewBody: ReviewBody): void {
  const { store } = deps;
  const { markdownOf } = commentBodies(deps);
  app.post<{ Body: { status: ReviewStatus; comment?: { markdown: string } | { document: Record<string, unknown> } } }>(
    `${CR}/reviews`,
    {
      schema: {
        body: {
          type: 'object',
          required: ['status'],
          properties: {
            status: { type: 'string', enum: ['approved', 'changes-requested'] },
            comment: {
              type: 'object',
              minProperties: 1,
              maxProperties: 1,
              properties: { markdown: { type: 'string', maxLength: 20_000 }, document: { type: 'object' } },
            },
          },
        },
      },
    },
    async (request, reply) => {
      const { space, cr } = await load(request);
      if (cr.status === 'merged' || cr.status === 'archived') throw badRequest(`change request ${cr.number} is ${cr.status}: it can no longer be reviewed`);
      const reviewer = actorId(requireAuth(request));
      const id = newId();
      let commentId: string | null = null;
      if (request.body.comment) {
        const comment = await store.comments.create({
          spaceId: space.id,
          changeRequestId: cr.id,
          organizationId: space.organizationId,
          postedBy: reviewer,
          body: await markdownOf(request.body.comment),
          revisionId: cr.revisionId,
          reviewId: id,
        });
        commentId = comment.id;
        await store.reviews.contribute(cr.id, reviewer, 'comment');
      }
      const review = await store.reviews.submit({ id, changeRequestId: cr.id, reviewer, status: request.body.status, revisionId: cr.revisionId, commentId });
      return reply.status(201).send(await reviewBody(request, space, cr, review));
    },
  );
}

function reviewerRoutes(app: FastifyInstance, deps: ApiDeps, urls: UrlBuilder, load: Load): void {
  const { store } = deps;
  app.get(`${CR}/requested-reviewers`, async (request) => {
    const { cr } = await load(request);
    const result = await store.reviews.requested(cr.id, pageQuery(request.query as Record<string, unknown>));
    const users = await store.users.getMany(result.items.flatMap((r) => [r.userId, r.requestedBy]));
    return listEnvelope(
      result.items.map((r) => requestedReviewerObject(r, users, urls)),
      result.next,
      result.total,
    );
  });

  app.post<{ Body: { users: string[]; subject?: string } }>(
    `${CR}/requested-reviewers`,
    {
      schema: {
        body: {
          type: 'object',
          required: ['users'],
          properties: {
            users: { type: 'array', minItems: 1, maxItems: 100, items: { type: 'string', maxLength: 128 } },
            subject: { type: 'string', maxLength: 100 },
          },
        },
      },
    },
    async (request) => {
      const { space, cr } = await load(request);
      if (cr.status === 'merged' || cr.status === 'archived') throw badRequest(`change request ${cr.number} is ${cr.status}: no review can be asked for`);
      for (const userId of request.body.users) {
        const member = await store.members.get(space.organizationId, userId);
        if (!member || member.disabled) throw badRequest(`users: not a member of the organization: ${userId.slice(0, 128)}`);
      }
      if (request.body.subject !== undefined) await store.changeRequests.update(space.id, cr.id, { subject: request.body.subject });
      const requested = await store.reviews.request(cr.id, request.body.users, actorId(requireAuth(request)), cr.revisionId);
      const users = await store.users.getMany(requested.flatMap((r) => [r.userId, r.requestedBy]));
      return { users: requested.map((r) => requestedReviewerObject(r, users, urls)) };
    },
  );

  app.delete<{ Params: { userId: string } }>(`${CR}/requested-reviewers/:userId`, async (request, reply) => {
    const { cr } = await load(request);
    return reply.status((await store.reviews.unrequest(cr.id, request.params.userId)) ? 205 : 204).send();
  });

  app.get(`${CR}/contributors`, async (request) => {
    const { cr } = await load(request);
    const list = await store.reviews.contributors(cr.id);
    const users = await store.users.getMany(list.map((c) => c.userId));
    return listEnvelope(
      list.map((c) => contributorObject(c, users, urls)),
      undefined,
      list.length,
    );
  });
}

type OrgListQuery = {
  status?: ChangeRequestStatus[];
  creator?: string;
  contributor?: string;
  requestedReviewer?: string;
  space?: string;
  page?: string;
  limit?: number;
};

/** The change requests of the spaces of the organization the caller can see. */
function organizationChangeRequests(app: FastifyInstance, deps: ApiDeps, urls: UrlBuilder): void {
  const USER = { type: 'string', maxLength: 128 } as const;
  app.get<{ Params: { organizationId: string }; Querystring: OrgListQuery }>(
    '/v1/orgs/:organizationId/change-requests',
    {
      schema: {
        querystring: {
          type: 'object',
          properties: {
            status: { type: 'array', maxItems: 4, items: { type: 'string', enum: [...STATUSES] } },
            creator: USER,
            contributor: USER,
            requestedReviewer: USER,
            space: USER,
            page: { type: 'string' },
            limit: { type: 'number' },
          },
        },
      },
    },
    async (request) => {
      const auth = requireOrg(request, request.params.organizationId);
      const q = request.query;
      const spaces = (await visibleSpaces(deps, auth.organizationId, auth.access)).filter((s) => !q.space || s.id === q.space);
      const byId = new Map(spaces.map((s) => [s.id, s]));
      const result = await deps.store.changeRequests.list(
        spaces.map((s) => s.id),
        {
          ...pageQuery(q as Record<string, unknown>),
          status: q.status?.length ? q.status : ['open'],
          creator: q.creator,
          contributor: q.contributor,
          requestedReviewer: q.requestedReviewer,
        },
      );
      const users = await deps.store.users.getMany(result.items.flatMap((cr) => [cr.createdBy, cr.mergedBy]).filter((id): id is string => id !== null));
      const comments = (await deps.store.comments.openCounts([...new Set(result.items.map((cr) => cr.spaceId))])).changeRequests;
      const items = result.items.map((cr) => changeRequestObject(cr, byId.get(cr.spaceId)?.revisionId ?? null, urls, users, comments.get(cr.id) ?? 0));
      return listEnvelope(items, result.next, result.total);
    },
  );
}
