import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { redact } from '../../redact.js';
import type { GlossaryEntryRecord, GlossaryOperation, JsonObject, TranslationRecord, TranslationStore } from '../../store/index.js';
import { requestTranslationRun } from '../../temporal/client/start.js';
import { isTranslationLanguage, TRANSLATION_LANGUAGES } from '../../translate/languages.js';
import { organizationNotFound, requireOrg } from '../auth.js';
import { workflowStarter, type ApiDeps } from '../deps.js';
import { badRequest, notFound } from '../http-errors.js';
import { glossaryEntryObject, translationObject } from '../objects/translation.js';
import type { UrlBuilder } from '../objects/urls.js';
import { listEnvelope, pageQuery, paginateArray } from '../pagination.js';

type OrgParams = { organizationId: string };
type TranslationParams = OrgParams & { translationId: string };
type EntryParams = OrgParams & { glossaryEntryId: string };

const MAX_OPERATIONS = 1000;

/** A JSON document (`{ object: "document", data, nodes }`): its nodes are checked by `instructions()`. */
const instructionsSchema = { type: ['object', 'null'] } as const;
const createTranslation = {
  body: {
    type: 'object',
    required: ['language', 'source'],
    properties: {
      language: { type: 'string' },
      source: { type: 'object', required: ['space', 'language'], properties: { space: { type: 'string' }, language: { type: 'string' } } },
      instructions: instructionsSchema,
    },
  },
};
const putTranslation = { body: { type: 'object', properties: { instructions: instructionsSchema } } };
const noBody = { body: { type: ['object', 'null'], properties: {} } };
const glossaryTerms = { type: 'object', additionalProperties: { type: 'string' } } as const;
const putGlossary = {
  body: {
    type: 'object',
    required: ['operations'],
    properties: {
      operations: {
        type: 'array',
        items: {
          type: 'object',
          required: ['type'],
          properties: { type: { type: 'string', enum: ['insert', 'update', 'delete'] }, id: { type: 'string' }, translations: glossaryTerms },
        },
      },
    },
  },
};
const MAX_INSTRUCTIONS_BYTES = 256 * 1024;

function body(request: FastifyRequest): Record<string, unknown> {
  const b = request.body;
  if (b === undefined || b === null) return {};
  if (typeof b !== 'object' || Array.isArray(b)) throw badRequest('the body must be a JSON object');
  return b as Record<string, unknown>;
}

function language(value: unknown, what: string): string {
  if (!isTranslationLanguage(value)) throw badRequest(`${what} must be one of ${TRANSLATION_LANGUAGES.join(', ')}`);
  return value;
}

/** A JSON document (`{ object: "document", data, nodes }`), or null when absent. */
function instructions(value: unknown): JsonObject | null {
  if (value === undefined || value === null) return null;
  const doc = value as { object?: unknown; data?: unknown; nodes?: unknown };
  if (
    typeof value !== 'object' ||
    Array.isArray(value) ||
    doc.object !== 'document' ||
    !Array.isArray(doc.nodes) ||
    typeof doc.data !== 'object' ||
    doc.data === null
  )
    throw badRequest('instructions must be a JSON document: { "object": "document", "data": {}, "nodes": [...] }');
  if (Buffer.byteLength(JSON.stringify(value)) > MAX_INSTRUCTIONS_BYTES)
    throw badRequest(`instructions must be at most ${MAX_INSTRUCTIONS_BYTES} bytes of JSON`);
  return value as JsonObject;
}

function glossaryTranslations(value: unknown, where: string): Record<string, string> {
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw badRequest(`${where}.translations must be an object of language codes to terms`);
  const out: Record<string, string> = {};
  for (const [lang, term] of Object.entries(value as Record<string, unknown>)) {
    language(lang, `${where}.translations key "${lang.slice(0, 20)}"`);
    if (typeof term !== 'string' || term.length < 1 || term.length > 255 || /[\n\r]/.test(term))
      throw badRequest(`${where}.translations.${lang} must be a term of 1 to 255 characters on one line`);
    out[lang] = term;
  }
  if (Object.keys(out).length === 0) throw badRequest(`${where}.translations must hold at least one term`);
  return out;
}

