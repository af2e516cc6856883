/**
 * The import's no-ops, by the space's sync marks: a retry of an attempt that stored the revision, a remote ref that
 * still points at the commit the space holds (checked before any heavy step), and loop protection once fetched.
 */
import type { GitOperationResult } from '../../temporal/contract/index.js';
import { noop, recordImport, type FetchedImport, type ImportContext } from './context.js';

/** A retry of an attempt that stored the revision and made it primary, then died before completing: done. */
export async function completedByRetry(run: ImportContext): Promise<GitOperationResult | undefined> {
  const { ctx, request, primary } = run;
  if (!(primary && primary.idempotencyKey === run.idempotencyKey && primary.git?.oid)) return undefined;
  await ctx.store.gitSync.update(request.spaceId, {
    lastImport: { timestamp: request.timestamp, commit: primary.git.oid, requestId: request.requestId, revisionId: primary.id, url: request.url },
  });
  return {
    requestId: request.requestId,
    direction: 'import',
    outcome: 'applied',
    commit: primary.git.oid,
    revisionId: primary.id,
    detail: `imported ${primary.git.oid.slice(0, 12)} (completed by a retry)`,
  };
}

/**
 * No-op before any heavy step: the remote ref (one request) still points at the commit the space holds from this
 * URL: its primary revision's, or the last import's when that import left the primary revision as it is.
 */
export async function remoteUnchanged(run: ImportContext): Promise<GitOperationResult | undefined> {
  const { request, primary, space, sync, remoteRef } = run;
  const held = [
    primary?.git?.url === request.url ? primary.git.oid : undefined,
    sync.lastImport?.url === request.url && space.revisionId && sync.lastImport.revisionId === space.revisionId ? sync.lastImport.commit : undefined,
  ].filter((c): c is string => typeof c === 'string');
  if (held.length > 0 && remoteRef) {
    const asked = await remoteRef;
    if ('error' in asked) throw asked.error;
    const remoteHead = asked.commit;
    if (remoteHead !== undefined && held.includes(remoteHead)) {
      await recordImport(run, remoteHead, space.revisionId ?? undefined);
      return noop(run, remoteHead);
    }
  }
  return undefined;
}

/** Loop protection: the space already holds this commit's content (imported from it, or exported as it). */
export async function alreadyHeld(run: FetchedImport): Promise<GitOperationResult | undefined> {
  const { primary, space, sync, head, trailerRevision } = run;
  const exportedAsHead = sync.lastExport?.commit === head && sync.lastExport.revisionId === space.revisionId;
  if (primary?.git?.oid === head || exportedAsHead || (trailerRevision !== undefined && trailerRevision === space.revisionId)) {
    await recordImport(run, head, space.revisionId ?? undefined);
    return noop(run, head);
  }
  return undefined;
}
