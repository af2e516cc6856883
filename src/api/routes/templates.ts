/**
 * Templates: `GET /v1/orgs/{organizationId}/templates` (the organization's catalog as official `SpaceTemplate`
 * objects, a Folio addition to the spec), their previews, and `POST /v1/spaces/{spaceId}/content/template`
 * (`applyTemplateToSpace`), which applies a template through `space/<id>/template/<key>` and answers 201 once the
 * content is in place. The request's key is its `Idempotency-Key` header, or a hash of the request: the same
 * request sent again does not add the pages twice.
 */
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { poolPageCodec } from '../../parse-threads/page-codec.js';
import { contentRefReplacements, targetBase, type ContentRefs } from '../../templates/apply.js';
import { findTemplate, listTemplates } from '../../templates/catalog.js';
import { outlineMarkdown, previewSvg, templateOutline } from '../../templates/preview.js';
import { applyTemplate } from '../../temporal/client/start.js';
import { requireOrg } from '../auth.js';
import { workflowStarter, type ApiDeps } from '../deps.js';
import { badRequest } from '../http-errors.js';
import { spaceTemplateObject } from '../objects/template.js';
import type { UrlBuilder } from '../objects/urls.js';
import { assertSpaceEditable } from '../space-editable.js';
import { loadSpace } from './spaces.js';

const applyBody = {
  type: 'object',
  required: ['id'],
  additionalProperties: false,
  properties: {
    id: { type: 'string', minLength: 1, maxLength: 200 },
    changeRequestId: { type: 'string', minLength: 1, maxLength: 64 },
    params: {
      type: 'object',
      additionalProperties: false,
      properties: {
        contentRefs: {
          type: 'object',
          maxProperties: 20,
          additionalProperties: {
            type: 'object',
            required: ['kind', 'file'],
            additionalProperties: false,
            properties: { kind: { const: 'file' }, file: { type: 'string', minLength: 1, maxLength: 64 } },
          },
        },
      },
    },
  },
} as const;

interface ApplyBody {
  id: string;
  changeRequestId?: string;
  params?: { contentRefs?: ContentRefs };
}

export function templateRoutes(app: FastifyInstance, deps: ApiDeps, urls: UrlBuilder): void {
  const catalog = { templatesDir: deps.config.templatesDir };
  const codec = () => (deps.parsePool ? poolPageCodec(deps.parsePool) : undefined);

  app.get<{ Params: { organizationId: string } }>('/v1/orgs/:organizationId/templates', async (request) => {
    const { organizationId } = request.params;
    requireOrg(request, organizationId);
    const items = await listTemplates(deps.store, organizationId, catalog);
    return { items: items.map((t) => spaceTemplateObject(t, organizationId, urls)) };
  });

  app.get<{ Params: { organizationId: string; templateId: string }; Querystring: { theme?: string } }>(
    '/v1/orgs/:organizationId/templates/:templateId/preview.svg',
    async (request, reply) => {
      const { organizationId, templateId } = request.params;
      requireOrg(request, organizationId);
      const template = await findTemplate(deps.store, organizationId, templateId, catalog);
      const theme = request.query.theme === 'dark' ? 'dark' : 'light';
      const svg = previewSvg(template, await templateOutline(deps.store, template, codec()), theme);
      return reply
        .header('content-type', 'image/svg+xml; charset=utf-8')
        .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
        .send(svg);
    },
  );

  app.get<{ Params: { organizationId: string; templateId: string } }>('/v1/orgs/:organizationId/templates/:templateId/preview', async (request, reply) => {
    const { organizationId, templateId } = request.params;
    requireOrg(request, organizationId);
    const template = await findTemplate(deps.store, organizationId, templateId, catalog);
    return reply.header('content-type', 'text/markdown; charset=utf-8').send(outlineMarkdown(template, await templateOutline(deps.store, template, codec())));
  });

  app.post<{ Params: { spaceId: string }; Body: ApplyBody }>(
    '/v1/spaces/:spaceId/content/template',
    { schema: { body: applyBody } },
    async (request, reply) => {
      const space = await loadSpace(deps, request, request.params.spaceId);
      assertSpaceEditable(space);
      const body = request.body;
      const target = { organizationId: space.organizationId, spaceId: space.id, ...(body.changeRequestId ? { changeRequestId: body.changeRequestId } : {}) };
      // Checked here too, so that a bad request is a 4xx at once: the template, the change request, the content refs.
      const template = await findTemplate(deps.store, space.organizationId, body.id, catalog);
      const base = await targetBase(deps.store, target);
      const contentRefs = body.params?.contentRefs;
      if (contentRefs && Object.keys(contentRefs).length > 0) {
        if (!template.manifest) throw badRequest(`template ${template.id} has no placeholders: contentRefs cannot be used with it`);
        await contentRefReplacements(deps.store, template, base, contentRefs);
      }
      const given = request.headers['idempotency-key'];
      const keySource =
        typeof given === 'string' && given !== '' ? `header:${given}` : `body:${JSON.stringify([body.id, body.changeRequestId ?? null, contentRefs ?? null])}`;
      const requestKey = createHash('sha256').update(`${space.organizationId}\n${space.id}\n${keySource}`).digest('hex').slice(0, 32);
      const result = await applyTemplate(workflowStarter(deps), {
        ...target,
        templateId: template.id,
        ...(contentRefs ? { contentRefs } : {}),
        requestKey,
      });
      request.log.info(
        { spaceId: space.id, templateId: template.id, revisionId: result.revisionId, addedPages: result.addedPages, openAPISpec: result.openAPISpec },
        'template applied',
      );
      if (result.openAPISpec?.code) void reply.header('x-folio-openapi-spec-error', result.openAPISpec.code);
      return reply.status(201).send();
    },
  );
}
