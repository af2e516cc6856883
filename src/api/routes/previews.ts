import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { renderPreview, type PreviewInput } from '../../publish/preview.js';
import type { ApiDeps } from '../deps.js';
import { HttpError, notFound } from '../http-errors.js';
import { loadSpace } from './spaces.js';

const CHANGES = /^~\/changes\/(\d{1,9})(?:\/(.*))?$/;

/** What a path below `/preview/` shows: a change request's revision (`~/changes/<number>/…`) or the space's. */
async function previewTarget(deps: ApiDeps, request: FastifyRequest, spaceId: string, rest: string): Promise<PreviewInput & { prefix: string }> {
  const space = await loadSpace(deps, request, spaceId);
  const title = space.title ?? 'Untitled space';
  const language = space.language ?? 'en';
  const cr = CHANGES.exec(rest);
  if (cr) {
    const record = await deps.store.changeRequests.get(space.id, cr[1]!);
    if (!record || record.spaceId !== space.id) throw notFound(`change request not found: ${cr[1]}`);
    return {
      revisionId: record.revisionId,
      title,
      language,
      path: cr[2] ?? '',
      prefix: `~/changes/${record.number}/`,
      base: { revisionId: record.revisionInitial, banner: `change request #${record.number}: ${record.subject || 'Untitled'}` },
    };
  }
  if (!space.revisionId) throw notFound(`space has no content yet: ${spaceId}`);
  return { revisionId: space.revisionId, title, language, path: rest, prefix: '' };
}

async function answer(deps: ApiDeps, request: FastifyRequest, reply: FastifyReply, spaceId: string, rest: string) {
  // A page's address ends with `/` (its links are relative, as on a published site).
  if (rest !== '' && !rest.endsWith('/') && !/^(?:_static|_files)\//.test(rest) && !CHANGES.exec(rest)?.[2]?.match(/^(?:_static|_files)\//)) {
    return reply.redirect(`${request.url.split('?')[0]}/`, 302);
  }
  const target = await previewTarget(deps, request, spaceId, rest);
  const out = await renderPreview({ store: deps.store, render: (input) => deps.parsePool!.run('publish.render', input) }, target).catch((err: unknown) => {
    // A render over its time budget (a thread still loading its grammars, a machine under load): try again later.
    if ((err as { code?: unknown }).code !== 'PARSE_BUDGET_EXCEEDED') throw err;
    void reply.header('retry-after', '5');
    throw new HttpError(503, 'PREVIEW_BUSY', 'the page could not be rendered within its time budget; try again shortly');
  });
  if (!out) throw notFound(`nothing at ${rest || '/'} in this preview`);
  reply.header('x-content-type-options', 'nosniff').header('cache-control', 'private, no-store').header('x-robots-tag', 'noindex, nofollow');
  if (out.csp) reply.header('content-security-policy', out.csp);
  else if (!out.contentType.startsWith('text/css') && !out.contentType.startsWith('text/javascript') && !out.contentType.startsWith('font/'))
    reply.header('content-security-policy', 'sandbox').header('content-disposition', 'attachment');
  return reply.type(out.contentType).send(typeof out.body === 'string' ? out.body : Buffer.from(out.body));
}

/**
 * Read-only previews (what `urls.app` of spaces, pages and change requests lead to): `GET /v1/spaces/{id}/preview/…`
 * renders the space's primary revision, `…/preview/~/changes/{number}/…` a change request's (its changed pages
 * marked), with the published sites' renderer; the caller needs `read` on the space. `/app/s/{id}/…` (the `urls.app`
 * form) redirects there, looking nothing up.
 */
export function previewRoutes(app: FastifyInstance, deps: ApiDeps): void {
  app.get<{ Params: { spaceId: string } }>('/v1/spaces/:spaceId/preview', async (request, reply) => reply.redirect(`${request.url.split('?')[0]}/`, 302));
  app.get<{ Params: { spaceId: string; '*': string } }>('/v1/spaces/:spaceId/preview/*', async (request, reply) =>
    answer(deps, request, reply, request.params.spaceId, request.params['*']),
  );
  app.get<{ Params: { spaceId: string; '*'?: string } }>('/app/s/:spaceId', async (request, reply) =>
    reply.redirect(`/v1/spaces/${encodeURIComponent(request.params.spaceId)}/preview/`, 302),
  );
  app.get<{ Params: { spaceId: string; '*': string } }>('/app/s/:spaceId/*', async (request, reply) => {
    const rest = request.params['*'].split('/').map(encodeURIComponent).join('/');
    return reply.redirect(`/v1/spaces/${encodeURIComponent(request.params.spaceId)}/preview/${rest}${rest === '' || rest.endsWith('/') ? '' : '/'}`, 302);
  });
}
