/**
 * Comments and replies, in the official shapes, on a space (`/v1/spaces/{spaceId}/comments…`) and on a change
 * request (`/v1/spaces/{spaceId}/change-requests/{changeRequestId}/comments…`): list (pagination, `order`, `status`
 * all/open/resolved, `targetPage`, `authors`), post (optionally on a page of the current revision, and a node of it or
 * a table cell), read, edit, resolve and reopen, react, delete; replies alike. The `comment` role posts, replies,
 * reacts and resolves; changing or deleting someone else's post needs the admin role (src/comments/rights.ts).
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { pagesById } from '../../comments/anchor.js';
import { commentRights } from '../../comments/rights.js';
import { ValidationError } from '../../errors.js';
import { ParseBudgetExceededError, ParseTaskFailedError } from '../../parse-pool/errors.js';
import type { CommentAnchor, CommentRecord, CommentReplyRecord, CommentScope, SpaceRecord } from '../../store/index.js';
import { actorId, requireAuth } from '../auth.js';
import type { ApiDeps } from '../deps.js';
import { badRequest, HttpError, notFound, unprocessable } from '../http-errors.js';
import { commentObject, commentReplyObject, usersNamed, type CommentView } from '../objects/comment.js';
import type { UrlBuilder } from '../objects/urls.js';
import { listEnvelope, pageQuery } from '../pagination.js';
import { loadSpace } from './spaces.js';

/** A comment's or a reply's markdown: at most this many characters. */
export const COMMENT_BODY_MAX = 20_000;

/** Where the thread is: its scope, its space, and the revision comments are posted on (the primary, or the change request's). */
export interface Thread {
  scope: CommentScope;
  space: SpaceRecord;
  revisionId: string | null;
}

type Body = { markdown: string } | { document: Record<string, unknown> };
type Format = 'markdown' | 'document';

const BODY = {
  type: 'object',
  minProperties: 1,
  maxProperties: 1,
  properties: { markdown: { type: 'string', maxLength: COMMENT_BODY_MAX }, document: { type: 'object' } },
} as const;
const REACTIONS = { type: 'array', maxItems: 20, items: { type: 'string', minLength: 1, maxLength: 32 } } as const;
const FORMAT = { type: 'string', enum: ['markdown', 'document'] } as const;
const ID = { type: 'string', minLength: 1, maxLength: 128 } as const;

const postBody = {
  type: 'object',
  required: ['body'],
  properties: {
    body: BODY,
    page: ID,
    node: ID,
    tableCell: { type: 'object', required: ['record', 'definition'], properties: { record: ID, definition: ID } },
  },
} as const;
const updateBody = {
  type: 'object',
  properties: { resolved: { type: 'boolean' }, body: BODY, addedReactions: REACTIONS, removedReactions: REACTIONS },
} as const;
const updateReplyBody = { type: 'object', properties: { body: BODY, addedReactions: REACTIONS, removedReactions: REACTIONS } } as const;
const listQuery = {
  type: 'object',
  properties: {
    page: { type: 'string' },
    limit: { type: 'number' },
    order: { type: 'string', enum: ['asc', 'desc'] },
    status: { type: 'string', enum: ['all', 'open', 'resolved'] },
    format: FORMAT,
    targetPage: ID,
    authors: { type: 'array', maxItems: 100, items: ID },
  },
} as const;
const formatQuery = { type: 'object', properties: { format: FORMAT } } as const;
const replyListQuery = { type: 'object', properties: { page: { type: 'string' }, limit: { type: 'number' }, format: FORMAT } } as const;

/** Changing or deleting what someone else posted: 403, as for a role too weak. */
const notTheAuthor = (what: string, space: string) =>
  new HttpError(403, 'INSUFFICIENT_ROLE', `changing or deleting ${what} needs the admin role on space ${space}, or being its author (INSUFFICIENT_ROLE)`);

