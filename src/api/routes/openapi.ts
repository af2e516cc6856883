import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { openApiContentObject, openApiRawContentObject, openApiSpecObject, openApiVersionObject } from '../../openapi/api-objects.js';
import { SOURCE_BODY_LIMIT_BYTES, checkSlug, checkSource, checkVisibility } from '../../store/index.js';
import { WorkflowServiceUnavailableError, startOpenApiProcessing, syncRefreshSchedule } from '../../temporal/client/openapi-processing.js';
import { redact } from '../../redact.js';
import type { OpenApiSpecRecord, OpenApiVersionRecord } from '../../store/index.js';
import { deleteRefreshSchedule } from '../../temporal/client/openapi-schedule.js';
import { organizationNotFound, requireOrg } from '../auth.js';
import type { ApiDeps } from '../deps.js';
import { badRequest, notFound } from '../http-errors.js';
import type { UrlBuilder } from '../objects/urls.js';
import { listEnvelope, pageQuery } from '../pagination.js';

/** `source` of a spec: exactly one of `url` and `text` (checked by checkSource, which names the problem). */
const source = { type: 'object', properties: { url: { type: 'string' }, text: { type: 'string' } } } as const;
const createSpec = { body: { type: 'object', required: ['slug', 'source'], properties: { slug: { type: 'string' }, source } } };
const putSpec = { body: { type: 'object', required: ['source'], properties: { source } } };
const patchSpec = { body: { type: 'object', required: ['visibility'], properties: { visibility: { type: 'string', enum: ['private', 'public'] } } } };

type SpecParams = { organizationId: string; specSlug: string };
type VersionParams = SpecParams & { versionId: string };

function body(request: FastifyRequest): Record<string, unknown> {
  const b = request.body;
  if (b === undefined || b === null) return {};
  if (typeof b !== 'object' || Array.isArray(b)) throw badRequest('the body must be a JSON object');
  return b as Record<string, unknown>;
}

/** 404 for an organization that is not the caller's, whether it exists or not. */
async function checkOrg(deps: ApiDeps, request: FastifyRequest, organizationId: string): Promise<void> {
  requireOrg(request, organizationId);
  const org = await deps.store.orgs.get(organizationId);
  if (!org) throw organizationNotFound(organizationId);
}

async function loadSpec(deps: ApiDeps, request: FastifyRequest, params: SpecParams): Promise<OpenApiSpecRecord> {
  await checkOrg(deps, request, params.organizationId);
  const spec = await deps.store.openapi.getBySlug(params.organizationId, params.specSlug);
  if (!spec) throw notFound(`OpenAPI spec not found: ${params.specSlug}`);
  return spec;
}

async function loadVersion(
  deps: ApiDeps,
  request: FastifyRequest,
  params: VersionParams | SpecParams,
): Promise<{ spec: OpenApiSpecRecord; version: OpenApiVersionRecord }> {
  const repo = deps.store.openapi;
  const spec = await loadSpec(deps, request, params);
  const versionId = 'versionId' in params ? params.versionId : 'latest';
  const version = versionId === 'latest' ? await repo.latestVersion(spec.id) : await repo.getVersion(spec.id, versionId);
  if (!version) throw notFound(versionId === 'latest' ? `OpenAPI spec ${spec.slug} has no version yet` : `OpenAPI spec version not found: ${versionId}`);
  return { spec, version };
}

/**
 * Schedules (URL source) and starts processing of a spec just created or updated, and answers `status`.
 * When Temporal does not take it, the answer is 503: a spec created by this request is removed again (the
 * request can be repeated as is); an updated one keeps its new source and its previous state, and a PUT
 * processes it again.
 */
async function processAndReply(
  deps: ApiDeps,
  urls: UrlBuilder,
  reply: FastifyReply,
  spec: OpenApiSpecRecord,
  trigger: 'create' | 'update',
  status: number,
): Promise<FastifyReply> {
  const repo = deps.store.openapi;
  const control = { client: deps.temporal, config: deps.config, repo };
  let started: OpenApiSpecRecord;
  try {
    await syncRefreshSchedule(control, spec);
    started = (await startOpenApiProcessing(control, spec, trigger)).spec;
  } catch (err) {
    if (!(err instanceof WorkflowServiceUnavailableError)) throw err;
    const cause = err.cause instanceof Error ? err.cause.message : String(err.cause);
    reply.log.warn({ specId: spec.id, trigger, cause: redact(cause) }, 'OpenAPI processing not started: the workflow service failed');
    if (trigger === 'create') {
      await deleteRefreshSchedule(deps.temporal, spec.id).catch(() => false);
      await repo.delete(spec.id);
    }
    return reply
      .status(503)
      .header('retry-after', '10')
      .send({ error: { code: 503, message: err.message } });
  }
  return reply.status(status).send(openApiSpecObject(started, urls));
}

