import { fetchRef, hasObject, GitRefNotFoundError } from '../../git/index.js';
import type { ExportContext, FetchedExport } from './context.js';

/**
 * The branch's head, and the commit the new commit goes on: the branch's head, or, for a branch that does not exist
 * yet, the head of the repository's default branch (the remote HEAD), so that the new branch keeps every other file
 * of the repository and only the space's files change. Only an empty repository gives a commit without parent.
 * When the cache holds the head receive-pack advertises (and the synced commit), nothing is fetched.
 */
export async function fetchBranch(run: ExportContext): Promise<FetchedExport> {
  const { request, cache, synced } = run;
  let remoteHead: string | null = null;
  let baseHead: string | null = null;
  let syncedFound = false;
  const fetchHead = async (ref: string) => {
    const fetched = await fetchFrom(run, ref);
    // fetchRef deepened the (possibly shallow or evicted) cache until it holds the synced commit, or the whole
    // remote history is there without it (the branch was rewritten).
    syncedFound = synced !== undefined && (fetched.baseCommitFound ?? (await hasObject(cache, synced)));
    return fetched.commit;
  };
  const pushHead = await run.pushHeadAsked;
  if (pushHead !== undefined && (await hasObject(cache, pushHead)) && (synced === undefined || (await hasObject(cache, synced)))) {
    // The cache holds the branch's head (and the synced commit): what a fetch would bring is there already.
    remoteHead = pushHead;
    baseHead = pushHead;
    syncedFound = synced !== undefined;
  } else {
    try {
      remoteHead = await fetchHead(request.ref);
      baseHead = remoteHead;
    } catch (err) {
      if (!(err instanceof GitRefNotFoundError)) throw err;
      try {
        baseHead = await fetchHead('HEAD');
      } catch (headErr) {
        if (!(headErr instanceof GitRefNotFoundError)) throw headErr;
      }
    }
  }
  run.timings.lap('fetch');
  return { ...run, remoteHead, baseHead, syncedFound };
}

/** Fetches `ref` into the cache, deepened until it holds the synced commit (when there is one). */
function fetchFrom(run: ExportContext, ref: string) {
  const { ctx, request, progress, cache, creds, synced } = run;
  return fetchRef({
    policy: ctx.fetchPolicy,
    cache,
    url: request.url,
    ref,
    ...(creds ? { auth: creds } : {}),
    ...(synced ? { baseCommit: synced } : {}),
    onProgress: (p) => progress.update({ phase: p.phase, loaded: p.loaded, total: p.total }),
    ...(progress.signal ? { signal: progress.signal } : {}),
  });
}

/** Whether the cache holds `commit` of the branch's history, deepened for it when needed. */
export async function holds(run: ExportContext, commit: string): Promise<boolean> {
  const { ctx, request, progress, cache, creds } = run;
  if (await hasObject(cache, commit)) return true;
  const fetched = await fetchRef({
    policy: ctx.fetchPolicy,
    cache,
    url: request.url,
    ref: request.ref,
    ...(creds ? { auth: creds } : {}),
    baseCommit: commit,
    ...(progress.signal ? { signal: progress.signal } : {}),
  });
  return fetched.baseCommitFound ?? (await hasObject(cache, commit));
}
