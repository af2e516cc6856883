/**
 * Push-triggered sync (issue 28): a space's admin sets the secret of its push webhook
 * (`PUT /v1/spaces/{id}/git/push-secret`, sealed with the vault key, never answered back); the git host then posts
 * its push events to `POST /hooks/github/spaces/{id}` (GitHub: `X-Hub-Signature-256` over the raw body) or
 * `POST /hooks/gitlab/spaces/{id}` (GitLab: `X-Gitlab-Token`, the secret itself) — no bearer token: the signature or
 * token is the authentication. A push of the space's own branch (git/info's repository and ref) queues a git import
 * of it, ordered by the head commit's time exactly as an API-started import; a push of Folio's own export is not
 * imported. A signature or token that does not verify (or a space without a secret) answers 401 and starts nothing.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { gitRequestId } from '../../gitsync/request-id.js';
import {
  isOwnExport,
  parseGithubPush,
  parseGitlabPush,
  sameBranch,
  verifyGithubSignature,
  verifyGitlabToken,
  type PushEvent,
} from '../../gitsync/push-webhook.js';
import type { GitSyncRequest } from '../../temporal/contract/index.js';
import { enqueueGitRequest } from '../../temporal/client/start.js';
import { fieldSealer } from '../../vault/index.js';
import { workflowStarter, type ApiDeps } from '../deps.js';
import { HttpError } from '../http-errors.js';
import { loadSpace } from './spaces.js';

const secretBody = { body: { type: 'object', required: ['secret'], properties: { secret: { type: 'string', minLength: 16, maxLength: 200 } } } } as const;
const context = (spaceId: string) => `space:${spaceId}:git-push-secret`;
const refused = (header: string) => new HttpError(401, 'UNAUTHORIZED', `the push signature does not verify (${header})`);

type HookRequest = FastifyRequest<{ Params: { spaceId: string }; Body: Buffer }>;

/** How one git host's hook is read: its check of the secret, whether the event is a ping, its push. */
interface HostHook {
  header: string;
  verify(secret: string, body: Buffer, request: HookRequest): boolean;
  /** `ping` when the host only checks the hook, else the push (null: another event, named). */
  read(body: Buffer, request: HookRequest): 'ping' | { push: PushEvent | null; event: string };
}

const github: HostHook = {
  header: 'X-Hub-Signature-256',
  verify: (secret, body, request) => verifyGithubSignature(secret, body, request.headers['x-hub-signature-256'] as string | undefined),
  read(body, request) {
    const event = String(request.headers['x-github-event'] ?? '');
    if (event === 'ping') return 'ping';
    return { push: event === 'push' ? parseGithubPush(body) : null, event };
  },
};

const gitlab: HostHook = {
  header: 'X-Gitlab-Token',
  verify: (secret, _body, request) => verifyGitlabToken(secret, request.headers['x-gitlab-token'] as string | undefined),
  read(body, request) {
    const event = String(request.headers['x-gitlab-event'] ?? '');
    return { push: event === 'Push Hook' ? parseGitlabPush(body) : null, event };
  },
};

/** What a verified push starts: an import of the space's own branch, or nothing with the reason. */
async function queuePush(deps: ApiDeps, request: HookRequest, reply: FastifyReply, spaceId: string, push: PushEvent) {
  const [space, state] = await Promise.all([deps.store.spaces.get(spaceId), deps.store.gitSync.get(spaceId)]);
  if (!space || !state.repo) return reply.status(202).send({ queued: false, reason: 'the space has no git repository (import once through the API)' });
  if (push.deleted || !sameBranch(push.ref, state.repo.ref)) return reply.status(202).send({ queued: false, reason: 'not the space’s branch' });
  if (space.editMode === 'locked') return reply.status(202).send({ queued: false, reason: 'the space is locked' });
  if (isOwnExport(push, space.id, state.lastExport?.commit)) return reply.status(202).send({ queued: false, reason: 'Folio’s own export' });
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
}

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

  const receiver = (host: HostHook) => async (request: HookRequest, reply: FastifyReply) => {
    const spaceId = request.params.spaceId;
    const sealed = await deps.store.gitSync.pushSecret(spaceId);
    const body = Buffer.isBuffer(request.body) ? request.body : Buffer.alloc(0);
    if (!sealed || !host.verify(sealer().open(sealed, context(spaceId)), body, request)) throw refused(host.header);
    const read = host.read(body, request);
    if (read === 'ping') return reply.status(204).send();
    if (!read.push) return reply.status(202).send({ queued: false, reason: `not a push event (${read.event.slice(0, 40)})` });
    return queuePush(deps, request, reply, spaceId, read.push);
  };

  // The receivers read their body as bytes: GitHub's signature is over them, exactly as sent.
  void app.register(async (scope) => {
    scope.removeContentTypeParser('application/json');
    scope.addContentTypeParser('application/json', { parseAs: 'buffer', bodyLimit: 5 * 1024 * 1024 }, (_req, body, done) => done(null, body));
    scope.post<{ Params: { spaceId: string }; Body: Buffer }>('/hooks/github/spaces/:spaceId', receiver(github));
    scope.post<{ Params: { spaceId: string }; Body: Buffer }>('/hooks/gitlab/spaces/:spaceId', receiver(gitlab));
  });
}