function glossaryOperations(value: unknown): GlossaryOperation[] {
  if (!Array.isArray(value)) throw badRequest('operations must be an array');
  if (value.length > MAX_OPERATIONS) throw badRequest(`at most ${MAX_OPERATIONS} operations per request`);
  return value.map((op: unknown, i): GlossaryOperation => {
    const where = `operations[${i}]`;
    const o = op as { type?: unknown; id?: unknown; translations?: unknown };
    if (!op || typeof op !== 'object') throw badRequest(`${where} must be an object`);
    if (o.type === 'insert') return { type: 'insert', translations: glossaryTranslations(o.translations, where) };
    if (o.type !== 'update' && o.type !== 'delete') throw badRequest(`${where}.type must be insert, update or delete`);
    if (typeof o.id !== 'string' || o.id === '') throw badRequest(`${where}.id must be a glossary entry id`);
    if (o.type === 'delete') return { type: 'delete', id: o.id };
    return { type: 'update', id: o.id, translations: glossaryTranslations(o.translations, where) };
  });
}

/** The caller's organization (404 otherwise); true when the caller may edit. */
async function checkOrg(deps: ApiDeps, request: FastifyRequest, organizationId: string): Promise<boolean> {
  const auth = requireOrg(request, organizationId);
  const org = await deps.store.orgs.get(organizationId);
  if (!org) throw organizationNotFound(organizationId);
  return auth.scope === 'write';
}

async function loadTranslation(deps: ApiDeps, request: FastifyRequest, params: TranslationParams): Promise<{ t: TranslationRecord; canEdit: boolean }> {
  const canEdit = await checkOrg(deps, request, params.organizationId);
  const t = await deps.store.translations.get(params.organizationId, params.translationId);
  if (!t) throw notFound(`translation not found: ${params.translationId}`);
  return { t, canEdit };
}

async function translationView(deps: ApiDeps, urls: UrlBuilder, t: TranslationRecord, canEdit: boolean): Promise<Record<string, unknown>> {
  const repo = deps.store.translations;
  const [latest, totals] = await Promise.all([repo.latestRun(t.id), repo.totals(t.id)]);
  return translationObject(t, latest, totals, urls, canEdit);
}

/** The checked body of a new translation: the target language and a source space of the organization in another one. */
async function newTranslation(deps: ApiDeps, organizationId: string, b: Record<string, unknown>): Promise<Parameters<TranslationStore['create']>[1]> {
  const target = language(b.language, 'language');
  const source = b.source as { space?: unknown; language?: unknown } | undefined;
  if (!source || typeof source !== 'object' || Array.isArray(source)) throw badRequest('source must be { space, language }');
  const sourceLanguage = language(source.language, 'source.language');
  if (sourceLanguage === target) throw badRequest('language must differ from source.language');
  if (typeof source.space !== 'string' || source.space === '') throw badRequest('source.space must be a space id');
  const space = await deps.store.spaces.get(source.space);
  // Another organization's space reads as one that does not exist.
  if (!space || space.organizationId !== organizationId) throw badRequest(`source.space: space not found: ${source.space.slice(0, 100)}`);
  return {
    sourceSpaceId: space.id,
    sourceLanguage,
    language: target,
    instructions: instructions(b.instructions),
  };
}

/** Requests a run of the translation's workflow: 204, or 503 when the workflow service did not take it. */
async function requestRun(deps: ApiDeps, t: TranslationRecord, reply: FastifyReply): Promise<FastifyReply> {
  const requested = await deps.store.translations.requestRun(t.organizationId, t.id);
  try {
    await requestTranslationRun(workflowStarter(deps), {
      translationId: t.id,
      organizationId: t.organizationId,
      sourceSpaceId: t.sourceSpaceId,
      run: requested.runsRequested,
      engineTaskQueue: deps.config.translationTaskQueue,
    });
  } catch (err) {
    // The workflow service did not take it: the caller repeats the request (a later run covers this one).
    reply.log.warn({ translationId: t.id, cause: redact(err instanceof Error ? err.message : String(err)) }, 'translation run not started');
    return reply
      .status(503)
      .header('retry-after', '10')
      .send({ error: { code: 503, message: 'the workflow service is unavailable; the run was not started, try again' } });
  }
  return reply.status(204).send();
}

