/**
 * Webhook signatures, the Standard Webhooks convention (https://www.standardwebhooks.com/): each request carries
 * `webhook-id` (the event id: a receiver accepts each once), `webhook-timestamp` (Unix seconds of the attempt) and
 * `webhook-signature: v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">`. The key is the integration's
 * `WEBHOOK_SECRET`: `whsec_<base64>` is the base64-decoded bytes (the convention's form), any other string its
 * UTF-8 bytes.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

export const WEBHOOK_HEADERS = { id: 'webhook-id', timestamp: 'webhook-timestamp', signature: 'webhook-signature' } as const;

/** The HMAC key of a secret. */
export function signingKey(secret: string): Buffer {
  return secret.startsWith('whsec_') ? Buffer.from(secret.slice('whsec_'.length), 'base64') : Buffer.from(secret, 'utf8');
}

/** `v1,<base64>` over `${id}.${timestamp}.${body}`. */
export function signWebhook(secret: string, id: string, timestamp: number, body: string): string {
  return `v1,${createHmac('sha256', signingKey(secret)).update(`${id}.${timestamp}.${body}`).digest('base64')}`;
}

/**
 * What a receiver does: true when one of the space-separated `v1,` signatures matches and the timestamp is within
 * `toleranceS` of `nowS` (replays of old requests refused).
 */
export function verifyWebhook(
  secret: string,
  headers: { id: string; timestamp: string; signature: string },
  body: string,
  options: { nowS?: number; toleranceS?: number } = {},
): boolean {
  const ts = Number(headers.timestamp);
  if (!Number.isInteger(ts)) return false;
  const now = options.nowS ?? Math.floor(Date.now() / 1000);
  if (Math.abs(now - ts) > (options.toleranceS ?? 300)) return false;
  const expected = Buffer.from(signWebhook(secret, headers.id, ts, body));
  return headers.signature.split(' ').some((candidate) => {
    const got = Buffer.from(candidate);
    return got.length === expected.length && timingSafeEqual(got, expected);
  });
}
