/**
 * fetchRef: bring one remote branch (or tag) into the bare cache, shallow by default, without
 * any working tree. Cancellation aborts the HTTP transfer in flight and is checked between
 * phases and in the (awaited) indexing progress callbacks; a cancelled, failed or killed fetch leaves
 * the cache consistent (half-written packs removed, the shallow list repaired: shallow-journal.ts).
 */
import * as fsp from 'node:fs/promises';
import path from 'node:path';
import git from 'isomorphic-git';
import { atomicFs } from './atomic-fs.js';
import type { RepoCache } from './cache.js';
import { withCacheLock } from './cache.js';
import { authHandlers, resolveRemote, type GitCredentials } from './credentials.js';
import { classifyRemoteMessages, GitCancelledError, GitObjectNotFoundError, GitRefNotFoundError, toGitError } from './errors.js';
import { createHttpClient } from './http-client.js';
import { hasObject, isShallow, readShallow } from './objects.js';
import { beginFetchRound, endFetchRound, repairShallow } from './shallow-journal.js';
import type { FetchPolicy } from '../net/policy.js';
import type { AdvertisementMemo } from './advertisement-memo.js';

export interface GitProgress {
  /** e.g. `Connecting`, `Counting objects`, `Receiving objects`, `Resolving deltas`, `Deepening`, `Done`. */
  phase: string;
  loaded: number;
  total: number;
}

export interface FetchRefOptions {
  cache: RepoCache;
  /** Remote URL; basic-auth userinfo is accepted and moved out of the URL. */
  url: string;
  /** Branch name (`main`, `refs/heads/main`) or tag (`refs/tags/v1`). */
  ref: string;
  auth?: GitCredentials;
  /** History depth to fetch (default 1). 0 fetches the whole history. */
  depth?: number;
  /**
   * A commit the caller will diff against. When the cache already holds it (and the last fetched head), the
   * fetch is incremental (no deepen: only objects the cache lacks). When it is not in the cache after the
   * fetch, the history is deepened until it is (or the whole history is there).
   */
  baseCommit?: string;
  onProgress?: (progress: GitProgress) => void;
  signal?: AbortSignal;
  /** Which addresses the remote (and its redirects) may resolve to. Default: every non-public address refused. */
  policy?: FetchPolicy;
  /** The operation's memo of ref advertisements (shared with its `remoteRefCommit` / `fetchRef`): see advertisement-memo.ts. */
  advertisements?: AdvertisementMemo;
}

export interface FetchRefResult {
  /** The commit the remote ref points at. */
  commit: string;
  /** Whether the cache holds a truncated history. */
  shallow: boolean;
  /** Present when `baseCommit` was given: whether that commit is now in the cache. */
  baseCommitFound?: boolean;
}

const FULL_DEPTH = 2147483647;
const INDEXING_PHASES = new Set(['Receiving objects', 'Resolving deltas']);

