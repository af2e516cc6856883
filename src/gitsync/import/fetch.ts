import { fetchRef, getTrailer, readCommit } from '../../git/index.js';
import { FOLIO_REVISION_TRAILER } from '../trailers.js';
import type { FetchedImport, ImportContext } from './context.js';

/** Fetches the ref (shallow, single branch, bare cache, no checkout) into the space's cache and reads its commit. */
export async function fetchCommit(run: ImportContext): Promise<FetchedImport> {
  const { ctx, request, progress, space, primary, creds, advertisements } = run;
  const cache = await ctx.openSpaceCache(space, request);
  run.timings.lap('cache');
  const baseCommit = primary?.git?.oid && primary.git.url === request.url ? primary.git.oid : undefined;
  const fetched = await fetchRef({
    advertisements,
    policy: ctx.fetchPolicy,
    cache,
    url: request.url,
    ref: request.ref,
    ...(creds ? { auth: creds } : {}),
    ...(baseCommit ? { baseCommit } : {}),
    onProgress: (p) => progress.update({ phase: p.phase, loaded: p.loaded, total: p.total }),
    ...(progress.signal ? { signal: progress.signal } : {}),
  });
  const head = fetched.commit;
  run.timings.lap('fetch');
  const info = await readCommit(cache, head);
  return { ...run, cache, head, info, trailerRevision: getTrailer(info.message, FOLIO_REVISION_TRAILER) };
}
