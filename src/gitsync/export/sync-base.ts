import type { GitSyncState, RevisionRecord } from '../../store/index.js';

type Mark = { timestamp: string; commit: string; revisionId?: string; url?: string };

/**
 * The sync base of an export of `revisionId` to `url`: the commit of this repository the space was last in sync with,
 * and the revision it corresponds to. The last export of this very revision, else the commit the revision was
 * imported from, else the latest import or export mark of this repository.
 */
export function syncBase(
  sync: Pick<GitSyncState, 'lastImport' | 'lastExport'>,
  revision: Pick<RevisionRecord, 'git'> | null,
  revisionId: string,
  url: string,
): { synced: string | undefined; syncedRevisionId: string | undefined } {
  const marks = [sync.lastImport, sync.lastExport].filter((m): m is Mark => !!m && (m as Mark).url === url && !!m.commit);
  marks.sort((a, b) => Date.parse(b.timestamp) - Date.parse(a.timestamp));
  if (sync.lastExport?.revisionId === revisionId && (sync.lastExport as Mark).url === url) {
    return { synced: sync.lastExport.commit, syncedRevisionId: revisionId };
  } else if (revision?.git?.oid && revision.git.url === url) {
    return { synced: revision.git.oid, syncedRevisionId: revisionId };
  } else if (marks[0]) {
    return { synced: marks[0].commit, syncedRevisionId: marks[0].revisionId };
  }
  return { synced: undefined, syncedRevisionId: undefined };
}
