import { importTree, NoContentError } from '../../format/index.js';
import { isWithin } from '../../revision/is-within.js';
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
  const codec = ctx.cachedPageCodec(space.organizationId);
  // The files the last export wrote for pages whose records do not say so (new, moved pages): the same pages.
  const exportedPaths = exportedPathsForImport(sync, request.url);
  const imported = await importTree(counted, {
    projectDirectory: projectDir,
    ...(previous ? { previous: { revision: previous.model, ...(exportedPaths ? { exportedPaths } : {}) } } : {}),
    limits: { maxPages: config.gitMaxPages },
    codec,
  });
  // The parse cache's writes of the pages parsed go on while the revision is stored (they never fail the import).
  const parseCacheWritten = codec.flush();
  run.timings.lap('parse');
  // A tree without a single page would replace the space's content with nothing: refused, the space keeps it.
  if (imported.stats.pages === 0)
    throw new NoContentError(imported.revision.config.root, [...tree.keys()].filter((p) => isWithin(p, imported.revision.config.root)).length);
  return { ...run, codec, imported, parseCacheWritten };
}
