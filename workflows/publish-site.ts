import { ApplicationFailure, condition, defineQuery, defineSignal, proxyActivities, setHandler } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import {
  publishQueries,
  publishSignals,
  type PublishSiteInput,
  type PublishSiteResult,
  type PublishSiteRunResult,
  type PublishTrigger,
} from '../src/temporal/contract/index.js';
import { classifyFailure } from './failure.js';

const { publishSiteActivity } = proxyActivities<Activities>({
  startToCloseTimeout: '30 minutes',
  heartbeatTimeout: '1 minute',
  retry: { initialInterval: '5 seconds', maximumInterval: '1 minute', maximumAttempts: 10, nonRetryableErrorTypes: ['NOT_FOUND'] },
});

const { publishSiteFailedActivity } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumInterval: '30 seconds', maximumAttempts: 20 },
});

const requestSignal = defineSignal<[PublishTrigger?]>(publishSignals.request);
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
  let trigger: PublishTrigger = input.trigger ?? { kind: 'request' };
  setHandler(requestSignal, (next?: PublishTrigger) => {
    // The first signal of signal-with-start is the start's own request: the input's trigger stays.
    if (pending && runs === 0) return;
    pending = true;
    trigger = next ?? { kind: 'request' };
  });
  setHandler(lastQuery, () => last);
  while (pending) {
    pending = false;
    runs++;
    const run = { organizationId: input.organizationId, siteId: input.siteId, run: runs, trigger };
    try {
      last = await publishSiteActivity(run);
    } catch (err) {
      // The failure is the site's publish state too (GET …/sites/{id}), then the run fails in Temporal.
      const failure = classifyFailure(err);
      const code = failure.kind === 'application' ? (failure.type ?? 'PUBLISH_FAILED') : failure.kind === 'timeout' ? 'PUBLISH_TIMEOUT' : 'PUBLISH_FAILED';
      const message = failure.kind === 'cancelled' ? 'the publish run was cancelled' : failure.kind === 'other' ? failure.causeMessage : failure.message;
      await publishSiteFailedActivity({ ...run, code, message });
      throw err;
    }
    // Let signals delivered with this activity's completion land before deciding to stop.
    await condition(() => pending, 1);
  }
  return { runs, last };
}