function branchName(ref: string): string {
  return ref.replace(/^refs\/(heads|tags)\//, '');
}

async function removeOrphanPacks(gitdir: string): Promise<void> {
  const dir = path.join(gitdir, 'objects', 'pack');
  let names: string[];
  try {
    names = await fsp.readdir(dir);
  } catch {
    return;
  }
  const set = new Set(names);
  for (const n of names) {
    if ((n.endsWith('.pack') && !set.has(n.replace(/\.pack$/, '.idx'))) || n.includes('.tmp-')) {
      await fsp.rm(path.join(dir, n), { force: true });
    }
  }
}

/** The depth of the first fetch: none for an incremental one, else the wanted depth (0: the whole history). */
async function firstDepth(options: FetchRefOptions): Promise<number | null> {
  const { cache, ref } = options;
  const wanted = options.depth ?? 1;
  const alreadyShallow = (await readShallow(cache)).size > 0;
  // Incremental fetch: the cache holds the base commit and the tracking ref's commit (sent as "have"). No
  // deepen then: with a depth, upload-pack sends the whole tree again; without, only the new objects.
  const trackingHead = await git.resolveRef({ fs: atomicFs, gitdir: cache.gitdir, ref: `refs/remotes/origin/${branchName(ref)}` }).catch(() => null);
  const incremental =
    options.depth === undefined &&
    options.baseCommit !== undefined &&
    trackingHead !== null &&
    (await hasObject(cache, trackingHead)) &&
    (await hasObject(cache, options.baseCommit));
  return incremental ? null : wanted > 0 ? wanted : alreadyShallow ? FULL_DEPTH : null;
}

/** Deepen a shallow cache (16, 64, … commits, then the whole history) until it holds `baseCommit`; whether it does. */
async function deepenUntilFound(
  cache: RepoCache,
  baseCommit: string,
  runFetch: (depth: number | null, relative: boolean) => Promise<string>,
  report: (p: GitProgress) => void,
): Promise<boolean> {
  let found = await hasObject(cache, baseCommit);
  let step = 16;
  while (!found && (await isShallow(cache))) {
    report({ phase: 'Deepening', loaded: step, total: 0 });
    await runFetch(step >= 4096 ? FULL_DEPTH : step, step < 4096);
    found = await hasObject(cache, baseCommit);
    step *= 4;
  }
  return found;
}

export async function fetchRef(options: FetchRefOptions): Promise<FetchRefResult> {
  const { cache, ref, signal } = options;
  const remote = resolveRemote(options.url, options.auth);
  const operation = `fetch of ${ref}`;
  if (signal?.aborted) throw new GitCancelledError(operation);
  const report = guardedReporter(options);

  return withCacheLock(cache, async () => {
    // A fetch before this one that failed or died mid-round (shallow-journal.ts).
    await removeOrphanPacks(cache.gitdir);
    await repairShallow(cache);
    const handlers = authHandlers(remote.auth);
    const { runFetch, remoteLines } = fetchRounds(options, remote.url, handlers, report);
    try {
      report({ phase: 'Connecting', loaded: 0, total: 0 });
      const commit = await runFetch(await firstDepth(options), false);
      if (!(await hasObject(cache, commit))) throw new GitObjectNotFoundError('fetched commit', commit);

      const baseCommitFound = options.baseCommit === undefined ? undefined : await deepenUntilFound(cache, options.baseCommit, runFetch, report);
      const shallow = await isShallow(cache);
      report({ phase: 'Done', loaded: 1, total: 1 });
      return baseCommitFound === undefined ? { commit, shallow } : { commit, shallow, baseCommitFound };
    } catch (caught) {
      // isomorphic-git hands the messages over without awaiting them: let the last ones arrive before reading them.
      await new Promise((resolve) => setImmediate(resolve));
      const cancelled = caught instanceof GitCancelledError || signal?.aborted;
      const err = (cancelled ? null : classifyRemoteMessages(remote.url, ref, remoteLines, handlers.secrets)) ?? caught;
      // Half-written packs go; the shallow list keeps every commit held without its parents (shallow-journal.ts).
      await removeOrphanPacks(cache.gitdir);
      await repairShallow(cache);
      throw toGitError(err, { url: remote.url, ref, operation, ...(signal ? { signal } : {}), authRejected: handlers.rejected, secrets: handlers.secrets });
    }
  });
}

/** The caller's progress listener, silent once cancelled: a failing listener must not break the fetch. */
function guardedReporter(options: FetchRefOptions): (p: GitProgress) => void {
  const { signal } = options;
  return (p) => {
    if (signal?.aborted) return;
    try {
      options.onProgress?.(p);
    } catch {
      /* a failing progress listener must not break the fetch */
    }
  };
}

/**
 * One `git fetch` of the ref into the cache per call of `runFetch` (a depth, or null for no limit; `relative`:
 * deepen by it), through the guarded HTTP client; `remoteLines` keeps the remote's last sideband messages.
 */
function fetchRounds(
  options: FetchRefOptions,
  url: string,
  handlers: ReturnType<typeof authHandlers>,
  report: (p: GitProgress) => void,
): { runFetch: (depth: number | null, relative: boolean) => Promise<string>; remoteLines: string[] } {
  const { cache, ref, signal } = options;
  const operation = `fetch of ${ref}`;
  const http = createHttpClient({
    ...(signal ? { signal } : {}),
    ...(options.policy ? { policy: options.policy } : {}),
    ...(options.advertisements ? { advertisements: options.advertisements } : {}),
  });

  const onProgress = async (p: { phase: string; loaded: number; total: number }): Promise<void> => {
    // isomorphic-git awaits only the indexing callbacks: only there may we throw.
    if (signal?.aborted && INDEXING_PHASES.has(p.phase)) throw new GitCancelledError(operation);
    report({ phase: p.phase, loaded: p.loaded, total: p.total ?? 0 });
  };

  // The remote's sideband messages (progress and errors): when its pack-objects dies, they are all that tells why.
  const remoteLines: string[] = [];
  const onMessage = (line: string): void => {
    remoteLines.push(line.slice(0, 500));
    if (remoteLines.length > 40) remoteLines.shift();
  };

  const runFetch = async (depth: number | null, relative: boolean): Promise<string> => {
    if (signal?.aborted) throw new GitCancelledError(operation);
    await beginFetchRound(cache);
    const res = await git.fetch({
      fs: atomicFs,
      http,
      gitdir: cache.gitdir,
      cache: cache.objectCache,
      url,
      // isomorphic-git sends the oid of the local ref `ref` as its only "have": name the remote-tracking ref it
      // writes (a bare `main` resolves to nothing in this cache), so an incremental fetch gets only new objects.
      ref: `refs/remotes/origin/${branchName(ref)}`,
      remoteRef: ref,
      singleBranch: true,
      tags: false,
      ...(depth === null ? {} : { depth }),
      relative,
      onAuth: handlers.onAuth,
      onAuthFailure: handlers.onAuthFailure,
      onProgress,
      onMessage,
    });
    await endFetchRound(cache);
    if (signal?.aborted) throw new GitCancelledError(operation);
    if (!res.fetchHead) throw new GitRefNotFoundError(url, ref); // empty repository
    return res.fetchHead;
  };
  return { runFetch, remoteLines };
}
