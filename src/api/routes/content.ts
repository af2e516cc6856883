import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { PageRecord, RevisionRecord, SpaceRecord } from '../../store/index.js';
import type { ApiDeps } from '../deps.js';
import { badRequest, notFound, unprocessable } from '../http-errors.js';
import { ParseBudgetExceededError } from '../../parse-pool/errors.js';
import { fileObject, pageObject, revisionObject, type ContentScope } from '../objects/revision.js';
import type { UrlBuilder } from '../objects/urls.js';
import { pageQuery, paginateArray } from '../pagination.js';
import { flattenPages, revisionChanges } from '../revision-changes.js';
import { loadSpace } from './spaces.js';
import { servedFileHeaders } from '../served-file-headers.js';

/** Resolves the revision a content route reads (the space's primary one, a change request's, or a given one). */
export type ScopeResolver = (request: FastifyRequest) => Promise<ContentScope & { space: SpaceRecord }>;

const formatQuery = {
  type: 'object',
  properties: { format: { type: 'string', enum: ['document', 'markdown'] } },
} as const;

/** Registers `{prefix}/pages`, `/page/:pageId`, `/path/*`, `/files`, `/files/:fileId` reading the resolved revision. */
export function registerContentReads(
  app: FastifyInstance,
  deps: ApiDeps,
  urls: UrlBuilder,
  prefix: string,
  resolve: ScopeResolver,
  options: { pagePath?: string } = {},
): void {
  const { revisions } = deps.store;

  async function pageWithContent(scope: ContentScope, page: PageRecord, format: string | undefined) {
    if (page.kind !== 'document') return pageObject(page, scope, urls);
    // A page kept as raw bytes (not UTF-8, binary, too large to parse) is no text: it is shown as what it is, its
    // `raw` member says why, and no markdown or document is made up from its bytes.
    if (page.data?.raw) return pageObject(page, scope, urls);
    const bytes = await revisions.pageBody(scope.revisionId, page.id);
    const text = bytes ? new TextDecoder().decode(bytes) : '';
    if (format === 'markdown') return pageObject(page, scope, urls, { markdown: text });
    const document = await deps.parsePool!.run('page.document', text).catch((err: unknown) => {
      if (err instanceof ParseBudgetExceededError)
        throw unprocessable(
          'PAGE_TOO_COMPLEX',
          `page ${page.id} is too complex to render as a document (over the ${err.budget} budget); its markdown is served with ?format=markdown`,
          { budget: err.budget },
        );
      throw err;
    });
    return pageObject(page, scope, urls, { document });
  }

  app.get(`${prefix}/pages`, async (request) => {
    const scope = await resolve(request);
    const pages = await revisions.pages(scope.revisionId);
    return { pages: pages.map((p) => pageObject(p, scope, urls)) };
  });

  app.get<{ Params: { pageId: string }; Querystring: { format?: string } }>(
    `${prefix}/${options.pagePath ?? 'page'}/:pageId`,
    { schema: { querystring: formatQuery } },
    async (request) => {
      const scope = await resolve(request);
      const flat = flattenPages(await revisions.pages(scope.revisionId));
      const page = flat.get(request.params.pageId);
      if (!page) throw notFound(`page not found: ${request.params.pageId}`);
      return pageWithContent(scope, page, request.query.format);
    },
  );

  app.get<{ Params: { '*': string }; Querystring: { format?: string } }>(`${prefix}/path/*`, { schema: { querystring: formatQuery } }, async (request) => {
    const scope = await resolve(request);
    let wanted: string;
    try {
      wanted = decodeURIComponent(request.params['*'] ?? '').replace(/^\/+|\/+$/g, '');
    } catch {
      throw badRequest('pagePath is not a valid encoded path');
    }
    const flat = [...flattenPages(await revisions.pages(scope.revisionId)).values()];
    const page = flat.find((p) => p.kind !== 'link' && (p.path ?? '') === wanted);
    if (!page) throw notFound(`no page at path: ${wanted}`);
    return pageWithContent(scope, page, request.query.format);
  });

  app.get(`${prefix}/files`, async (request) => {
    const q = pageQuery(request.query as Record<string, unknown>);
    const scope = await resolve(request);
    const files = await revisions.files(scope.revisionId);
    return paginateArray(
      `files:${scope.revisionId}`,
      files.map((f) => fileObject(f, scope, urls)),
      q,
    );
  });

  app.get<{ Params: { fileId: string } }>(`${prefix}/files/:fileId`, async (request) => {
    const scope = await resolve(request);
    const file = await revisions.file(scope.revisionId, request.params.fileId);
    if (!file) throw notFound(`file not found: ${request.params.fileId}`);
    return fileObject(file, scope, urls);
  });
}

