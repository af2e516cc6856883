import { Context, heartbeat } from '@temporalio/activity';
import { WorkflowNotFoundError } from '@temporalio/client';
import { workflowIds } from '../src/temporal/contract/index.js';
import { FolioError } from '../src/errors.js';
import { removeSpaceCaches } from '../src/git/index.js';
import type { ActivityDeps } from './deps.js';
import { gitCacheRoot } from '../src/gitsync/cache-root.js';

export type PurgeContentResult = { purged: true; revisions: number; blobsDeleted: number } | { purged: false; reason: string; revisions: 0; blobsDeleted: 0 };

export function createPurgeActivities({ store, config, logger }: ActivityDeps) {
  return {
    /**
     * Removes everything of a space still deleted by `deletionId` (one store transaction: revisions, pages,
     * files, change requests, git sync state, blobs no other space uses), then its git caches. Idempotent:
     * a space already gone, restored, or deleted again by another deletion is left as it is. Its git queue
     * workflow (`space/<id>/git`) is terminated first.
     */
    async purgeSpaceContent(input: { spaceId: string; deletionId: string }): Promise<PurgeContentResult> {
      const { spaceId, deletionId } = input;
      const space = await store.spaces.get(spaceId, { includeDeleted: true });
      if (!space) return { purged: false, reason: 'the space is already gone', revisions: 0, blobsDeleted: 0 };
      if (!space.deletedAt) return { purged: false, reason: 'the space was restored', revisions: 0, blobsDeleted: 0 };
      if (space.deletionId !== deletionId) return { purged: false, reason: 'the space was deleted again by another deletion', revisions: 0, blobsDeleted: 0 };
      heartbeat('stopping the git queue');
      await terminateGitQueue(spaceId);
      heartbeat('purging content');
      let result;
      try {
        result = await store.spaces.purge(spaceId, deletionId);
      } catch (err) {
        if (err instanceof FolioError && err.code === 'CONFLICT') {
          return { purged: false, reason: err.message, revisions: 0, blobsDeleted: 0 };
        }
        throw err;
      }
      heartbeat('removing git caches');
      // Every cache of the space, whatever its repoCacheID or remote: the space's whole cache directory.
      await removeSpaceCaches(gitCacheRoot(config), { organizationId: space.organizationId, spaceId });
      logger.info({ revisions: result.revisions, blobsDeleted: result.blobsDeleted }, 'space purged');
      if (!result.purged) return { purged: false, reason: 'the space is already gone', revisions: 0, blobsDeleted: 0 };
      return { purged: true, revisions: result.revisions, blobsDeleted: result.blobsDeleted };
    },
  };
}

/** Terminates `space/<id>/git` (and with it its running import/export children) if it runs. */
async function terminateGitQueue(spaceId: string): Promise<void> {
  try {
    await Context.current().client.workflow.getHandle(workflowIds.gitQueue(spaceId)).terminate('the space is being purged');
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) return;
    throw err;
  }
}
