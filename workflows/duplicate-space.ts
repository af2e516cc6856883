import { executeChild, proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import { searchAttributes, workflowIds, type DuplicateSpaceInput, type DuplicateSpaceResult } from '../src/temporal/contract/index.js';
import { startSearchIndexChild } from './search-index-start.js';
import { createSpaceWorkflow } from './spaces.js';

const { spaceCopyContent } = proxyActivities<Activities>({
  startToCloseTimeout: '30 minutes',
  heartbeatTimeout: '30 seconds',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds', maximumAttempts: 10, nonRetryableErrorTypes: ['NOT_FOUND'] },
});

/**
 * `space/<sourceSpaceId>/duplicate/<spaceId>`: makes the new space (`space/<id>/create`, a child), copies the source's
 * revision into it as its primary content (one idempotent, heartbeating activity: records only, the blobs are shared)
 * and starts its search indexing (detached). Only ids travel through the history.
 */
export async function duplicateSpaceWorkflow(input: DuplicateSpaceInput): Promise<DuplicateSpaceResult> {
  const { space } = input;
  await executeChild(createSpaceWorkflow, {
    workflowId: workflowIds.createSpace(space.spaceId),
    args: [space],
    typedSearchAttributes: searchAttributes({ spaceId: space.spaceId, organizationId: input.organizationId, operation: 'create-space' }),
  });
  const { revisionId } = await spaceCopyContent({ sourceSpaceId: input.sourceSpaceId, sourceRevisionId: input.sourceRevisionId, spaceId: space.spaceId });
  await startSearchIndexChild({ spaceId: space.spaceId, organizationId: input.organizationId, revisionId });
  return { spaceId: space.spaceId, revisionId };
}
