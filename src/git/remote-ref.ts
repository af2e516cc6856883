/**
 * remoteRefCommit: the commit a remote branch or tag points at, from the ref advertisement alone (one request, the
 * first of every fetch): enough to see that nothing changed without fetching, reading or locking the cache.
 */
import git from 'isomorphic-git';
import { authHandlers, resolveRemote, type GitCredentials } from './credentials.js';
import { GitCancelledError, toGitError } from './errors.js';
import { createHttpClient } from './http-client.js';
import type { FetchPolicy } from '../net/policy.js';
import type { AdvertisementMemo } from './advertisement-memo.js';

export interface RemoteRefOptions {
  /** Remote URL; basic-auth userinfo is accepted and moved out of the URL. */
  url: string;
  /** Branch name (`main`, `refs/heads/main`) or tag (`refs/tags/v1`). */
  ref: string;
  auth?: GitCredentials;
  signal?: AbortSignal;
  policy?: FetchPolicy;
  /** The operation's memo of ref advertisements (shared with its `remoteRefCommit` / `fetchRef`): see advertisement-memo.ts. */
  advertisements?: AdvertisementMemo;
  /** Ask receive-pack (what a push will see: needs push access on most hosts) instead of upload-pack. */
  forPush?: boolean;
}

/** The commit `ref` points at on the remote (a tag peeled to its commit); undefined when the remote has no such ref. */
export async function remoteRefCommit(options: RemoteRefOptions): Promise<string | undefined> {
  const remote = resolveRemote(options.url, options.auth);
  const operation = `listing of ${options.ref}`;
  if (options.signal?.aborted) throw new GitCancelledError(operation);
  const handlers = authHandlers(remote.auth);
  const full = options.ref.startsWith('refs/') ? options.ref : `refs/heads/${options.ref}`;
  try {
    const refs = await git.listServerRefs({
      http: createHttpClient({
        ...(options.signal ? { signal: options.signal } : {}),
        ...(options.policy ? { policy: options.policy } : {}),
        ...(options.advertisements ? { advertisements: options.advertisements } : {}),
      }),
      url: remote.url,
      protocolVersion: 1,
      forPush: options.forPush === true,
      prefix: full,
      peelTags: true,
      onAuth: handlers.onAuth,
      onAuthFailure: handlers.onAuthFailure,
    });
    const found = refs.find((r) => r.ref === full);
    return found ? (found.peeled ?? found.oid) : undefined;
  } catch (err) {
    throw toGitError(err, {
      url: remote.url,
      ref: options.ref,
      operation,
      ...(options.signal ? { signal: options.signal } : {}),
      authRejected: handlers.rejected,
      secrets: handlers.secrets,
    });
  }
}
