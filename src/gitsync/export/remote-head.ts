/**
 * What the branch's head says before anything is built: an export of this revision the space's state does not
 * record (unrecorded-export recovery), a retry after a push that went through, or this very revision already there
 * (loop protection).
 */
import { getTrailer, readCommit } from '../../git/index.js';
import type { GitOperationResult } from '../../temporal/contract/index.js';
import { exportedPathsAt } from '../exported-paths.js';
import { FOLIO_REQUEST_TRAILER, FOLIO_REVISION_TRAILER } from '../trailers.js';
import { markExported, type FetchedExport } from './context.js';
import { holds } from './fetch.js';

/**
 * The answer when the branch's head already is this export; else undefined, with `run.unrecorded` set (and the
 * export's base moved to its parent) for an export of this revision the space's state does not record: an attempt
 * pushed it and was lost before recording it (this request, retried, or an earlier one). It is built again from its
 * parent, only to record the paths it wrote: the next export finds the files of its new and moved pages by them.
 */
export async function checkRemoteHead(run: FetchedExport): Promise<GitOperationResult | undefined> {
  const { request, cache, remoteHead, sync, revisionId, synced, syncedRevisionId } = run;
  if (!remoteHead) return undefined;
  const head = await readCommit(cache, remoteHead);
  const byThisRequest = getTrailer(head.message, FOLIO_REQUEST_TRAILER) === request.requestId;
  const ofThisRevision = getTrailer(head.message, FOLIO_REVISION_TRAILER) === revisionId;
  const recorded = sync.lastExport?.commit === remoteHead && sync.lastExport.url === request.url;
  const parent = head.parents[0] ?? null;
  if ((byThisRequest || ofThisRevision) && !recorded && (parent === null || (await holds(run, parent)))) {
    run.unrecorded = { commit: remoteHead, tree: head.tree, byThisRequest };
    run.baseHead = parent;
  } else if (byThisRequest) {
    // A retry after a push that went through: the remote head is this very export.
    await markExported(run, remoteHead, exportedPathsAt(sync, request.url, remoteHead));
    return {
      requestId: request.requestId,
      direction: 'export',
      outcome: 'applied',
      commit: remoteHead,
      revisionId,
      detail: `pushed ${remoteHead.slice(0, 12)}`,
    };
  } else if ((synced === remoteHead && syncedRevisionId === revisionId) || ofThisRevision) {
    // Loop protection: this very revision came from (or was exported as) the remote head. (A revision edited
    // in Folio since the last sync has a different id: it is exported.)
    await markExported(run, remoteHead, exportedPathsAt(sync, request.url, remoteHead));
    return {
      requestId: request.requestId,
      direction: 'export',
      outcome: 'noop',
      commit: remoteHead,
      revisionId,
      detail: `the branch already holds this revision (${remoteHead.slice(0, 12)})`,
    };
  }
  return undefined;
}
