/**
 * The webhook subscribers' inputs from the configuration, and the sweep that resumes them. An installation's
 * deliveries are written with its events (the store), and its subscriber workflow delivers them; a subscriber that
 * is not running — its start lost when the API died after the install, a Temporal history gone, a run terminated by
 * hand — would leave them pending. The worker sweeps at start: it signals-with-start the subscriber of every
 * installation, which starts a missing one and only wakes a running one (idempotent: one subscriber per
 * installation, whatever the number of sweeps).
 */
import { Client, type ConnectionLike } from '@temporalio/client';
import type { Config } from '../../config/config.js';
import type { Logger } from '../../log.js';
import type { Store } from '../../store/index.js';
import type { WebhookSubscriberInput } from '../contract/index.js';
import { startWebhookSubscriber, type WorkflowStarter } from './start.js';

type WebhookSettings = Pick<Config, 'webhookPollMs' | 'webhookMaxIntervalMs' | 'webhookGiveUpMs'>;

/** The subscriber's input for an installation, with the configured polling and backoff (FOLIO_WEBHOOK_*). */
export function webhookSubscriberInput(
  config: WebhookSettings,
  installation: { organizationId: string; integrationName: string; id: string },
): WebhookSubscriberInput {
  return {
    organizationId: installation.organizationId,
    integrationName: installation.integrationName,
    installationId: installation.id,
    pollMs: config.webhookPollMs,
    retry: { initialMs: Math.min(5_000, config.webhookMaxIntervalMs), maxIntervalMs: config.webhookMaxIntervalMs, giveUpMs: config.webhookGiveUpMs },
  };
}

/** Signals-with-start the subscriber of every installation; returns how many it reached. */
export async function resumeWebhookSubscribers(starter: WorkflowStarter, store: Pick<Store, 'integrations'>, config: WebhookSettings): Promise<number> {
  let after = 0;
  let resumed = 0;
  for (;;) {
    const page = await store.integrations.subscribers(after, 200);
    for (const installation of page) {
      await startWebhookSubscriber(starter, webhookSubscriberInput(config, installation));
      resumed++;
    }
    if (page.length < 200) return resumed;
    after = page[page.length - 1]!.seq;
  }
}

/**
 * The worker's start-up sweep: `resumeWebhookSubscribers` on the worker's connection, retried with backoff while
 * Temporal or the store does not answer (never a process exit); the outcome is logged. Resolves when done.
 */
export async function sweepWebhookSubscribers(options: {
  connection: ConnectionLike;
  namespace: string;
  taskQueue: string;
  store: Pick<Store, 'integrations'>;
  config: WebhookSettings;
  logger: Logger;
  attempts?: number;
  signal?: AbortSignal;
}): Promise<void> {
  const client = new Client({ connection: options.connection, namespace: options.namespace });
  const attempts = options.attempts ?? 10;
  for (let attempt = 1; !options.signal?.aborted; attempt++) {
    try {
      const resumed = await resumeWebhookSubscribers({ client, taskQueue: options.taskQueue }, options.store, options.config);
      options.logger.info({ resumed }, 'webhook subscribers resumed');
      return;
    } catch (err) {
      if (attempt >= attempts) {
        options.logger.error({ err: (err as Error).message, attempt }, 'webhook subscribers not resumed; the next worker start sweeps again');
        return;
      }
      options.logger.warn({ err: (err as Error).message, attempt }, 'webhook subscriber sweep failed; retrying');
      await new Promise((r) => setTimeout(r, Math.min(30_000, 500 * 2 ** attempt)));
    }
  }
}