/** Markdown in, markdown or a document out, through the parse pool (its budgets bound a hostile comment). */
export function commentBodies(deps: ApiDeps) {
  const pool = deps.parsePool!;
  const tooComplex = (err: unknown): never => {
    if (err instanceof ParseBudgetExceededError)
      throw unprocessable('COMMENT_TOO_COMPLEX', `the comment is too complex to convert (over the ${err.budget} budget)`, { budget: err.budget });
    throw err;
  };
  const markdownOf = async (body: Body): Promise<string> => {
    const markdown =
      'markdown' in body
        ? body.markdown
        : await pool.run('page.fromDocument', body.document, {}).catch((err: unknown) => {
            if (err instanceof ParseTaskFailedError && err.data.code === 'DOCUMENT_INVALID')
              throw new ValidationError(`body.document: ${String(err.message).replace(/^page\.fromDocument failed: /, '')}`);
            return tooComplex(err);
          });
    if (markdown.trim() === '') throw badRequest('body: a comment says something (its markdown is empty)');
    if (markdown.length > COMMENT_BODY_MAX) throw badRequest(`body: a comment is at most ${COMMENT_BODY_MAX} characters of markdown`);
    return markdown;
  };
  const out = async (markdown: string, format: Format | undefined): Promise<{ markdown: string } | { document: unknown }> =>
    format === 'document' ? { document: await pool.run('page.document', markdown).catch(tooComplex) } : { markdown };
  return { markdownOf, out };
}

export function commentRoutes(app: FastifyInstance, deps: ApiDeps, urls: UrlBuilder): void {
  const spaceThread = async (request: FastifyRequest): Promise<Thread> => {
    const space = await loadSpace(deps, request, (request.params as { spaceId: string }).spaceId);
    return { scope: { spaceId: space.id, changeRequestId: null }, space, revisionId: space.revisionId };
  };
  const changeRequestThread = async (request: FastifyRequest): Promise<Thread> => {
    const params = request.params as { spaceId: string; changeRequestId: string };
    const space = await loadSpace(deps, request, params.spaceId);
    const cr = await deps.store.changeRequests.get(space.id, params.changeRequestId);
    if (!cr) throw notFound(`change request not found: ${params.changeRequestId}`);
    return { scope: { spaceId: space.id, changeRequestId: cr.id }, space, revisionId: cr.revisionId };
  };
  for (const [prefix, resolve] of [
    ['/v1/spaces/:spaceId/comments', spaceThread],
    ['/v1/spaces/:spaceId/change-requests/:changeRequestId/comments', changeRequestThread],
  ] as const) {
    threadRoutes(app, deps, urls, prefix, resolve);
    replyRoutes(app, deps, urls, prefix, resolve);
  }
}

/** The view of comments for this request: the users they name, the caller, the current revision's pages. */
async function viewOf(deps: ApiDeps, urls: UrlBuilder, request: FastifyRequest, thread: Thread, records: Array<CommentRecord | CommentReplyRecord>) {
  const auth = requireAuth(request);
  const anchored = records.some((r) => 'anchor' in r && r.anchor.page);
  const pages = anchored && thread.revisionId ? pagesById(await deps.store.revisions.pages(thread.revisionId)) : new Map();
  const view: CommentView = { urls, users: await deps.store.users.getMany(usersNamed(records)), role: auth.role, callerId: actorId(auth), pages };
  return view;
}

/** One Comment object, its body in markdown (a review's comment). */
export async function commentObjectFor(deps: ApiDeps, urls: UrlBuilder, request: FastifyRequest, thread: Thread, comment: CommentRecord) {
  return commentObject(comment, { markdown: comment.body }, await viewOf(deps, urls, request, thread, [comment]));
}

/** The anchor of a new comment: a page of the thread's current revision (400 otherwise), a node or a table cell of it. */
async function anchorOf(deps: ApiDeps, thread: Thread, body: { page?: string; node?: string; tableCell?: { record: string; definition: string } }) {
  if (body.node !== undefined && body.page === undefined) throw badRequest('node: a node is named with its page (page)');
  const anchor: CommentAnchor = {};
  if (body.page !== undefined) {
    const page = thread.revisionId ? pagesById(await deps.store.revisions.pages(thread.revisionId)).get(body.page) : undefined;
    if (!page) throw badRequest(`page: no page ${body.page.slice(0, 128)} in the ${thread.scope.changeRequestId ? 'change request' : 'space'}'s content`);
    anchor.page = { id: page.id, title: page.title, path: page.path };
  }
  if (body.node !== undefined) anchor.node = body.node;
  if (body.tableCell) anchor.tableCell = { record: body.tableCell.record, definition: body.tableCell.definition };
  return anchor;
}

type Resolve = (request: FastifyRequest) => Promise<Thread>;
type CommentParams = { commentId: string };
type ListQuery = {
  page?: string;
  limit?: number;
  order?: 'asc' | 'desc';
  status?: 'all' | 'open' | 'resolved';
  format?: Format;
  targetPage?: string;
  authors?: string[];
};
type UpdateBody = { resolved?: boolean; body?: Body; addedReactions?: string[]; removedReactions?: string[] };