/** The translations: list, create, get, instructions, delete, run. */
function registerTranslationRoutes(app: FastifyInstance, deps: ApiDeps, urls: UrlBuilder): void {
  const repo = deps.store.translations;

  app.get<{ Params: OrgParams }>('/v1/orgs/:organizationId/translations', async (request) => {
    const canEdit = await checkOrg(deps, request, request.params.organizationId);
    const result = await repo.list(request.params.organizationId, pageQuery(request.query as Record<string, unknown>));
    const items = [];
    for (const t of result.items) items.push(await translationView(deps, urls, t, canEdit));
    return listEnvelope(items, result.next, result.total);
  });

  app.post<{ Params: OrgParams }>('/v1/orgs/:organizationId/translations', { schema: createTranslation }, async (request, reply) => {
    const { organizationId } = request.params;
    const canEdit = await checkOrg(deps, request, organizationId);
    const created = await repo.create(organizationId, await newTranslation(deps, organizationId, body(request)));
    return reply.status(201).send(await translationView(deps, urls, created, canEdit));
  });

  app.get<{ Params: TranslationParams }>('/v1/orgs/:organizationId/translations/:translationId', async (request) => {
    const { t, canEdit } = await loadTranslation(deps, request, request.params);
    return translationView(deps, urls, t, canEdit);
  });

  app.put<{ Params: TranslationParams }>('/v1/orgs/:organizationId/translations/:translationId', { schema: putTranslation }, async (request) => {
    const { t, canEdit } = await loadTranslation(deps, request, request.params);
    const b = body(request);
    if (!('instructions' in b)) throw badRequest('instructions is required');
    return translationView(deps, urls, await repo.setInstructions(t.organizationId, t.id, instructions(b.instructions)), canEdit);
  });

  app.delete<{ Params: TranslationParams }>('/v1/orgs/:organizationId/translations/:translationId', async (request, reply) => {
    await checkOrg(deps, request, request.params.organizationId);
    const deleted = await repo.delete(request.params.organizationId, request.params.translationId);
    return reply.status(deleted ? 205 : 204).send();
  });

  app.post<{ Params: TranslationParams }>('/v1/orgs/:organizationId/translations/:translationId/run', { schema: noBody }, async (request, reply) => {
    const { t } = await loadTranslation(deps, request, request.params);
    return requestRun(deps, t, reply);
  });
}

/** Glossary entries sorted by their term in `by` (entries without one last), for `orderBy`. */
async function glossaryByLanguage(deps: ApiDeps, organizationId: string, by: string): Promise<GlossaryEntryRecord[]> {
  const all = await deps.store.translations.glossary.all(organizationId);
  all.sort((a, b) => {
    const x = a.translations[by];
    const y = b.translations[by];
    if (x === undefined || y === undefined) return x === y ? 0 : x === undefined ? 1 : -1;
    return x.localeCompare(y, by);
  });
  return all;
}

/** The organization's glossary: list (optionally ordered by one language's terms), batch of operations, one entry. */
function registerGlossaryRoutes(app: FastifyInstance, deps: ApiDeps, urls: UrlBuilder): void {
  const repo = deps.store.translations;

  app.get<{ Params: OrgParams }>('/v1/orgs/:organizationId/translations-glossary', async (request) => {
    await checkOrg(deps, request, request.params.organizationId);
    const query = request.query as Record<string, unknown>;
    const page = pageQuery(query);
    if (query.orderBy !== undefined && query.orderBy !== '') {
      const by = language(query.orderBy, 'orderBy');
      const all = await glossaryByLanguage(deps, request.params.organizationId, by);
      const { items, next } = paginateArray(`glossary:${by}`, all, page);
      return listEnvelope(
        items.map((e) => glossaryEntryObject(e, urls)),
        next,
        all.length,
      );
    }
    const result = await repo.glossary.list(request.params.organizationId, page);
    return listEnvelope(
      result.items.map((e) => glossaryEntryObject(e, urls)),
      result.next,
      result.total,
    );
  });

  app.put<{ Params: OrgParams }>('/v1/orgs/:organizationId/translations-glossary', { schema: putGlossary }, async (request, reply) => {
    await checkOrg(deps, request, request.params.organizationId);
    const b = body(request);
    if (!('operations' in b)) throw badRequest('operations is required');
    const operations = glossaryOperations(b.operations);
    try {
      await repo.glossary.apply(request.params.organizationId, operations);
    } catch (err) {
      // An update or delete of an entry the organization does not have: nothing of the batch is applied.
      if ((err as { code?: string }).code === 'NOT_FOUND') throw badRequest((err as Error).message);
      throw err;
    }
    return reply.status(204).send();
  });

  app.get<{ Params: EntryParams }>('/v1/orgs/:organizationId/translations-glossary/:glossaryEntryId', async (request) => {
    await checkOrg(deps, request, request.params.organizationId);
    const entry = await repo.glossary.get(request.params.organizationId, request.params.glossaryEntryId);
    if (!entry) throw notFound(`glossary entry not found: ${request.params.glossaryEntryId}`);
    return glossaryEntryObject(entry, urls);
  });
}

/** Translations of an organization's spaces and its glossary (`/v1/orgs/{org}/translations…`). */
export function translationRoutes(app: FastifyInstance, deps: ApiDeps, urls: UrlBuilder): void {
  registerTranslationRoutes(app, deps, urls);
  registerGlossaryRoutes(app, deps, urls);
}
