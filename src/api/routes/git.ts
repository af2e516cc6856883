/**
 * Git sync endpoints: `POST /v1/spaces/{id}/git/import`, `POST /v1/spaces/{id}/git/export` (204 once queued on
 * the space's queue workflow `space/<id>/git`, with the header `X-Folio-Operation-Id`: the id of the workflow that
 * runs the request, `space/<id>/git-import/<requestId>` or `…/git-export/…`), `GET /v1/spaces/{id}/git/info` (repository, last sync marks
 * and the latest operation, in the shape of the official `GitSyncState`).
 *
 * Credentials in the URL are sealed into the vault here; only their id travels to Temporal.
 */
import type { FastifyInstance } from 'fastify';
import { workflowIds, type GitDirection, type GitQueueView, type GitSyncRequest } from '../../temporal/contract/index.js';
import { enqueueGitRequest, queryGitQueue } from '../../temporal/client/start.js';
import { parseGitRequest, GitRequestError } from '../../gitsync/request.js';
import { gitRequestId } from '../../gitsync/request-id.js';

import { putGitCredentials } from '../../gitsync/credentials.js';
import { gitInfoObject } from '../../gitsync/info.js';
import { syncRepoOf } from '../../gitsync/sync-repo.js';
import { workflowStarter, type ApiDeps } from '../deps.js';
import { OPERATION_ID_HEADER } from '../operation-id.js';
import { badRequest, notFound } from '../http-errors.js';
import { assertSpaceEditable } from '../space-editable.js';
import { loadSpace } from './spaces.js';
import { openVault } from '../../vault/index.js';
import { GitQueueViews } from '../git-queue-views.js';

/** The official `ImportGitRepository` / `ExportToGitRepository` members (their values are checked by parseGitRequest). */
const gitMembers = {
  url: { type: 'string' },
  ref: { type: 'string' },
  repoCacheID: { type: 'string' },
  repoTreeURL: { type: 'string' },
  repoCommitURL: { type: 'string' },
  repoProjectDirectory: { type: 'string' },
  timestamp: { type: 'string' },
  force: { type: 'boolean' },
  standalone: { type: 'boolean' },
  gitInfo: { type: ['object', 'null'], properties: { provider: { type: 'string', enum: ['github', 'gitlab'] }, url: { type: 'string' } } },
} as const;
const importBody = { body: { type: 'object', required: ['url', 'ref'], properties: gitMembers } };
const exportBody = { body: { type: 'object', required: ['url', 'ref', 'commitMessage'], properties: { ...gitMembers, commitMessage: { type: 'string' } } } };

export function gitRoutes(app: FastifyInstance, deps: ApiDeps): void {
  const vault = () => openVault(deps.store, { dataDir: deps.config.dataDir, secret: deps.config.vaultKey });
  const queueViews = new GitQueueViews();

  const enqueue =
    (direction: GitDirection) => async (request: import('fastify').FastifyRequest<{ Params: { spaceId: string } }>, reply: import('fastify').FastifyReply) => {
      const space = await loadSpace(deps, request, request.params.spaceId);
      let parsed;
      try {
        parsed = parseGitRequest(direction, request.body);
      } catch (err) {
        if (err instanceof GitRequestError) throw badRequest(err.message);
        throw err;
      }
      if (direction === 'import' && !parsed.standalone) assertSpaceEditable(space);
      const receivedAt = new Date().toISOString();
      const timestamp = parsed.timestamp ?? receivedAt;
      const requestId = gitRequestId(space.id, { ...parsed, timestamp });
      const credentialId = parsed.credentials ? await putGitCredentials(vault(), space.id, parsed.credentials) : undefined;
      const queued: GitSyncRequest = {
        requestId,
        direction,
        spaceId: space.id,
        organizationId: space.organizationId,
        url: parsed.url,
        ...(credentialId ? { credentialId } : {}),
        ref: parsed.ref,
        timestamp,
        force: parsed.force,
        standalone: parsed.standalone,
        ...(parsed.commitMessage !== undefined ? { commitMessage: parsed.commitMessage } : {}),
        ...(parsed.repoCacheID ? { repoCacheID: parsed.repoCacheID } : {}),
        ...(parsed.repoTreeURL ? { repoTreeURL: parsed.repoTreeURL } : {}),
        ...(parsed.repoCommitURL ? { repoCommitURL: parsed.repoCommitURL } : {}),
        projectDirectory: parsed.projectDirectory,
        ...(parsed.gitInfo ? { gitInfo: parsed.gitInfo } : {}),
        receivedAt,
        ...(request.auth?.userId ? { actorId: request.auth.userId } : {}),
      };
      const [, sync] = await Promise.all([
        deps.store.gitRequests.record(space.id, { requestId, direction, timestamp, status: 'queued' }),
        deps.store.gitSync.get(space.id),
      ]);
      // The first request names the space's repository (git/info's installation) before its operation starts;
      // every operation that starts records its own repository (src/gitsync/operation.ts).
      if (!sync.repo) await deps.store.gitSync.update(space.id, { repo: syncRepoOf(parsed) });
      await enqueueGitRequest(workflowStarter(deps), { spaceId: space.id, organizationId: space.organizationId, request: queued });
      queueViews.forget(space);
      request.log.info({ spaceId: space.id, requestId, direction, timestamp }, 'git request queued');
      // The operation the client can follow: the id of the workflow that runs this request (Temporal Web UI, `describe`).
      return reply
        .header(OPERATION_ID_HEADER, direction === 'import' ? workflowIds.gitImport(space.id, requestId) : workflowIds.gitExport(space.id, requestId))
        .status(204)
        .send();
    };

  app.post<{ Params: { spaceId: string } }>('/v1/spaces/:spaceId/git/import', { schema: importBody }, enqueue('import'));
  app.post<{ Params: { spaceId: string } }>('/v1/spaces/:spaceId/git/export', { schema: exportBody }, enqueue('export'));

  app.get<{ Params: { spaceId: string } }>('/v1/spaces/:spaceId/git/info', async (request) => {
    const space = await loadSpace(deps, request, request.params.spaceId);
    // The sync state, the request log and the queue (a query of its workflow, kept half a second: clients poll this
    // while an operation runs) are asked at the same time.
    const [state, requests, queue] = await Promise.all([
      deps.store.gitSync.get(space.id),
      deps.store.gitRequests.list(space.id, 20),
      queueViews
        .get(space, () => queryGitQueue(deps.temporal, space.id))
        .catch((err: unknown): GitQueueView | null => {
          request.log.debug({ err: (err as Error).message }, 'git queue not queryable');
          return null;
        }),
    ]);
    // 404 only for a space that never asked for a sync (the first request already names the repository).
    if (!state.repo) throw notFound(`no git sync on space ${space.id}`);
    const info = gitInfoObject(state, { queue, requests });
    if (!info) throw notFound(`no git sync on space ${space.id}`);
    return info;
  });
}