function threadRoutes(app: FastifyInstance, deps: ApiDeps, urls: UrlBuilder, prefix: string, resolve: Resolve): void {
  const { store } = deps;
  const { markdownOf, out } = commentBodies(deps);
  const objects = async (request: FastifyRequest, thread: Thread, list: CommentRecord[], format: Format | undefined) => {
    const view = await viewOf(deps, urls, request, thread, list);
    return Promise.all(list.map(async (c) => commentObject(c, await out(c.body, format), view)));
  };
  const load = async (thread: Thread, id: string) => {
    const comment = await store.comments.get(thread.scope, id);
    if (!comment) throw notFound(`comment not found: ${id}`);
    return comment;
  };

  app.get<{ Querystring: ListQuery }>(prefix, { schema: { querystring: listQuery } }, async (request) => {
    const thread = await resolve(request);
    const q = request.query;
    const result = await store.comments.list(thread.scope, {
      ...pageQuery(q as Record<string, unknown>),
      order: q.order ?? 'desc',
      status: q.status ?? 'all',
      ...(q.targetPage ? { targetPage: q.targetPage } : {}),
      ...(q.authors?.length ? { authors: q.authors } : {}),
    });
    return listEnvelope(await objects(request, thread, result.items, q.format), result.next, result.total);
  });

  app.post<{ Body: { body: Body; page?: string; node?: string; tableCell?: { record: string; definition: string } } }>(
    prefix,
    { schema: { body: postBody } },
    async (request) => {
      const thread = await resolve(request);
      if (!thread.revisionId) throw badRequest('the space has no content yet');
      const markdown = await markdownOf(request.body.body);
      const anchor = await anchorOf(deps, thread, request.body);
      const comment = await store.comments.create({
        ...thread.scope,
        organizationId: thread.space.organizationId,
        postedBy: actorId(requireAuth(request)),
        body: markdown,
        revisionId: thread.revisionId,
        anchor,
      });
      if (thread.scope.changeRequestId) await store.reviews.contribute(thread.scope.changeRequestId, comment.postedBy, 'comment');
      return (await objects(request, thread, [comment], undefined))[0];
    },
  );

  app.get<{ Params: CommentParams; Querystring: { format?: Format } }>(`${prefix}/:commentId`, { schema: { querystring: formatQuery } }, async (request) => {
    const thread = await resolve(request);
    return (await objects(request, thread, [await load(thread, request.params.commentId)], request.query.format))[0];
  });

  app.put<{ Params: CommentParams; Body: UpdateBody }>(`${prefix}/:commentId`, { schema: { body: updateBody } }, async (request) => {
    const thread = await resolve(request);
    const auth = requireAuth(request);
    const comment = await load(thread, request.params.commentId);
    const body = request.body ?? {};
    if (body.body !== undefined && !commentRights(auth.role, actorId(auth), comment.postedBy).edit)
      throw notTheAuthor(`comment ${comment.id}`, thread.space.id);
    const updated = await store.comments.update(thread.scope, comment.id, {
      actor: actorId(auth),
      ...(body.body !== undefined ? { body: await markdownOf(body.body) } : {}),
      ...(body.resolved !== undefined ? { resolved: body.resolved } : {}),
      ...(body.addedReactions ? { addedReactions: body.addedReactions } : {}),
      ...(body.removedReactions ? { removedReactions: body.removedReactions } : {}),
    });
    return (await objects(request, thread, [updated], undefined))[0];
  });

  /** 205 when deleted (with its replies), 204 when there was no such comment. */
  app.delete<{ Params: CommentParams }>(`${prefix}/:commentId`, async (request, reply) => {
    const thread = await resolve(request);
    const auth = requireAuth(request);
    const comment = await store.comments.get(thread.scope, request.params.commentId);
    if (!comment) return reply.status(204).send();
    if (!commentRights(auth.role, actorId(auth), comment.postedBy).delete) throw notTheAuthor(`comment ${comment.id}`, thread.space.id);
    return reply.status((await store.comments.delete(thread.scope, comment.id)) ? 205 : 204).send();
  });
}

type ReplyParams = CommentParams & { commentReplyId: string };

