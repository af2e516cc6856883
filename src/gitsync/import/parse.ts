import { importTree, NoContentError } from '../../format/index.js';
import { isWithin } from '../../format/index.js';
import { exportedPathsForImport } from '../exported-paths.js';
import type { ParsedImport, TreeImport } from './context.js';

/**
 * The converter reads the tree: only the pages whose blobs changed since the previous revision are parsed, in the
 * parse pool behind the organization's parse cache. A tree without a single page is refused.
 */
export async function parseCommitTree(run: TreeImport): Promise<ParsedImport> {
  const { ctx, request, space, sync, tree, counted, previous } = run;
  const { config } = ctx;
  const projectDir = request.projectDirectory;
  // Parsed in the pool as the organization's work (served fairly beside others'), within the import's parse budget
  // (pages it leaves unparsed are kept as raw bytes with FORMAT_PARSE_BUDGET_EXHAUSTED); a cancelled attempt's
  // pages leave the pool. Heartbeats go on while pages parse (a page may take the whole per-page budget).
  const codec = ctx.cachedPageCodec(space.organizationId, ctx.parseTask(space.organizationId, 'git import', run.progress.signal));
  // The files the last export wrote for pages whose records do not say so (new, moved pages): the same pages.
  const exportedPaths = exportedPathsForImport(sync, request.url);
  const stopKeepAlive = run.progress.keepAlive();
  const imported = await importTree(counted, {
    projectDirectory: projectDir,
    ...(previous ? { previous: { revision: previous.model, ...(exportedPaths ? { exportedPaths } : {}) } } : {}),
    limits: { maxPages: config.gitMaxPages },
    codec,
    onPageLoaded: (pagesLoaded, pagesToLoad) => run.progress.update({ phase: 'parsing', pagesLoaded, pagesToLoad }),
  }).finally(stopKeepAlive);
  // The parse cache's writes of the pages parsed go on while the revision is stored (they never fail the import).
  const parseCacheWritten = codec.flush();
  run.timings.lap('parse');
  // A tree without a single page would replace the space's content with nothing: refused, the space keeps it.
  if (imported.stats.pages === 0)
    throw new NoContentError(imported.revision.config.root, [...tree.keys()].filter((p) => isWithin(p, imported.revision.config.root)).length);
  return { ...run, codec, imported, parseCacheWritten };
}