/** The specs: list, create, get, create-or-update, visibility, delete. */
function registerSpecRoutes(app: FastifyInstance, deps: ApiDeps, urls: UrlBuilder): void {
  const repo = deps.store.openapi;

  app.get<{ Params: { organizationId: string } }>('/v1/orgs/:organizationId/openapi', async (request) => {
    await checkOrg(deps, request, request.params.organizationId);
    const result = await repo.list(request.params.organizationId, pageQuery(request.query as Record<string, unknown>));
    return listEnvelope(
      result.items.map((s) => openApiSpecObject(s, urls)),
      result.next,
      result.total,
    );
  });

  app.post<{ Params: { organizationId: string } }>(
    '/v1/orgs/:organizationId/openapi',
    { bodyLimit: SOURCE_BODY_LIMIT_BYTES, schema: createSpec },
    async (request, reply) => {
      const { organizationId } = request.params;
      await checkOrg(deps, request, organizationId);
      const b = body(request);
      const slug = checkSlug(b.slug);
      const source = checkSource(b.source);
      const created = await repo.create(organizationId, { slug, source });
      return processAndReply(deps, urls, reply, created, 'create', 201);
    },
  );

  app.get<{ Params: SpecParams }>('/v1/orgs/:organizationId/openapi/:specSlug', async (request) => {
    return openApiSpecObject(await loadSpec(deps, request, request.params), urls);
  });

  // Create or update; the same source processes the spec again now.
  app.put<{ Params: SpecParams }>(
    '/v1/orgs/:organizationId/openapi/:specSlug',
    { bodyLimit: SOURCE_BODY_LIMIT_BYTES, schema: putSpec },
    async (request, reply) => {
      const { organizationId, specSlug } = request.params;
      await checkOrg(deps, request, organizationId);
      const source = checkSource(body(request).source);
      let spec = await repo.getBySlug(organizationId, specSlug);
      let status = 200;
      if (!spec) {
        spec = await repo.create(organizationId, { slug: checkSlug(specSlug), source });
        status = 201;
      } else {
        spec = (await repo.setSource(spec.id, source)).spec;
      }
      return processAndReply(deps, urls, reply, spec, status === 201 ? 'create' : 'update', status);
    },
  );

  app.patch<{ Params: SpecParams }>('/v1/orgs/:organizationId/openapi/:specSlug', { schema: patchSpec }, async (request) => {
    const spec = await loadSpec(deps, request, request.params);
    const visibility = checkVisibility(body(request).visibility);
    return openApiSpecObject(await repo.setVisibility(spec.id, visibility), urls);
  });

  // As in the platform API: 205 when the spec was deleted, 204 when there was no such spec.
  app.delete<{ Params: SpecParams }>('/v1/orgs/:organizationId/openapi/:specSlug', async (request, reply) => {
    const { organizationId, specSlug } = request.params;
    await checkOrg(deps, request, organizationId);
    const spec = await repo.getBySlug(organizationId, specSlug);
    if (!spec) return reply.status(204).send();
    await deleteRefreshSchedule(deps.temporal, spec.id);
    const deleted = await repo.delete(spec.id);
    return reply.status(deleted ? 205 : 204).send();
  });
}

/** A spec's versions and their content (`latest` or by id). */
function registerVersionRoutes(app: FastifyInstance, deps: ApiDeps, urls: UrlBuilder): void {
  const repo = deps.store.openapi;

  app.get<{ Params: SpecParams }>('/v1/orgs/:organizationId/openapi/:specSlug/versions', async (request) => {
    const spec = await loadSpec(deps, request, request.params);
    const result = await repo.listVersions(spec.id, pageQuery(request.query as Record<string, unknown>));
    return listEnvelope(
      result.items.map((v) => openApiVersionObject(spec, v, urls)),
      result.next,
      result.total,
    );
  });

  app.get<{ Params: SpecParams }>('/v1/orgs/:organizationId/openapi/:specSlug/versions/latest', async (request) => {
    const { spec, version } = await loadVersion(deps, request, request.params);
    return openApiVersionObject(spec, version, urls);
  });

  app.get<{ Params: SpecParams }>('/v1/orgs/:organizationId/openapi/:specSlug/versions/latest/content', async (request) => {
    const { spec, version } = await loadVersion(deps, request, request.params);
    return openApiContentObject(spec, version, await repo.versionContent(version), urls);
  });

  app.get<{ Params: SpecParams }>('/v1/orgs/:organizationId/openapi/:specSlug/versions/latest/content/raw', async (request) => {
    const { version } = await loadVersion(deps, request, request.params);
    return openApiRawContentObject(await repo.versionContent(version));
  });

  app.get<{ Params: VersionParams }>('/v1/orgs/:organizationId/openapi/:specSlug/versions/:versionId', async (request) => {
    const { spec, version } = await loadVersion(deps, request, request.params);
    return openApiVersionObject(spec, version, urls);
  });

  app.get<{ Params: VersionParams }>('/v1/orgs/:organizationId/openapi/:specSlug/versions/:versionId/content', async (request) => {
    const { spec, version } = await loadVersion(deps, request, request.params);
    return openApiContentObject(spec, version, await repo.versionContent(version), urls);
  });

  app.get<{ Params: VersionParams }>('/v1/orgs/:organizationId/openapi/:specSlug/versions/:versionId/content/raw', async (request) => {
    const { version } = await loadVersion(deps, request, request.params);
    return openApiRawContentObject(await repo.versionContent(version));
  });
}

/** OpenAPI specifications of an organization and their versions (`/v1/orgs/{org}/openapi…`). */
export function openApiRoutes(app: FastifyInstance, deps: ApiDeps, urls: UrlBuilder): void {
  registerSpecRoutes(app, deps, urls);
  registerVersionRoutes(app, deps, urls);
}
