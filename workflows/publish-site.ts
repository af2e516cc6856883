import { ApplicationFailure, condition, defineQuery, defineSignal, proxyActivities, setHandler } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import { publishQueries, publishSignals, type PublishSiteInput, type PublishSiteResult, type PublishSiteRunResult } from '../src/temporal/contract/index.js';

const { publishSiteActivity } = proxyActivities<Activities>({
  startToCloseTimeout: '30 minutes',
  heartbeatTimeout: '1 minute',
  retry: { initialInterval: '5 seconds', maximumInterval: '1 minute', maximumAttempts: 10, nonRetryableErrorTypes: ['NOT_FOUND'] },
});

const requestSignal = defineSignal<[]>(publishSignals.request);
const lastQuery = defineQuery<PublishSiteRunResult | null>(publishQueries.last);

/**
 * `site/<siteId>/publish`: publishes the site, then again as long as requests came in meanwhile (coalesced:
 * ten requests during a run make one more run). One such workflow per site runs at a time.
 */
export async function publishSiteWorkflow(input: PublishSiteInput): Promise<PublishSiteResult> {
  if (!input?.siteId || !input.organizationId) throw ApplicationFailure.nonRetryable('siteId and organizationId are required', 'BAD_INPUT');
  let pending = true;
  let runs = 0;
  let last: PublishSiteRunResult | null = null;
  setHandler(requestSignal, () => {
    pending = true;
  });
  setHandler(lastQuery, () => last);
  while (pending) {
    pending = false;
    runs++;
    last = await publishSiteActivity({ organizationId: input.organizationId, siteId: input.siteId, run: runs });
    // Let signals delivered with this activity's completion land before deciding to stop.
    await condition(() => pending, 1);
  }
  return { runs, last };
}
