/**
 * Content import runs: the official `POST/GET /v1/org/{organizationId}/imports`, `GET …/{importRunId}`,
 * `POST …/{importRunId}/cancel` (`ContentImportRun`), and the seed's `POST /v1/spaces/{spaceId}/content/import`
 * (`{ url, source: "website" }` → 201 `{ revision, importedResources, totalResources }`, waiting for the run).
 * Each run is a workflow `org/<organizationId>/import/<runId>`; the site's content never travels through Temporal.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ImportRunRecord, ImportRunSource, ImportRunStatus, SpaceRecord, Store } from '../../store/index.js';
import { cancelContentImport, startContentImport, waitForContentImport } from '../../temporal/client/start.js';
import { WorkflowRunError } from '../../temporal/client/workflow-run-error.js';
import { redact } from '../../redact.js';
import { actorId, organizationNotFound, requireOrg } from '../auth.js';
import { workflowStarter, type ApiDeps } from '../deps.js';
import { OPERATION_ID_HEADER } from '../operation-id.js';
import { HttpError, badRequest, notFound } from '../http-errors.js';
import { importRunObject } from '../objects/import-run.js';
import type { UrlBuilder } from '../objects/urls.js';
import { listEnvelope, pageQuery } from '../pagination.js';
import { assertSpaceEditable } from '../space-editable.js';
import { flattenPages } from '../revision-changes.js';
import { loadSpace } from './spaces.js';

type OrgParams = { organizationId: string };
type RunParams = OrgParams & { importRunId: string };

const STATUSES: ReadonlyArray<ImportRunStatus | 'active'> = ['active', 'pending', 'in-progress', 'completed', 'failed', 'cancelled'];

function objectBody(request: FastifyRequest): Record<string, unknown> {
  const b = request.body;
  if (b === undefined || b === null || typeof b !== 'object' || Array.isArray(b)) throw badRequest('the body must be a JSON object');
  return b as Record<string, unknown>;
}

/** An absolute http(s) URL without credentials (they would end up in the run's record and logs). */
export function checkImportUrl(value: unknown, name = 'url'): string {
  if (typeof value !== 'string' || value.trim() === '') throw badRequest(`${name} is required: the address of the site to import`);
  let url: URL;
  try {
    url = new URL(value.trim());
  } catch {
    throw badRequest(`${name} is not an absolute URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw badRequest(`${name} must be an http: or https: URL`);
  if (url.username || url.password) throw badRequest(`${name} must not contain credentials`);
  if (value.length > 2048) throw badRequest(`${name} is longer than 2048 characters`);
  url.hash = '';
  return url.href;
}

/** Bytes of all the files of one file import (each is converted in turn; what they make is held until the revision). */
const MAX_IMPORT_RUN_BYTES = 512 * 1024 * 1024;

/** The official spec's `files` of a file source: at most 50 storage keys. */
const MAX_SOURCE_FILES = 50;

function checkSourceShape(value: unknown): ImportRunSource {
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw badRequest('source is required: { type: "website", url } or { type: "file", files }');
  const s = value as Record<string, unknown>;
  if (s.type === 'website') return { type: 'website', url: checkImportUrl(s.url, 'source.url') };
  if (s.type === 'file') {
    const files = s.files;
    if (!Array.isArray(files) || files.length === 0 || files.some((f) => typeof f !== 'string' || f === ''))
      throw badRequest('source.files must be a non-empty array of storage keys (from POST /v1/orgs/{organizationId}/storage/upload)');
    if (files.length > MAX_SOURCE_FILES) throw badRequest(`source.files holds ${files.length} keys; at most ${MAX_SOURCE_FILES}`);
    if (new Set(files).size !== files.length) throw badRequest('source.files names a key twice');
    return { type: 'file', files: files as string[] };
  }
  throw badRequest('source.type must be "website" or "file"');
}

/** The official `ContentImportRun` request: `source` is `{ type: "website", url }` or `{ type: "file", files }` (checkSourceShape). */
const createRun = {
  body: {
    type: 'object',
    required: ['source', 'target'],
    properties: {
      source: {
        type: 'object',
        required: ['type'],
        properties: { type: { type: 'string', enum: ['website', 'file'] }, url: { type: 'string' }, files: { type: 'array', items: { type: 'string' } } },
      },
      target: {
        type: 'object',
        required: ['space'],
        properties: { space: { type: 'string' }, changeRequest: { type: ['string', 'null'] }, page: { type: ['string', 'null'] } },
      },
      /** The official spec's listing of the run under a site that does not hold the space yet; Folio lists runs by organization. */
      site: { type: 'string' },
      /** The official spec's AI enhancement; Folio imports the content as it is. */
      enhance: { type: 'boolean' },
    },
  },
};
const cancelRun = { body: { type: ['object', 'null'], properties: {} } };
const spaceImport = {
  body: { type: 'object', required: ['source', 'url'], properties: { source: { type: 'string', enum: ['website'] }, url: { type: 'string' } } },
};

async function checkOrg(store: Store, request: FastifyRequest, organizationId: string): Promise<void> {
  requireOrg(request, organizationId);
  if (!(await store.orgs.get(organizationId))) throw organizationNotFound(organizationId);
}

async function loadRun(store: Store, request: FastifyRequest, params: RunParams): Promise<ImportRunRecord> {
  await checkOrg(store, request, params.organizationId);
  const run = await store.imports.get(params.organizationId, params.importRunId);
  if (!run) throw notFound(`import run not found: ${params.importRunId}`);
  return run;
}

/** A source; a file source's keys must name files of this organization whose bytes were uploaded. */
async function checkSource(store: Store, organizationId: string, value: unknown): Promise<ImportRunSource> {
  const source = checkSourceShape(value);
  if (source.type === 'file') {
    const found = await store.uploads.get(organizationId, source.files);
    for (const key of source.files) {
      const upload = found.get(key);
      if (!upload) throw new HttpError(400, 'FILE_IMPORT_NOT_UPLOADED', `source.files: no uploaded file has the key ${JSON.stringify(key)}`);
      if (!upload.blobHash)
        throw new HttpError(
          400,
          'FILE_IMPORT_NOT_UPLOADED',
          `source.files: the file ${JSON.stringify(key)} was not uploaded yet (PUT its bytes to the signed URL first)`,
        );
    }
    const total = [...found.values()].reduce((n, u) => n + u.size, 0);
    if (total > MAX_IMPORT_RUN_BYTES)
      throw new HttpError(400, 'FILE_IMPORT_TOO_LARGE', `source.files hold ${total} bytes; one import takes at most ${MAX_IMPORT_RUN_BYTES}`);
  }
  return source;
}

/** The target of a run: a space of the caller's organization, one of its open change requests, one of its pages. */
async function checkTarget(
  store: Store,
  organizationId: string,
  value: unknown,
): Promise<{ space: SpaceRecord; changeRequestId: string | null; pageId: string | null }> {
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw badRequest('target is required: { space, changeRequest?, page? }');
  const t = value as Record<string, unknown>;
  if (typeof t.space !== 'string' || !t.space) throw badRequest('target.space is required');
  const space = await store.spaces.get(t.space);
  if (!space || space.organizationId !== organizationId) throw notFound(`space not found: ${t.space}`);
  let changeRequestId: string | null = null;
  let revisionId = space.revisionId;
  if (t.changeRequest !== undefined && t.changeRequest !== null) {
    if (typeof t.changeRequest !== 'string') throw badRequest('target.changeRequest must be a change request id');
    const cr = await store.changeRequests.get(space.id, t.changeRequest);
    if (!cr) throw notFound(`change request not found: ${t.changeRequest}`);
    if (cr.status === 'merged' || cr.status === 'archived') throw badRequest(`change request ${cr.id} is ${cr.status}: import into an open one`);
    changeRequestId = cr.id;
    revisionId = cr.revisionId;
  } else assertSpaceEditable(space);
  let pageId: string | null = null;
  if (t.page !== undefined && t.page !== null) {
    // Under one page of the target's content (the primary content, or the change request's).
    if (typeof t.page !== 'string' || t.page === '') throw badRequest('target.page must be a page id');
    const page = revisionId ? flattenPages(await store.revisions.pages(revisionId)).get(t.page) : undefined;
    if (!page) throw notFound(`page not found in the target${changeRequestId ? ` change request ${changeRequestId}` : ''}: ${t.page}`);
    if (page.kind === 'link') throw new HttpError(400, 'TARGET_PAGE_IS_LINK', `target.page ${t.page} is a link; import under a document or a group`);
    pageId = page.id;
  }
  return { space, changeRequestId, pageId };
}

/** Starts the run's workflow; a run the workflow service did not take is failed (NOT_STARTED) and answered 503. */
async function startRun(deps: ApiDeps, run: ImportRunRecord, reply: FastifyReply): Promise<void> {
  const { store } = deps;
  try {
    const summary = run.source.type === 'website' ? `Import ${redact(run.source.url)} into space ${run.spaceId}` : `Import files into space ${run.spaceId}`;
    const operationId = await startContentImport(workflowStarter(deps), { runId: run.id, organizationId: run.organizationId, spaceId: run.spaceId }, summary);
    void reply.header(OPERATION_ID_HEADER, operationId);
  } catch (err) {
    await store.imports.update(run.id, { status: 'failed', code: 'NOT_STARTED', reason: 'the workflow service did not take the run; start it again' });
    reply.log.warn({ runId: run.id, cause: redact(err instanceof Error ? err.message : String(err)) }, 'import run not started');
    throw new HttpError(503, 'WORKFLOW_SERVICE_UNAVAILABLE', 'the import could not be started (the workflow service did not answer); try again');
  }
}

/** The official runs: create, list, get, cancel. */
function registerImportRunRoutes(app: FastifyInstance, deps: ApiDeps, urls: UrlBuilder): void {
  const { store } = deps;

  app.post<{ Params: OrgParams }>('/v1/org/:organizationId/imports', { schema: createRun }, async (request, reply) => {
    const { organizationId } = request.params;
    const auth = requireOrg(request, organizationId);
    await checkOrg(store, request, organizationId);
    const b = objectBody(request);
    const { space, changeRequestId, pageId } = await checkTarget(store, organizationId, b.target);
    const source = await checkSource(store, organizationId, b.source);
    const run = await store.imports.create({ organizationId, spaceId: space.id, changeRequestId, pageId, source, createdBy: actorId(auth) });
    await startRun(deps, run, reply);
    return reply.status(201).send(importRunObject((await store.imports.get(organizationId, run.id)) ?? run, urls));
  });

  app.get<{ Params: OrgParams; Querystring: Record<string, unknown> }>('/v1/org/:organizationId/imports', async (request) => {
    const { organizationId } = request.params;
    await checkOrg(store, request, organizationId);
    const q = request.query;
    const status = q.status;
    if (status !== undefined && !STATUSES.includes(status as ImportRunStatus)) throw badRequest(`status must be one of ${STATUSES.join(', ')}`);
    if (q.site !== undefined) throw badRequest('filtering by site is not supported: this server has no sites');
    const result = await store.imports.list(organizationId, {
      ...pageQuery(q),
      ...(typeof q.space === 'string' ? { spaceId: q.space } : {}),
      ...(typeof q.changeRequest === 'string' ? { changeRequestId: q.changeRequest } : {}),
      ...(status !== undefined ? { status: status as ImportRunStatus | 'active' } : {}),
    });
    return listEnvelope(
      result.items.map((r) => importRunObject(r, urls)),
      result.next,
      result.total,
    );
  });

  app.get<{ Params: RunParams }>('/v1/org/:organizationId/imports/:importRunId', async (request) =>
    importRunObject(await loadRun(store, request, request.params), urls),
  );

  // Cancel: the workflow stops its activities (heartbeats carry the cancel) and records `cancelled`; the answer
  // waits a few seconds for that, so it usually shows the final status.
  app.post<{ Params: RunParams }>('/v1/org/:organizationId/imports/:importRunId/cancel', { schema: cancelRun }, async (request) => {
    const run = await loadRun(store, request, request.params);
    if (run.status !== 'pending' && run.status !== 'in-progress')
      throw badRequest(`import run ${run.id} is ${run.status}: only a pending or running import can be cancelled`);
    await cancelContentImport(deps.temporal, run.organizationId, run.id);
    const deadline = Date.now() + 10_000;
    for (;;) {
      const now = await store.imports.get(run.organizationId, run.id);
      const final = now !== null && now.status !== 'pending' && now.status !== 'in-progress';
      if (!now || final || Date.now() > deadline) return importRunObject(now ?? run, urls);
      await new Promise((r) => setTimeout(r, 200));
    }
  });
}

/** The seed's `POST /v1/spaces/{spaceId}/content/import`. */
function registerSpaceImportRoute(app: FastifyInstance, deps: ApiDeps): void {
  const { store } = deps;

  // The seed's shape: a website into the space's primary content, answered when the run is over.
  app.post<{ Params: { spaceId: string } }>('/v1/spaces/:spaceId/content/import', { schema: spaceImport }, async (request, reply) => {
    const space = await loadSpace(deps, request, request.params.spaceId);
    const b = objectBody(request);
    if (b.source !== 'website') throw badRequest('source must be "website"');
    const url = checkImportUrl(b.url);
    assertSpaceEditable(space);
    const auth = requireOrg(request, space.organizationId);
    const run = await store.imports.create({
      organizationId: space.organizationId,
      spaceId: space.id,
      source: { type: 'website', url },
      createdBy: actorId(auth),
    });
    await startRun(deps, run, reply);
    try {
      const result = await waitForContentImport(deps.temporal, space.organizationId, run.id);
      return reply.status(201).send({ revision: result.revisionId, importedResources: result.importedResources, totalResources: result.totalResources });
    } catch (err) {
      if (!(err instanceof WorkflowRunError)) throw err;
      const status =
        err.code === 'CANCELLED' ? 409 : err.code.startsWith('FETCH_') || err.code.startsWith('WEBIMPORT_') ? 422 : err.code === 'LOCKED' ? 403 : 502;
      throw new HttpError(status, err.code, err.message, { importRun: run.id });
    }
  });
}

export function importRoutes(app: FastifyInstance, deps: ApiDeps, urls: UrlBuilder): void {
  registerImportRunRoutes(app, deps, urls);
  registerSpaceImportRoute(app, deps);
}
