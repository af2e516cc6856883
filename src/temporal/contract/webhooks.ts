/**
 * Webhook delivery (issue 28): one long-lived subscriber workflow per installation,
 * `integration/<name>/installation/<installationId>`, delivers the installation's pending content events one at a
 * time in the order they were recorded (so in order per space), each as a child workflow
 * `integration/<name>/installation/<installationId>/event/<eventId>` that retries with backoff until delivered or
 * `giveUpMs` passed (then the delivery is failed, visible in the API). Ids only: the activities load events,
 * addresses and secrets from the store.
 */

/** Backoff of one delivery: the first retry after `initialMs`, doubling up to `maxIntervalMs`, given up after `giveUpMs`. */
export interface WebhookRetryPolicy {
  initialMs: number;
  maxIntervalMs: number;
  giveUpMs: number;
}

export const DEFAULT_WEBHOOK_RETRY: WebhookRetryPolicy = { initialMs: 5_000, maxIntervalMs: 15 * 60_000, giveUpMs: 24 * 3600_000 };

export interface WebhookSubscriberInput {
  organizationId: string;
  integrationName: string;
  installationId: string;
  /** How long it waits for new events when none is pending (default 2 s). */
  pollMs?: number;
  retry?: WebhookRetryPolicy;
  /** Deliveries done by earlier runs (carried over continue-as-new). */
  delivered?: number;
}

/** One pending delivery, as the subscriber sees it: ids and the event's type. */
export interface PendingWebhookDelivery {
  deliveryId: string;
  eventId: string;
  eventType: string;
  spaceId: string | null;
}

export interface WebhookDeliveryInput extends PendingWebhookDelivery {
  organizationId: string;
  integrationName: string;
  installationId: string;
  retry: WebhookRetryPolicy;
}

export interface WebhookDeliveryResult {
  status: 'success' | 'failed' | 'finished';
  reason?: string;
}

export const webhookSignals = {
  /** No arguments: new events may be pending (wakes the subscriber before its poll interval). */
  nudge: 'webhookEventsRecorded',
} as const;

export const webhookWorkflowIds = {
  subscriber: (integrationName: string, installationId: string) => `integration/${integrationName}/installation/${installationId}`,
  delivery: (integrationName: string, installationId: string, eventId: string) =>
    `integration/${integrationName}/installation/${installationId}/event/${eventId}`,
};

/** The `Subscriber` search attribute's value: `<integration name>/<installation id>`. */
export const subscriberOf = (integrationName: string, installationId: string) => `${integrationName}/${installationId}`;