/** Loading a comment and a reply of the thread (404 otherwise), and making their objects. */
function replyHelpers(deps: ApiDeps, urls: UrlBuilder) {
  const { store } = deps;
  const { out } = commentBodies(deps);
  const objects = async (request: FastifyRequest, thread: Thread, comment: CommentRecord, list: CommentReplyRecord[], format: Format | undefined) => {
    const view = await viewOf(deps, urls, request, thread, list);
    return Promise.all(list.map(async (r) => commentReplyObject(comment, r, await out(r.body, format), view)));
  };
  const loadComment = async (thread: Thread, id: string) => {
    const comment = await store.comments.get(thread.scope, id);
    if (!comment) throw notFound(`comment not found: ${id}`);
    return comment;
  };
  const loadReply = async (thread: Thread, params: ReplyParams) => {
    const comment = await loadComment(thread, params.commentId);
    const found = await store.comments.getReply(thread.scope, comment.id, params.commentReplyId);
    if (!found) throw notFound(`comment reply not found: ${params.commentReplyId}`);
    return { comment, found };
  };
  return { objects, loadComment, loadReply };
}

function replyRoutes(app: FastifyInstance, deps: ApiDeps, urls: UrlBuilder, prefix: string, resolve: Resolve): void {
  const { store } = deps;
  const { markdownOf } = commentBodies(deps);
  const { objects, loadComment, loadReply } = replyHelpers(deps, urls);

  app.get<{ Params: CommentParams; Querystring: { format?: Format } }>(
    `${prefix}/:commentId/replies`,
    { schema: { querystring: replyListQuery } },
    async (request) => {
      const thread = await resolve(request);
      const comment = await loadComment(thread, request.params.commentId);
      const result = await store.comments.replies(thread.scope, comment.id, pageQuery(request.query as Record<string, unknown>));
      return listEnvelope(await objects(request, thread, comment, result.items, request.query.format), result.next, result.total);
    },
  );

  app.post<{ Params: CommentParams; Body: { body: Body } }>(
    `${prefix}/:commentId/replies`,
    { schema: { body: { type: 'object', required: ['body'], properties: { body: BODY } }, querystring: formatQuery } },
    async (request) => {
      const thread = await resolve(request);
      const comment = await loadComment(thread, request.params.commentId);
      const markdown = await markdownOf(request.body.body);
      const created = await store.comments.reply(thread.scope, comment.id, { postedBy: actorId(requireAuth(request)), body: markdown });
      if (thread.scope.changeRequestId) await store.reviews.contribute(thread.scope.changeRequestId, created.postedBy, 'comment');
      return (await objects(request, thread, comment, [created], (request.query as { format?: Format }).format))[0];
    },
  );

  app.get<{ Params: ReplyParams; Querystring: { format?: Format } }>(
    `${prefix}/:commentId/replies/:commentReplyId`,
    { schema: { querystring: formatQuery } },
    async (request) => {
      const thread = await resolve(request);
      const { comment, found } = await loadReply(thread, request.params);
      return (await objects(request, thread, comment, [found], request.query.format))[0];
    },
  );

  app.put<{ Params: ReplyParams; Body: Omit<UpdateBody, 'resolved'> }>(
    `${prefix}/:commentId/replies/:commentReplyId`,
    { schema: { body: updateReplyBody } },
    async (request) => {
      const thread = await resolve(request);
      const auth = requireAuth(request);
      const { comment, found } = await loadReply(thread, request.params);
      const body = request.body ?? {};
      if (body.body !== undefined && !commentRights(auth.role, actorId(auth), found.postedBy).edit) throw notTheAuthor(`reply ${found.id}`, thread.space.id);
      const updated = await store.comments.updateReply(thread.scope, comment.id, found.id, {
        actor: actorId(auth),
        ...(body.body !== undefined ? { body: await markdownOf(body.body) } : {}),
        ...(body.addedReactions ? { addedReactions: body.addedReactions } : {}),
        ...(body.removedReactions ? { removedReactions: body.removedReactions } : {}),
      });
      return (await objects(request, thread, comment, [updated], undefined))[0];
    },
  );

  app.delete<{ Params: ReplyParams }>(`${prefix}/:commentId/replies/:commentReplyId`, async (request, reply) => {
    const thread = await resolve(request);
    const auth = requireAuth(request);
    const comment = await loadComment(thread, request.params.commentId);
    const found = await store.comments.getReply(thread.scope, comment.id, request.params.commentReplyId);
    if (!found) return reply.status(204).send();
    if (!commentRights(auth.role, actorId(auth), found.postedBy).delete) throw notTheAuthor(`reply ${found.id}`, thread.space.id);
    return reply.status((await store.comments.deleteReply(thread.scope, comment.id, found.id)) ? 205 : 204).send();
  });
}
