import type { FastifyInstance } from 'fastify';
import { newId } from '../../ids.js';
import { duplicateSpace } from '../../temporal/client/start.js';
import { WorkflowRunError } from '../../temporal/client/workflow-run-error.js';
import { actorOf, requireAuth } from '../auth.js';
import { workflowStarter, type ApiDeps } from '../deps.js';
import { badRequest, notFound } from '../http-errors.js';
import type { UrlBuilder } from '../objects/urls.js';
import { spaceBody } from '../space-bodies.js';
import { loadSpace } from './spaces.js';

/** A space title is at most 50 characters: the copy's is the source's with " (copy)", shortened to fit. */
const copyTitle = (title: string) => `${title.slice(0, 50 - ' (copy)'.length)} (copy)`;

/**
 * `POST /v1/spaces/{spaceId}/duplicate` (the official `duplicateSpace`): a new space of the organization, in the same
 * collection, with the source's primary content (pages, files, their ids and metadata) as it is now, made by the
 * workflow `space/<sourceId>/duplicate/<newId>` (large spaces copy within its activity's heartbeats). 201 Space.
 */
export function spaceDuplicateRoutes(app: FastifyInstance, deps: ApiDeps, urls: UrlBuilder): void {
  app.post<{ Params: { spaceId: string } }>(
    '/v1/spaces/:spaceId/duplicate',
    { schema: { body: { type: ['object', 'null'], additionalProperties: false, properties: {} } } },
    async (request, reply) => {
      const auth = requireAuth(request);
      const source = await loadSpace(deps, request, request.params.spaceId);
      if (!source.revisionId) throw badRequest('the space has no content yet');
      const spaceId = newId();
      try {
        await duplicateSpace(workflowStarter(deps), {
          organizationId: source.organizationId,
          sourceSpaceId: source.id,
          sourceRevisionId: source.revisionId,
          space: {
            spaceId,
            organizationId: source.organizationId,
            title: copyTitle(source.title ?? 'Untitled'),
            ...(source.emoji ? { emoji: source.emoji } : {}),
            ...(source.language ? { language: source.language } : {}),
            ...(source.editMode ? { editMode: source.editMode } : {}),
            ...(source.visibility ? { visibility: source.visibility } : {}),
            ...(source.parent ? { parent: source.parent } : {}),
          },
        });
      } catch (err) {
        if (err instanceof WorkflowRunError && err.code === 'NOT_FOUND') throw notFound(err.message);
        throw err;
      }
      // As for a space made by POST /orgs/{id}/spaces: a member who is not an organization admin administers the copy.
      if (auth.userId && auth.role !== 'admin')
        await deps.store.permissions.set(source.organizationId, { kind: 'space', id: spaceId }, [{ kind: 'user', id: auth.userId }], 'admin', actorOf(request));
      const space = await deps.store.spaces.get(spaceId);
      if (!space) throw badRequest('the space could not be duplicated');
      const body = await spaceBody(deps.store, space, urls, auth.access);
      return reply
        .status(201)
        .header('location', (body as { urls: { location: string } }).urls.location)
        .send(body);
    },
  );
}
