import { patched, proxyActivities, setCurrentDetails, upsertMemo } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import type { SearchIndexInput, SearchIndexResult } from '../src/temporal/contract/index.js';
import { requestPublishOnNewRevision } from './publish-on-revision.js';

const { searchIndexSpace } = proxyActivities<Activities>({
  startToCloseTimeout: '30 minutes',
  heartbeatTimeout: '60 seconds',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '1 minute', maximumAttempts: 10 },
});

/**
 * `space/<spaceId>/search-index/<revisionId>`: brings the space's search index to its primary revision. Started
 * after every change of the primary revision (git import, change-request merge); idempotent, incremental. It also
 * asks the sites that publish on a new revision of the space for a publish run (./publish-on-revision.ts).
 */
export async function searchIndexWorkflow(input: SearchIndexInput): Promise<SearchIndexResult> {
  if (patched('publish-on-new-revision')) await requestPublishOnNewRevision(input);
  setCurrentDetails(`**indexing** revision ${input.revisionId}`);
  const result = await searchIndexSpace(input);
  upsertMemo({ outcome: result.outcome, pages: result.pages, reindexed: result.reindexed });
  setCurrentDetails(
    `**${result.outcome}**: ${result.pages} pages, ${result.reindexed} (re)indexed, ${result.removed} removed, ${result.titleOnly} by title only`,
  );
  return result;
}
