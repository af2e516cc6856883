import {
  ActivityFailure,
  allHandlersFinished,
  ApplicationFailure,
  condition,
  continueAsNew,
  defineSignal,
  executeChild,
  isCancellation,
  log,
  ParentClosePolicy,
  proxyActivities,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import {
  DEFAULT_WEBHOOK_RETRY,
  searchAttributes,
  subscriberOf,
  webhookSignals,
  webhookWorkflowIds,
  workflowTypes,
  type PendingWebhookDelivery,
  type WebhookDeliveryInput,
  type WebhookDeliveryResult,
  type WebhookRetryPolicy,
  type WebhookSubscriberInput,
} from '../src/temporal/contract/index.js';

const { listWebhookDeliveries, failWebhookDelivery } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', maximumInterval: '1 minute' },
});

const nudgeSignal = defineSignal<[]>(webhookSignals.nudge);

/** How many pending deliveries one listing returns. */
const BATCH = 50;

/**
 * `integration/<name>/installation/<id>`: delivers the installation's pending events one at a time, oldest first
 * (so in order per space), each as a child workflow; waits for new ones (`pollMs`, or a nudge); ends when the
 * installation is gone; continues as new when the history grows.
 */
export async function webhookSubscriberWorkflow(input: WebhookSubscriberInput): Promise<void> {
  if (!input?.installationId || !input.integrationName || !input.organizationId)
    throw ApplicationFailure.nonRetryable('organizationId, integrationName and installationId are required', 'BAD_INPUT');
  let nudged = false;
  setHandler(nudgeSignal, () => {
    nudged = true;
  });
  const retry = input.retry ?? DEFAULT_WEBHOOK_RETRY;
  let delivered = input.delivered ?? 0;
  for (;;) {
    nudged = false;
    const batch = await listWebhookDeliveries({ installationId: input.installationId, limit: BATCH });
    if (batch.state === 'gone') return;
    let stalled = false;
    for (const pending of batch.pending) {
      if (!(await deliverOne(input, pending, retry))) {
        stalled = true;
        break;
      }
      delivered++;
    }
    if (workflowInfo().continueAsNewSuggested) {
      await condition(allHandlersFinished);
      await continueAsNew<typeof webhookSubscriberWorkflow>({ ...input, delivered });
    }
    if (stalled || batch.pending.length < BATCH) await condition(() => nudged, input.pollMs ?? 2_000);
  }
}

/**
 * Runs one delivery's child workflow; false when it could not run (its id taken by a run still open, a child that
 * failed instead of ending the delivery): the delivery stays pending and the next listing finds it again.
 */
async function deliverOne(input: WebhookSubscriberInput, pending: PendingWebhookDelivery, retry: WebhookRetryPolicy): Promise<boolean> {
  try {
    await executeChild<(i: WebhookDeliveryInput) => Promise<WebhookDeliveryResult>>(workflowTypes.webhookDelivery, {
      workflowId: webhookWorkflowIds.delivery(input.integrationName, input.installationId, pending.eventId),
      args: [{ ...pending, organizationId: input.organizationId, integrationName: input.integrationName, installationId: input.installationId, retry }],
      parentClosePolicy: ParentClosePolicy.REQUEST_CANCEL,
      typedSearchAttributes: searchAttributes({
        organizationId: input.organizationId,
        operation: 'webhook-delivery',
        ...(pending.spaceId ? { spaceId: pending.spaceId } : {}),
        subscriber: subscriberOf(input.integrationName, input.installationId),
        eventType: pending.eventType,
      }),
      memo: { eventId: pending.eventId, eventType: pending.eventType, integration: input.integrationName, installationId: input.installationId },
      staticSummary: `${pending.eventType} ${pending.eventId} to ${input.integrationName} (installation ${input.installationId})`,
    });
    return true;
  } catch (err) {
    if (isCancellation(err)) throw err;
    log.warn('webhook delivery did not run', { eventId: pending.eventId, error: err instanceof Error ? err.message : String(err) });
    return false;
  }
}

/**
 * `integration/<name>/installation/<id>/event/<eventId>`: one delivery, retried with exponential backoff (the
 * activity's retry policy) until accepted or `retry.giveUpMs` passed; then the delivery is failed in the store.
 */
export async function webhookDeliveryWorkflow(input: WebhookDeliveryInput): Promise<WebhookDeliveryResult> {
  const { deliverWebhook } = proxyActivities<Activities>({
    startToCloseTimeout: '1 minute',
    scheduleToCloseTimeout: input.retry.giveUpMs,
    retry: { initialInterval: input.retry.initialMs, backoffCoefficient: 2, maximumInterval: input.retry.maxIntervalMs },
  });
  try {
    const result = await deliverWebhook({ deliveryId: input.deliveryId });
    // `failed`: not deliverable at all (no webhook address); the activity ended the delivery with its reason.
    return result;
  } catch (err) {
    if (!(err instanceof ActivityFailure)) throw err;
    const reason = `given up after ${Math.round(input.retry.giveUpMs / 1000)} s of retries: ${err.cause?.message ?? err.message}`;
    await failWebhookDelivery({ deliveryId: input.deliveryId, reason });
    return { status: 'failed', reason };
  }
}