/** Content of the space's primary revision, and of any of its revisions (with changes against the parent). */
export interface ContentRouteOptions {
  /** The ChangeRequest object a merge revision came from (provided by the change-request module). */
  mergedFrom?: (revision: RevisionRecord) => Promise<Record<string, unknown> | undefined>;
}

export function contentRoutes(app: FastifyInstance, deps: ApiDeps, urls: UrlBuilder, options: ContentRouteOptions = {}): void {
  const { revisions } = deps.store;

  const primary: ScopeResolver = async (request) => {
    const space = await loadSpace(deps, request, (request.params as { spaceId: string }).spaceId);
    if (!space.revisionId) throw notFound(`space ${space.id} has no content yet`);
    return { space, spaceId: space.id, revisionId: space.revisionId };
  };
  const byRevision: ScopeResolver = async (request) => {
    const params = request.params as { spaceId: string; revisionId: string };
    const space = await loadSpace(deps, request, params.spaceId);
    const revision = await revisions.get(params.revisionId);
    if (!revision || revision.spaceId !== space.id) throw notFound(`revision not found: ${params.revisionId}`);
    return { space, spaceId: space.id, revisionId: revision.id };
  };

  async function revisionResponse(scope: ContentScope) {
    const revision = (await revisions.get(scope.revisionId))!;
    const [pages, files] = await Promise.all([revisions.pages(revision.id), revisions.files(revision.id)]);
    const mergedFrom = revision.type === 'merge' ? await options.mergedFrom?.(revision) : undefined;
    return revisionObject(revision, pages, files, urls, mergedFrom ? { mergedFrom } : {});
  }

  app.get('/v1/spaces/:spaceId/content', async (request) => revisionResponse(await primary(request)));
  registerContentReads(app, deps, urls, '/v1/spaces/:spaceId/content', primary);

  app.get('/v1/spaces/:spaceId/revisions/:revisionId', async (request) => revisionResponse(await byRevision(request)));
  registerContentReads(app, deps, urls, '/v1/spaces/:spaceId/revisions/:revisionId', byRevision);

  app.get<{ Querystring: { limit?: number } }>(
    '/v1/spaces/:spaceId/revisions/:revisionId/changes',
    { schema: { querystring: { type: 'object', properties: { limit: { type: 'integer', minimum: 1, maximum: 1000 } } } } },
    async (request) => {
      const scope = await byRevision(request);
      const revision = (await revisions.get(scope.revisionId))!;
      const parentId = revision.parents[0];
      const empty = { pages: [] as PageRecord[], files: [] };
      const before = parentId ? { pages: await revisions.pages(parentId), files: await revisions.files(parentId) } : empty;
      const after = { pages: await revisions.pages(revision.id), files: await revisions.files(revision.id) };
      const all = revisionChanges(before, after, (f) => fileObject(f, scope, urls).downloadURL as string);
      const limit = request.query.limit ?? 100;
      const mergedFrom = revision.type === 'merge' ? await options.mergedFrom?.(revision) : undefined;
      return { ...(mergedFrom ? { mergedFrom } : {}), changes: all.slice(0, limit), ...(all.length > limit ? { more: all.length - limit } : {}) };
    },
  );

  /** The bytes behind a file's `downloadURL`. */
  app.get<{ Params: { spaceId: string; revisionId: string; fileId: string } }>(
    '/v1/spaces/:spaceId/revisions/:revisionId/files/:fileId/download',
    async (request, reply: FastifyReply) => {
      const scope = await byRevision(request);
      const file = await revisions.file(scope.revisionId, request.params.fileId);
      if (!file) throw notFound(`file not found: ${request.params.fileId}`);
      const bytes = await revisions.fileBytes(scope.revisionId, file.id);
      if (!bytes) throw notFound(`the bytes of file ${file.id} are not stored`);
      return reply.headers(servedFileHeaders(file)).send(Buffer.from(bytes));
    },
  );
}
