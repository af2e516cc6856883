import { commit as writeCommit, push, readCommit, writeTree } from '../../git/index.js';
import type { GitOperationResult } from '../../temporal/contract/index.js';
import { exportAuthorship } from '../authorship.js';
import { folioTrailers } from '../trailers.js';
import { describeWarnings, reportWarnings } from '../warnings.js';
import { markExported, type BuiltExport, type Unrecorded } from './context.js';

/** An unrecorded export, built again: its paths are this build's when it gives the pushed tree; otherwise they are not known. */
export async function recordUnrecorded(run: BuiltExport, unrecorded: Unrecorded): Promise<GitOperationResult> {
  const { request, cache, baseHead, revisionId } = run;
  const same = (await writeTree(cache, baseHead, run.built.changes)) === unrecorded.tree;
  await markExported(run, unrecorded.commit, same ? run.exportedPaths : undefined);
  return {
    requestId: request.requestId,
    direction: 'export',
    outcome: unrecorded.byThisRequest ? 'applied' : 'noop',
    commit: unrecorded.commit,
    revisionId,
    detail: unrecorded.byThisRequest
      ? `pushed ${unrecorded.commit.slice(0, 12)}`
      : `the branch already holds this revision (${unrecorded.commit.slice(0, 12)})`,
  };
}

/**
 * Builds the new tree on top of the base, commits with Folio's trailers and pushes without force (creating the
 * branch when missing). A branch that moves during the push fails the attempt with the retryable NON_FAST_FORWARD:
 * the retry fetches again and re-checks conflicts, so no remote commit is ever lost.
 */
export async function commitAndPush(run: BuiltExport): Promise<GitOperationResult> {
  const { ctx, request, progress, cache, creds, remoteHead, baseHead, revisionId, exportedPaths, timings } = run;
  const { changes } = run.built;
  progress.update({ phase: 'writing', blobsWritten: [...changes.values()].filter((v) => v !== null).length });
  // Whether the export was cancelled: asked of the server now (heartbeat answers are throttled), answered while
  // the objects are written; awaited before the push, the point of no return.
  const notCancelled = progress.assertNotCancelled('export');
  notCancelled.catch(() => undefined);

  const [tree, authorship] = await Promise.all([
    writeTree(cache, baseHead, changes),
    exportAuthorship(ctx.store, run.revision ?? { id: revisionId, type: '' }, ctx.config.gitAuthor),
  ]);
  if (remoteHead && tree === (await readCommit(cache, remoteHead)).tree) {
    await markExported(run, remoteHead, exportedPaths);
    return { requestId: request.requestId, direction: 'export', outcome: 'noop', commit: remoteHead, revisionId, detail: 'no change to export' };
  }
  // A new branch whose content the default branch already holds starts at the default branch's head (no empty
  // commit); anything else is a new commit on the base.
  const unchangedBase = !remoteHead && baseHead !== null && tree === (await readCommit(cache, baseHead)).tree;
  const newCommit = unchangedBase
    ? baseHead!
    : await writeCommit(cache, {
        tree,
        parents: baseHead ? [baseHead] : [],
        message: request.commitMessage ?? 'Folio export',
        author: authorship.author,
        committer: authorship.committer,
        trailers: { ...folioTrailers(request.spaceId, revisionId, request.requestId), ...authorship.trailers },
      });
  timings.lap('write');
  progress.update({ phase: 'pushing' });
  await notCancelled;
  await push({
    policy: ctx.fetchPolicy,
    advertisements: run.advertisements,
    cache,
    url: request.url,
    ref: request.ref,
    commit: newCommit,
    ...(creds ? { auth: creds } : {}),
    ...(progress.signal ? { signal: progress.signal } : {}),
  });
  await markExported(run, newCommit, exportedPaths);
  timings.lap('push');
  return pushedResult(run, newCommit);
}

/** The answer of an export that pushed `newCommit`. */
function pushedResult(run: BuiltExport, newCommit: string): GitOperationResult {
  const { ctx, request, progress, revisionId, conflicts } = run;
  const { changes, warnings } = run.built;
  const serious = warnings.filter((w) => w.severity === 'error');
  for (const w of serious) ctx.logger.warn({ spaceId: request.spaceId, requestId: request.requestId, code: w.code, path: w.path, data: w.data }, w.message);
  const exportWarnings = warnings.length ? reportWarnings(warnings) : undefined;
  return {
    requestId: request.requestId,
    direction: 'export',
    outcome: 'applied',
    commit: newCommit,
    revisionId,
    filesChanged: changes.size,
    timingsMs: run.timings.timingsMs,
    // The final progress, for the workflow's query: returned, not signalled (activities/progress.ts).
    progress: { ...progress.current },
    detail: `pushed ${newCommit.slice(0, 12)} (${changes.size} changed path(s)${conflicts.length ? `, ${conflicts.length} conflict(s) overwritten by force` : ''})${exportWarnings ? `; ${describeWarnings(exportWarnings)}` : ''}`,
    ...(exportWarnings ? { warnings: exportWarnings } : {}),
  };
}
