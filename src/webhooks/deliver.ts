/**
 * One delivery attempt of a content event to an installation's webhook: the event's payload (with the
 * installation's id) as JSON, signed (./signature.ts), POSTed through the guarded fetch. The trace of each attempt
 * goes to the delivery's log (`…/events/{eventId}`): status codes and error codes, never the address's path,
 * query or credentials, nor the secret.
 */
import { guardedFetch } from '../net/guarded-fetch.js';
import type { FetchPolicy } from '../net/policy.js';
import type { DeliveryRecord, Store } from '../store/index.js';
import type { FieldSealer } from '../vault/index.js';
import { signWebhook, WEBHOOK_HEADERS } from './signature.js';

export interface DeliverDeps {
  store: Store;
  sealer: FieldSealer;
  policy: FetchPolicy;
  /** Per attempt (default 10 s). */
  timeoutMs?: number;
}

export type AttemptOutcome =
  | { outcome: 'delivered'; status: number }
  /** Already ended (a retried activity after a lost completion): nothing sent. */
  | { outcome: 'finished' }
  /** Not deliverable at all (no webhook, installation gone): ended as failed. */
  | { outcome: 'undeliverable'; reason: string }
  | { outcome: 'retry'; reason: string };

/** Where sealed webhook fields are bound (the AAD): to the integration's name. */
export const webhookContext = (integrationName: string, field: 'url' | 'secret' | 'dev-tunnel') => `integration:${integrationName}:webhook-${field}`;

/** The request body: the event's payload as recorded, with the installation's id (the spec's InstallationEvent). */
export function webhookBody(payload: Record<string, unknown>, installationId: string): string {
  return JSON.stringify({ ...payload, installationId });
}

function describeError(err: unknown): string {
  const e = err as { code?: unknown; name?: unknown };
  if (typeof e?.code === 'string') return e.code;
  if (e?.name === 'TimeoutError' || e?.name === 'AbortError') return 'TIMEOUT';
  return err instanceof Error ? err.name : 'ERROR';
}

type Target = { url: string; secret: string; tunnel: boolean } | { outcome: 'undeliverable' | 'retry'; reason: string };

/**
 * Where a delivery goes: the development tunnel while development mode is on (of every installation with `all`,
 * else of the installations on the integration's own organization), else the webhook; signed with the webhook's
 * secret either way.
 */
async function targetOf(deps: DeliverDeps, delivery: DeliveryRecord): Promise<Target> {
  const { store } = deps;
  const [sealed, tunnel, integration] = await Promise.all([
    store.integrations.webhook(delivery.integrationName),
    store.integrations.devTunnel(delivery.integrationName),
    store.integrations.get(delivery.integrationName),
  ]);
  if (!sealed || !integration) return { outcome: 'undeliverable', reason: 'the integration has no webhook address' };
  const toTunnel = tunnel !== null && (tunnel.all || delivery.event.organizationId === integration.organizationId);
  try {
    return {
      url: toTunnel
        ? deps.sealer.open(tunnel.url, webhookContext(delivery.integrationName, 'dev-tunnel'))
        : deps.sealer.open(sealed.url, webhookContext(delivery.integrationName, 'url')),
      secret: deps.sealer.open(sealed.secret, webhookContext(delivery.integrationName, 'secret')),
      tunnel: toTunnel,
    };
  } catch {
    // Sealed with another vault key (FOLIO_VAULT_KEY differs between the API and this worker): say so in the trace.
    return { outcome: 'retry', reason: 'the webhook address or secret does not open with this worker’s vault key (FOLIO_VAULT_KEY)' };
  }
}

/** Makes one attempt; records it in the delivery's trace; ends the delivery on success. */
export async function attemptDelivery(deps: DeliverDeps, deliveryId: string): Promise<AttemptOutcome> {
  const { store } = deps;
  const delivery = await store.integrations.delivery(deliveryId);
  if (!delivery || delivery.status !== 'pending') return { outcome: 'finished' };
  const target = await targetOf(deps, delivery);
  if ('outcome' in target) {
    if (target.outcome === 'undeliverable') await store.integrations.finishDelivery(deliveryId, 'failed', { level: 'error', message: target.reason });
    else await store.integrations.recordAttempt(deliveryId, { level: 'error', message: `attempt ${delivery.attempts + 1}: ${target.reason}` });
    return target;
  }
  const { url, secret } = target;
  const body = webhookBody(delivery.event.payload, delivery.installationId);
  const timestamp = Math.floor(Date.now() / 1000);
  const host = `${new URL(url).host}${target.tunnel ? ' (development tunnel)' : ''}`;
  const attempt = delivery.attempts + 1;
  try {
    const response = await guardedFetch(url, {
      policy: deps.policy,
      method: 'POST',
      maxRedirects: 0,
      maxBodyBytes: 64 * 1024,
      signal: AbortSignal.timeout(deps.timeoutMs ?? 10_000),
      headers: {
        'content-type': 'application/json',
        'user-agent': 'Folio-Webhooks/1',
        [WEBHOOK_HEADERS.id]: delivery.event.id,
        [WEBHOOK_HEADERS.timestamp]: String(timestamp),
        [WEBHOOK_HEADERS.signature]: signWebhook(secret, delivery.event.id, timestamp, body),
      },
      body: new TextEncoder().encode(body),
    });
    response.body.destroy();
    if (response.status >= 200 && response.status < 300) {
      await store.integrations.recordAttempt(deliveryId, { level: 'info', message: `attempt ${attempt}: ${host} answered ${response.status}` });
      await store.integrations.finishDelivery(deliveryId, 'success', { level: 'info', message: `delivered on attempt ${attempt}` });
      return { outcome: 'delivered', status: response.status };
    }
    const reason = `attempt ${attempt}: ${host} answered ${response.status}`;
    await store.integrations.recordAttempt(deliveryId, { level: 'warn', message: reason });
    return { outcome: 'retry', reason };
  } catch (err) {
    const reason = `attempt ${attempt}: ${host} not reached (${describeError(err)})`;
    await store.integrations.recordAttempt(deliveryId, { level: 'warn', message: reason });
    return { outcome: 'retry', reason };
  }
}
