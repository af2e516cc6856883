import { ApplicationFailure } from '@temporalio/activity';
import { fetchPolicyFromConfig } from '../src/net/policy.js';
import type { PendingWebhookDelivery, WebhookDeliveryResult } from '../src/temporal/contract/index.js';
import { fieldSealer, type FieldSealer } from '../src/vault/index.js';
import { attemptDelivery } from '../src/webhooks/deliver.js';
import type { ActivityDeps } from './deps.js';

/** The activities of webhook delivery (workflows/webhooks.ts); the work is src/webhooks/. */
export function createWebhookActivities(deps: ActivityDeps) {
  const policy = fetchPolicyFromConfig(deps.config);
  let sealer: FieldSealer | undefined;
  const sealerOf = () => (sealer ??= fieldSealer({ dataDir: deps.config.dataDir, secret: deps.config.vaultKey }));
  return {
    /** The installation's state and its next pending deliveries (oldest event first): ids and types only. */
    async listWebhookDeliveries(input: {
      installationId: string;
      limit: number;
    }): Promise<{ state: 'active' | 'paused' | 'gone'; pending: PendingWebhookDelivery[] }> {
      const installation = await deps.store.integrations.installation(input.installationId);
      if (!installation) return { state: 'gone', pending: [] };
      if (installation.status !== 'active') return { state: 'paused', pending: [] };
      const pending = await deps.store.integrations.pendingDeliveries(input.installationId, input.limit);
      return {
        state: 'active',
        pending: pending.map((d) => ({ deliveryId: d.id, eventId: d.event.id, eventType: d.event.type, spaceId: d.event.spaceId })),
      };
    },

    /**
     * One attempt (idempotent: a delivery already ended sends nothing). A refused or failed attempt throws a
     * retryable failure (the workflow's retry policy is the backoff); the trace has each attempt.
     */
    async deliverWebhook(input: { deliveryId: string }): Promise<WebhookDeliveryResult> {
      const result = await attemptDelivery({ store: deps.store, sealer: sealerOf(), policy }, input.deliveryId);
      switch (result.outcome) {
        case 'delivered':
          return { status: 'success' };
        case 'finished':
          return { status: 'finished' };
        case 'undeliverable':
          return { status: 'failed', reason: result.reason };
        case 'retry':
          deps.logger.info({ deliveryId: input.deliveryId, reason: result.reason }, 'webhook not accepted; retrying');
          throw ApplicationFailure.retryable(result.reason, 'WEBHOOK_NOT_ACCEPTED');
      }
    },

    /** Ends a delivery as failed once its retries are exhausted (idempotent). */
    async failWebhookDelivery(input: { deliveryId: string; reason: string }): Promise<void> {
      await deps.store.integrations.finishDelivery(input.deliveryId, 'failed', { level: 'error', message: input.reason });
    },
  };
}
