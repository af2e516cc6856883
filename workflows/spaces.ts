import { proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import type { CreateSpaceInput, CreateSpaceResult } from '../src/temporal/contract/index.js';

const { createSpace } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds', maximumAttempts: 10 },
});

/**
 * Creates a space with its first (empty) revision. The space id is chosen by the caller and doubles as the
 * idempotency key, so a retried activity or a re-sent request never makes a second space.
 */
export async function createSpaceWorkflow(input: CreateSpaceInput): Promise<CreateSpaceResult> {
  return await createSpace(input);
}
