/**
 * push: send a commit of the cache to a remote branch. Never forces unless asked; creates the
 * branch when it does not exist; a remote branch that moved ends in NON_FAST_FORWARD (the
 * remote commit is left untouched), a hook or protection that declines in PUSH_REJECTED.
 */
import git from 'isomorphic-git';
import { atomicFs } from './atomic-fs.js';
import type { RepoCache } from './cache.js';
import { withCacheLock } from './cache.js';
import { authHandlers, resolveRemote, type GitCredentials } from './credentials.js';
import { repairShallow } from './shallow-journal.js';
import { GitCancelledError, cleanRemoteLine, GitNonFastForwardError, GitObjectNotFoundError, classifyPushError, toGitError } from './errors.js';
import { redact } from '../redact.js';
import type { AuthHandlers } from './credentials.js';
import type { HttpClient } from 'isomorphic-git';
import { createHttpClient } from './http-client.js';
import { hasObject } from './objects.js';
import type { FetchPolicy } from '../net/policy.js';
import type { AdvertisementMemo } from './advertisement-memo.js';

export interface PushOptions {
  cache: RepoCache;
  url: string;
  /** Branch to update (`main` or `refs/heads/main`). */
  ref: string;
  auth?: GitCredentials;
  /** The commit to push (must be in the cache). */
  commit: string;
  /** Overwrite the remote branch even when it is not an ancestor. Default false. */
  force?: boolean;
  signal?: AbortSignal;
  /** Which addresses the remote (and its redirects) may resolve to. Default: every non-public address refused. */
  policy?: FetchPolicy;
  /** The operation's memo of ref advertisements: the receive-pack advertisement it holds starts the push (advertisement-memo.ts). */
  advertisements?: AdvertisementMemo;
}

export interface PushResult {
  /** Full remote ref name that was updated. */
  ref: string;
  commit: string;
  /** The remote commit before the push, or null when the branch was created. */
  previous: string | null;
  created: boolean;
  /** False when the remote already pointed at `commit` (nothing was sent). */
  updated: boolean;
}

const ZERO = '0000000000000000000000000000000000000000';

export async function push(options: PushOptions): Promise<PushResult> {
  const { cache, commit, signal } = options;
  const remote = resolveRemote(options.url, options.auth);
  const fullRef = options.ref.startsWith('refs/') ? options.ref : `refs/heads/${options.ref}`;
  const operation = `push to ${fullRef}`;
  if (signal?.aborted) throw new GitCancelledError(operation);
  if (!(await hasObject(cache, commit))) throw new GitObjectNotFoundError('commit', commit);
  const handlers = authHandlers(remote.auth);
  const ctx = { url: remote.url, ref: fullRef, operation, ...(signal ? { signal } : {}) };
  return withCacheLock(cache, async () => {
    // The walk to the remote's commits stops at the shallow list: repaired first after an interrupted fetch.
    await repairShallow(cache);
    let previous: string | null = null;
    const http = createHttpClient({
      ...(signal ? { signal } : {}),
      ...(options.policy ? { policy: options.policy } : {}),
      ...(options.advertisements ? { advertisements: options.advertisements } : {}),
    });
    const remoteMessages: string[] = [];
    try {
      const res = await git.push({
        fs: atomicFs,
        http,
        gitdir: cache.gitdir,
        cache: cache.objectCache,
        url: remote.url,
        ref: commit,
        remoteRef: fullRef,
        force: options.force === true,
        onAuth: handlers.onAuth,
        onAuthFailure: handlers.onAuthFailure,
        onMessage: (line) => {
          if (remoteMessages.length < 50) remoteMessages.push(cleanRemoteLine(line));
        },
        onPrePush: ({ remoteRef }) => {
          previous = remoteRef.oid === ZERO ? null : remoteRef.oid;
          return !signal?.aborted;
        },
        ...(signal ? { signal } : {}),
      });
      if (!res.ok) throw classifyPushError(ctx, String(res.error ?? 'rejected'));
      const status = res.refs[fullRef];
      if (status && !status.ok) throw classifyPushError(ctx, status.error);
      return { ref: fullRef, commit, previous, created: previous === null, updated: previous !== commit };
    } catch (err) {
      let mapped = toGitError(err, { ...ctx, authRejected: handlers.rejected, secrets: handlers.secrets });
      if (mapped.code === 'PUSH_REJECTED' && /failed to update ref/.test(mapped.message)) {
        // receive-pack could not move the ref: if it moved under us since we looked, that is a race we lost.
        const now = await remoteCommit(http, remote.url, fullRef, handlers).catch(() => undefined);
        if (now !== undefined && now !== previous) mapped = new GitNonFastForwardError(remote.url, fullRef, now ?? undefined);
      }
      await new Promise((r) => setImmediate(r)); // let isomorphic-git deliver the remote's last messages
      if (remoteMessages.length) (mapped.data as Record<string, unknown>).remoteMessages = remoteMessages.map((m) => redact(m));
      throw mapped;
    }
  });
}

/** The commit a remote ref points at now (null: no such ref). */
async function remoteCommit(http: HttpClient, url: string, fullRef: string, handlers: AuthHandlers): Promise<string | null> {
  const refs = await git.listServerRefs({ http, url, protocolVersion: 1, onAuth: handlers.onAuth, onAuthFailure: handlers.onAuthFailure });
  return refs.find((r) => r.ref === fullRef)?.oid ?? null;
}
