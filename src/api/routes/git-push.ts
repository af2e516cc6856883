/**
 * Push-triggered sync (issue 28): a space's admin sets the secret of its push webhook
 * (`PUT /v1/spaces/{id}/git/push-secret`, sealed with the vault key, never answered back); the git host then posts
 * its push events to `POST /hooks/github/spaces/{id}` (no bearer token: the signature is the authentication). A push
 * of the space's own branch (git/info's repository and ref) queues a git import of it, ordered by the head commit's
 * time exactly as an API-started import; a push of the commit Folio's last export wrote is its own and is not
 * imported. A signature that does not verify (or a space without a secret) answers 401 and starts nothing.
 */
import type { FastifyInstance } from 'fastify';
import { gitRequestId } from '../../gitsync/request-id.js';
import { parseGithubPush, sameBranch, verifyGithubSignature } from '../../gitsync/push-webhook.js';
import type { GitSyncRequest } from '../../temporal/contract/index.js';
import { enqueueGitRequest } from '../../temporal/client/start.js';
import { fieldSealer } from '../../vault/index.js';
import { workflowStarter, type ApiDeps } from '../deps.js';
import { HttpError } from '../http-errors.js';
import { loadSpace } from './spaces.js';

const secretBody = { body: { type: 'object', required: ['secret'], properties: { secret: { type: 'string', minLength: 16, maxLength: 200 } } } } as const;
const context = (spaceId: string) => `space:${spaceId}:git-push-secret`;
const refused = () => new HttpError(401, 'UNAUTHORIZED', 'the push signature does not verify (X-Hub-Signature-256)');

export function gitPushRoutes(app: FastifyInstance, deps: ApiDeps): void {
  const sealer = () => fieldSealer({ dataDir: deps.config.dataDir, secret: deps.config.vaultKey });

  app.put<{ Params: { spaceId: string }; Body: { secret: string } }>('/v1/spaces/:spaceId/git/push-secret', { schema: secretBody }, async (request, reply) => {
    const space = await loadSpace(deps, request, request.params.spaceId);
    await deps.store.gitSync.setPushSecret(space.id, sealer().seal(request.body.secret, context(space.id)));
    return reply.status(204).send();
  });

  app.delete<{ Params: { spaceId: string } }>('/v1/spaces/:spaceId/git/push-secret', async (request, reply) => {
    const space = await loadSpace(deps, request, request.params.spaceId);
    await deps.store.gitSync.setPushSecret(space.id, null);
    return reply.status(204).send();
  });

  // The receiver reads its body as bytes: the signature is over them, exactly as sent.
  void app.register(async (scope) => {
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: 5 * 1024 * 1024 }, (_req, body, done) => done(null, body));
    scope.post<{ Params: { spaceId: string }; Body: Buffer }>('/hooks/github/spaces/:spaceId', async (request, reply) => {
      const spaceId = request.params.spaceId;
      const sealed = await deps.store.gitSync.pushSecret(spaceId);
      const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
      if (!sealed || !verifyGithubSignature(sealer().open(sealed, context(spaceId)), body, request.headers['x-hub-signature-256'] as string | undefined))
        throw refused();
      const event = String(request.headers['x-github-event'] ?? '');
      if (event === 'ping') return reply.status(204).send();
      const push = event === 'push' ? parseGithubPush(body) : null;
      if (!push) return reply.status(202).send({ queued: false, reason: `not a push event (${event.slice(0, 40)})` });
      const [space, state] = await Promise.all([deps.store.spaces.get(spaceId), deps.store.gitSync.get(spaceId)]);
      if (!space || !state.repo) return reply.status(202).send({ queued: false, reason: 'the space has no git repository (import once through the API)' });
      if (push.deleted || !sameBranch(push.ref, state.repo.ref)) return reply.status(202).send({ queued: false, reason: 'not the space’s branch' });
      if (space.editMode === 'locked') return reply.status(202).send({ queued: false, reason: 'the space is locked' });
      if (state.lastExport?.commit === push.after) return reply.status(202).send({ queued: false, reason: 'Folio’s own export' });
      const receivedAt = new Date().toISOString();
      const timestamp = push.timestamp ?? receivedAt;
      const fields = {
        direction: 'import' as const,
        url: state.repo.url,
        ref: state.repo.ref,
        force: false,
        standalone: false,
        projectDirectory: state.repo.projectDirectory ?? '',
      };
      const requestId = gitRequestId(space.id, { ...fields, timestamp });
      const queued: GitSyncRequest = { ...fields, requestId, spaceId: space.id, organizationId: space.organizationId, timestamp, receivedAt };
      await deps.store.gitRequests.record(space.id, { requestId, direction: 'import', timestamp, status: 'queued' });
      await enqueueGitRequest(workflowStarter(deps), { spaceId: space.id, organizationId: space.organizationId, request: queued });
      request.log.info({ spaceId: space.id, requestId, timestamp }, 'git push queued an import');
      return reply.status(202).send({ queued: true, requestId });
    });
  });
}
