import { GitFileTooLargeError, readTree, type SourceTree } from '../../git/index.js';
import { isWithin } from '../../format/index.js';
import type { FetchedImport, TreeImport } from './context.js';

/**
 * The commit's tree (from the cache) and the previous revision's records (from the store), read at the same time; the
 * records without their page bodies: a reused page keeps its stored body by hash. A file of the project directory
 * over the size limit fails the import; every file read is counted in the progress.
 */
export async function readCommitTree(run: FetchedImport): Promise<TreeImport> {
  const { ctx, request, progress, cache, head, primary, scope, timings } = run;
  const { config } = ctx;
  progress.update({ phase: 'reading tree' });
  const [tree, previous] = await Promise.all([
    timings.timed('tree.read', readTree(cache, head, { maxFileBytes: config.gitMaxFileBytes })),
    primary ? timings.timed('tree.previous', ctx.previousRevisions.load(scope, primary.id)) : Promise.resolve(null),
  ]);
  const projectDir = request.projectDirectory;
  for (const [p, entry] of tree) {
    if (isWithin(p, projectDir) && entry.size !== undefined && entry.size > config.gitMaxFileBytes)
      throw new GitFileTooLargeError(p, entry.size, config.gitMaxFileBytes);
  }
  timings.lap('tree');
  const reads = { filesRead: 0 };
  const counted: SourceTree = new Map();
  for (const [p, entry] of tree) {
    counted.set(p, {
      oid: entry.oid,
      ...(entry.mode ? { mode: entry.mode } : {}),
      ...(entry.size !== undefined ? { size: entry.size } : {}),
      read: async () => {
        const bytes = await entry.read();
        reads.filesRead++;
        progress.update({ phase: 'parsing', filesRead: reads.filesRead });
        return bytes;
      },
    });
  }
  return { ...run, tree, counted, reads, previous };
}
