/**
 * PDF exports, as the official API has them: `GET /v1/spaces/{spaceId}/pdf` and
 * `GET /v1/spaces/{spaceId}/change-requests/{changeRequestId}/pdf` (`?page=<pageId>`, `?only=true` for that page
 * without its sub-pages) answer 200 `{ url }`: a temporary URL (valid one hour; its secret is the permission, no
 * bearer token) to download the PDF. The PDF is printed by a `space/<id>/pdf/<exportId>/<attempt>` workflow, once
 * per revision and scope; the URL answers the PDF once printed, 202 with `Retry-After` while it prints (after
 * waiting a little), and the export's failure (422 with its code) when it failed.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { PdfExportRecord, SpaceRecord } from '../../store/index.js';
import { startPdfExport } from '../../temporal/client/start.js';
import { workflowStarter, type ApiDeps } from '../deps.js';
import { badRequest, HttpError, notFound, unprocessable } from '../http-errors.js';
import type { UrlBuilder } from '../objects/urls.js';
import { loadSpace } from './spaces.js';

const LINK_TTL_MS = 3600_000;
/** How long the download URL waits for a running export before answering 202. */
const DOWNLOAD_WAIT_MS = 20_000;
const RETRY_AFTER_SECONDS = 5;

const tokenHash = (token: string) => createHash('sha256').update(token).digest('hex');

const pdfQuery = {
  querystring: { type: 'object', properties: { page: { type: 'string', maxLength: 128 }, only: { type: 'string', enum: ['true', 'false', ''] } } },
};

function fileName(title: string): string {
  const base = title
    .normalize('NFKD')
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 80);
  return `${base || 'export'}.pdf`;
}

/** `GET …/pdf` of a space and of a change request: each answers a new temporary URL to the export. */
function registerPdfExportRoutes(app: FastifyInstance, deps: ApiDeps, urls: UrlBuilder): void {
  const { store } = deps;
  const root = () => urls.api('/').replace(/\/v1\/$/, '');

  /** The export of `revisionId` in the request's scope, started if it must print, and a new temporary URL to it. */
  async function answer(request: FastifyRequest, space: SpaceRecord, revisionId: string | null, changeRequestId: string | null) {
    const query = request.query as { page?: string; only?: string };
    const pageId = query.page !== undefined && query.page !== '' ? query.page : null;
    if (query.only === 'true' && pageId === null) throw badRequest('only=true needs page: the page to print alone');
    if (revisionId === null) throw unprocessable('PDF_NOTHING_TO_PRINT', 'this space has no content yet: there is nothing to print');
    if (pageId !== null) {
      const page = await store.revisions.page(revisionId, pageId);
      if (!page) throw notFound(`page not found: ${pageId}`);
      if (page.kind !== 'document') throw badRequest(`page ${pageId} is a ${page.kind}, not a document page: only document pages are printed`);
    }
    const scope = { organizationId: space.organizationId, spaceId: space.id, changeRequestId, revisionId, pageId, only: query.only === 'true' };
    const { record } = await store.pdfExports.ensure(scope);
    if (record.status === 'running')
      await startPdfExport(workflowStarter(deps), { organizationId: space.organizationId, spaceId: space.id, exportId: record.id, attempt: record.attempt });
    const token = randomBytes(32).toString('base64url');
    await store.pdfExports.createLink(record.id, tokenHash(token), new Date(Date.now() + LINK_TTL_MS));
    return { url: `${root()}/pdf-exports/${token}` };
  }

  app.get<{ Params: { spaceId: string } }>('/v1/spaces/:spaceId/pdf', { schema: pdfQuery }, async (request) => {
    const space = await loadSpace(deps, request, request.params.spaceId);
    return answer(request, space, space.revisionId, null);
  });

  app.get<{ Params: { spaceId: string; changeRequestId: string } }>(
    '/v1/spaces/:spaceId/change-requests/:changeRequestId/pdf',
    { schema: pdfQuery },
    async (request) => {
      const space = await loadSpace(deps, request, request.params.spaceId);
      const cr = await store.changeRequests.get(space.id, request.params.changeRequestId);
      if (!cr) throw notFound(`change request not found: ${request.params.changeRequestId}`);
      return answer(request, space, cr.revisionId, cr.id);
    },
  );
}

/** The export, waiting up to DOWNLOAD_WAIT_MS while it prints. */
async function settled(store: ApiDeps['store'], record: PdfExportRecord, signal: { closed: boolean }): Promise<PdfExportRecord> {
  const until = Date.now() + DOWNLOAD_WAIT_MS;
  let current = record;
  while (current.status === 'running' && Date.now() < until && !signal.closed) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    current = (await store.pdfExports.get(current.organizationId, current.id)) ?? current;
  }
  return current;
}

/** The temporary download URL of an export. */
function registerPdfDownloadRoutes(app: FastifyInstance, deps: ApiDeps): void {
  const { store } = deps;

  // The temporary URL: outside `/v1` (no bearer token); the secret in its path is the permission.
  app.get<{ Params: { token: string } }>('/pdf-exports/:token', async (request, reply: FastifyReply) => {
    const link = /^[A-Za-z0-9_-]{43}$/.test(request.params.token) ? await store.pdfExports.byLink(tokenHash(request.params.token)) : null;
    if (!link) throw notFound('no PDF export is at this address');
    if (link.expiresAt.getTime() < Date.now()) throw new HttpError(403, 'PDF_URL_EXPIRED', 'this download address has expired; ask for a new one');
    const connection = { closed: false };
    request.raw.once('close', () => (connection.closed = true));
    const record = await settled(store, link.record, connection);
    if (record.status === 'failed')
      throw unprocessable(
        record.error?.code ?? 'PDF_FAILED',
        `the PDF export failed (${record.error?.code ?? 'PDF_FAILED'}): ${record.error?.message ?? 'unknown error'}`,
      );
    if (record.status === 'running')
      return reply
        .status(202)
        .header('retry-after', String(RETRY_AFTER_SECONDS))
        .header('cache-control', 'no-store')
        .send({ status: 'running', message: 'the PDF is being printed; ask this address again shortly' });
    const bytes = record.blobHash ? await store.blobs.get(record.blobHash) : null;
    if (!bytes) throw new HttpError(500, 'PDF_MISSING', 'the printed PDF is no longer stored; ask for a new export');
    const space = await store.spaces.get(record.spaceId);
    return reply
      .status(200)
      .header('content-type', 'application/pdf')
      .header('content-disposition', `attachment; filename="${fileName(space?.title ?? 'export')}"`)
      .header('cache-control', 'private, no-store')
      .header('x-content-type-options', 'nosniff')
      .send(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  });
}

export function pdfRoutes(app: FastifyInstance, deps: ApiDeps, urls: UrlBuilder): void {
  registerPdfExportRoutes(app, deps, urls);
  registerPdfDownloadRoutes(app, deps);
}
