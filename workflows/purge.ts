import { ApplicationFailure, condition, log, proxyActivities, setHandler } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import type { PurgeSpaceInput, PurgeSpaceResult } from '../src/temporal/contract/index.js';
import { purgeDeletionQuery, restoreSpaceSignal } from './purge-definitions.js';

const { purgeSpaceContent } = proxyActivities<Activities>({
  startToCloseTimeout: '10 minutes',
  heartbeatTimeout: '1 minute',
  retry: { initialInterval: '5 seconds', maximumInterval: '5 minutes', maximumAttempts: 20 },
});

/**
 * `space/<id>/purge`: waits for the restore window; a restore signal for this deletion ends it; otherwise the
 * space is removed for good (its git queue workflow, revisions, pages, files, change requests, unshared blobs,
 * git caches). The activity re-checks the deletion, so a stale run never removes a live space.
 */
export async function purgeSpaceWorkflow(input: PurgeSpaceInput): Promise<PurgeSpaceResult> {
  if (!input?.spaceId || !input.deletionId) throw ApplicationFailure.nonRetryable('spaceId and deletionId are required', 'BAD_INPUT');
  if (!Number.isFinite(input.purgeAfterMs) || input.purgeAfterMs < 0) {
    throw ApplicationFailure.nonRetryable(`purgeAfterMs must be a non-negative number, got ${input.purgeAfterMs}`, 'BAD_INPUT');
  }
  let restored = false;
  setHandler(restoreSpaceSignal, ({ deletionId }) => {
    if (deletionId === input.deletionId) restored = true;
  });
  setHandler(purgeDeletionQuery, () => input.deletionId);

  if (await condition(() => restored, input.purgeAfterMs)) {
    log.info('space restored before its purge', { spaceId: input.spaceId });
    return { outcome: 'restored' };
  }
  const result = await purgeSpaceContent({ spaceId: input.spaceId, deletionId: input.deletionId });
  if (result.purged) {
    return { outcome: 'purged', revisions: result.revisions, blobsDeleted: result.blobsDeleted };
  }
  return { outcome: 'skipped', reason: result.reason };
}
