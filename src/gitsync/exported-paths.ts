/**
 * The files an export wrote for pages whose records do not say where they are: a page created in Folio has no git
 * path, and a page moved in Folio keeps the git path it left (an export writes no revision). The export records
 * them with its mark (`lastExport.exportedPaths`: page id → path), for its commit. From there the next export knows
 * them as the space's files (not unmanaged ones to be kept clear of) and leaves a page whose URL path did not change
 * in its file; an import maps them to the same pages.
 */
import { documents, type RevisionModel } from '../format/index.js';
import type { GitSyncState } from '../store/index.js';

/** Page id → the path of the page's file in the exported commit. */
export type ExportedPaths = Record<string, string>;

/**
 * The pages `output` (an export's resulting revision) has in a file `input` (the revision exported) does not give
 * them: the new and moved pages, and those an earlier export had written (their records still do not say).
 */
export function writtenPaths(input: RevisionModel, output: RevisionModel): ExportedPaths {
  const before = new Map<string, string | undefined>();
  for (const p of documents(input.pages)) before.set(p.id, p.git?.path);
  const out: ExportedPaths = {};
  for (const p of documents(output.pages)) if (p.git && p.git.path !== before.get(p.id)) out[p.id] = p.git.path;
  return out;
}

const asMap = (paths: ExportedPaths | undefined) => (paths && Object.keys(paths).length > 0 ? new Map(Object.entries(paths)) : undefined);

/** The paths the export of `commit` (from `url`) recorded, when it is the last export. */
export function exportedPathsAt(sync: Pick<GitSyncState, 'lastExport'>, url: string, commit: string | undefined): ExportedPaths | undefined {
  const mark = sync.lastExport;
  return commit !== undefined && mark?.url === url && mark.commit === commit ? mark.exportedPaths : undefined;
}

/** For an export whose sync base is `commit`: the paths its export recorded, as a map (none when there are none). */
export function exportedPathsOfBase(sync: Pick<GitSyncState, 'lastExport'>, url: string, commit: string | undefined): Map<string, string> | undefined {
  return asMap(exportedPathsAt(sync, url, commit));
}

/**
 * For an import from `url`: the paths the last export to it recorded, unless an import of another commit came after
 * that export (its revision's records say where the pages are).
 */
export function exportedPathsForImport(sync: Pick<GitSyncState, 'lastImport' | 'lastExport'>, url: string): Map<string, string> | undefined {
  const { lastImport, lastExport } = sync;
  if (!lastExport || lastExport.url !== url) return undefined;
  if (lastImport && lastImport.commit !== lastExport.commit && Date.parse(lastImport.timestamp) > Date.parse(lastExport.timestamp)) return undefined;
  return asMap(lastExport.exportedPaths);
}
