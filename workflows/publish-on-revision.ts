import { getExternalWorkflowHandle, ParentClosePolicy, proxyActivities, startChild } from '@temporalio/workflow';
import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import type { Activities } from '../activities/index.js';
import {
  publishSignals,
  publishWorkflowId,
  searchAttributes,
  workflowTypes,
  type PublishSiteWorkflow,
  type PublishTrigger,
} from '../src/temporal/contract/index.js';

const { sitesPublishingOnNewRevision } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds', maximumAttempts: 20 },
});

/**
 * Publish on a new primary revision: asks every published site of the space that has `publishOnNewRevision` for
 * a publish run, as a request through the API does (`site/<siteId>/publish`, started if it is not running, else
 * signalled: requests during a run are coalesced into one more run). The run outlives the caller.
 */
export async function requestPublishOnNewRevision(input: { spaceId: string; revisionId: string }): Promise<number> {
  const sites = await sitesPublishingOnNewRevision({ spaceId: input.spaceId });
  const trigger: PublishTrigger = { kind: 'new-revision', spaceId: input.spaceId, revisionId: input.revisionId };
  for (const site of sites) {
    const workflowId = publishWorkflowId(site.id);
    for (let attempt = 0; attempt < 3; attempt++) {
      try {
        await startChild<PublishSiteWorkflow>(workflowTypes.publishSite, {
          workflowId,
          args: [{ organizationId: site.organizationId, siteId: site.id, trigger }],
          parentClosePolicy: ParentClosePolicy.ABANDON,
          typedSearchAttributes: searchAttributes({ organizationId: site.organizationId, operation: 'site-publish' }),
          staticSummary: `Publish site ${site.id} on revision ${input.revisionId} of space ${input.spaceId}`,
        });
        break;
      } catch (err) {
        if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
      }
      // Running: a request signal (it may close meanwhile: then start it again).
      const signalled = await getExternalWorkflowHandle(workflowId)
        .signal(publishSignals.request, trigger)
        .then(() => true)
        .catch(() => false);
      if (signalled) break;
    }
  }
  return sites.length;
}
