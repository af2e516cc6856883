/**
 * Uploads through signed URLs, as the official API has them: `POST /v1/orgs/{organizationId}/storage/upload`
 * `{ file: { name, type, size }, kind }` → 201 `StorageUploadURL` `{ object: "storage-signed-url", url, key }`; the
 * client then PUTs the file's bytes to `url` (no bearer token: the URL's secret is the permission, valid one hour,
 * once) and passes `key` to a file import (`source: { type: "file", files: [key] }`). Only `import_file` uploads are
 * kept by this server; the bytes become a blob of the organization's slot.
 */
import { createHash, randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { MAX_IMPORT_UPLOAD_BYTES } from '../../fileimport/limits.js';
import { safeSegment } from '../../fileimport/paths.js';
import { newId } from '../../store/index.js';
import { actorId, organizationNotFound, requireOrg } from '../auth.js';
import type { ApiDeps } from '../deps.js';
import { HttpError, badRequest, notFound } from '../http-errors.js';
import type { UrlBuilder } from '../objects/urls.js';

const UPLOAD_TTL_MS = 3600_000;
const KINDS = ['customization_font', 'import_file', 'organization_file'];

/** The SHA-256 of a signed URL's secret: what the store keeps. */
function tokenHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

/** The official `POST /orgs/{organizationId}/storage/upload` body (values checked below, with the limits' own codes). */
const uploadBody = {
  body: {
    type: 'object',
    required: ['kind', 'file'],
    properties: {
      kind: { type: 'string' },
      file: {
        type: 'object',
        required: ['name', 'type', 'size'],
        properties: { name: { type: 'string' }, type: { type: 'string' }, size: { type: 'number' } },
      },
    },
  },
};

export function storageRoutes(app: FastifyInstance, deps: ApiDeps, urls: UrlBuilder): void {
  const { store } = deps;
  const root = () => urls.api('/').replace(/\/v1\/$/, '');

  app.post<{ Params: { organizationId: string } }>('/v1/orgs/:organizationId/storage/upload', { schema: uploadBody }, async (request, reply) => {
    const { organizationId } = request.params;
    const auth = requireOrg(request, organizationId);
    if (!(await store.orgs.get(organizationId))) throw organizationNotFound(organizationId);
    const body = request.body as Record<string, unknown> | null;
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw badRequest('the body must be a JSON object: { file: { name, type, size }, kind }');
    if (typeof body.kind !== 'string' || !KINDS.includes(body.kind)) throw badRequest(`kind must be one of ${KINDS.join(', ')}`);
    if (body.kind !== 'import_file')
      throw new HttpError(400, 'STORAGE_KIND_UNSUPPORTED', `uploads of kind ${body.kind} are not kept by this server; only import_file (for file imports)`);
    const file = body.file as Record<string, unknown> | null;
    if (!file || typeof file !== 'object' || Array.isArray(file)) throw badRequest('file is required: { name, type, size }');
    if (typeof file.name !== 'string' || file.name.trim() === '' || file.name.length > 255)
      throw badRequest('file.name must be a file name of 1-255 characters');
    if (typeof file.type !== 'string' || file.type.length > 255) throw badRequest('file.type must be a MIME type');
    if (typeof file.size !== 'number' || !Number.isInteger(file.size) || file.size < 1)
      throw badRequest('file.size must be the size of the file in bytes (at least 1)');
    if (file.size > MAX_IMPORT_UPLOAD_BYTES)
      throw new HttpError(400, 'STORAGE_FILE_TOO_LARGE', `file.size ${file.size} is over the limit of ${MAX_IMPORT_UPLOAD_BYTES} bytes for one import file`);
    const token = randomBytes(32).toString('base64url');
    const key = `org/${organizationId}/import/${newId()}/${safeSegment(file.name).slice(0, 200)}`;
    await store.uploads.create({
      key,
      organizationId,
      kind: 'import_file',
      name: file.name.trim(),
      contentType: file.type,
      size: file.size,
      tokenHash: tokenHash(token),
      expiresAt: new Date(Date.now() + UPLOAD_TTL_MS),
      createdBy: actorId(auth),
    });
    return reply.status(201).send({ object: 'storage-signed-url', url: `${root()}/storage/uploads/${token}`, key });
  });

  // The signed URL: outside `/v1` (no bearer token), any content type, the body kept as bytes.
  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', { parseAs: 'buffer', bodyLimit: MAX_IMPORT_UPLOAD_BYTES }, (_request, body, done) => done(null, body));
    scope.put<{ Params: { token: string } }>('/storage/uploads/:token', async (request, reply) => {
      const slot = /^[A-Za-z0-9_-]{43}$/.test(request.params.token) ? await store.uploads.byToken(tokenHash(request.params.token)) : null;
      if (!slot) throw notFound('no upload is expected at this address');
      if (slot.expiresAt.getTime() < Date.now()) throw new HttpError(403, 'STORAGE_URL_EXPIRED', 'this upload address has expired; ask for a new one');
      const body = request.body;
      const bytes = Buffer.isBuffer(body) ? new Uint8Array(body.buffer, body.byteOffset, body.byteLength) : new Uint8Array(0);
      if (bytes.byteLength !== slot.size)
        throw badRequest(`the upload has ${bytes.byteLength} bytes; ${slot.size} were announced (file.size) for this address`);
      if (!(await store.uploads.complete(slot.key, bytes))) throw new HttpError(409, 'CONFLICT', 'this file was uploaded already');
      return reply.status(200).send();
    });
  });
}
