import { ApplicationFailure, proxyActivities } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import type { ChangeRequestMergeInput, ChangeRequestMergeResult } from '../src/temporal/contract/index.js';
import { classifyFailure } from './failure.js';
import { startSearchIndexChild } from './search-index-start.js';

const { changeRequestStep } = proxyActivities<Activities>({
  startToCloseTimeout: '10 minutes',
  heartbeatTimeout: '30 seconds',
  retry: {
    initialInterval: '1 second',
    maximumInterval: '30 seconds',
    maximumAttempts: 10,
    nonRetryableErrorTypes: ['NOT_FOUND', 'VALIDATION', 'CONFLICT', 'PAGE_TOO_COMPLEX'],
  },
});

/** Builds tried against content that keeps moving before the run gives up with CONFLICT (5 merges at once on a space pass). */
const MAX_BUILDS = 12;

/**
 * `space/<spaceId>/change-request/<id>/<update|merge>`: the three-way merge of the primary content and a change
 * request (src/change-requests/run.ts) as one activity, built again when the primary content or the change request
 * moved between its read and its compare-and-set. A merge's new primary revision is indexed for search by a detached
 * child. Conflicts are a CONFLICT failure naming the pages and blocks; only ids travel through the history.
 */
export async function changeRequestMergeWorkflow(input: ChangeRequestMergeInput): Promise<ChangeRequestMergeResult> {
  if (!input?.spaceId || !input.changeRequestId || (input.operation !== 'update' && input.operation !== 'merge'))
    throw ApplicationFailure.nonRetryable('spaceId, changeRequestId and operation (update or merge) are required', 'BAD_INPUT');
  for (let attempts = 1; ; attempts++) {
    const step = await changeRequestStep(input).catch((err: unknown) => {
      // The activity's typed failure is the run's (the caller reads its type and details, not the activity wrapper).
      const failure = classifyFailure(err);
      if (failure.kind === 'application' && failure.type)
        throw ApplicationFailure.create({ type: failure.type, message: failure.message, details: failure.details ?? [], nonRetryable: true });
      throw err;
    });
    if (step.outcome === 'done') {
      if (input.operation === 'merge' && !step.alreadyDone)
        await startSearchIndexChild({ spaceId: input.spaceId, organizationId: input.organizationId, revisionId: step.revisionId });
      return { revisionId: step.revisionId, alreadyDone: step.alreadyDone, attempts };
    }
    if (attempts >= MAX_BUILDS)
      throw ApplicationFailure.nonRetryable(`the content of space ${input.spaceId} kept changing during the ${input.operation}; retry`, 'CONFLICT');
  }
}
