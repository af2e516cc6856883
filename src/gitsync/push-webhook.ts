/**
 * GitHub push webhooks (push-triggered sync): the signature GitHub sends, `X-Hub-Signature-256: sha256=<hex HMAC-SHA256
 * of the raw body with the webhook's secret>`, and the members of a push event Folio uses. Nothing of the body is
 * trusted before the signature verifies; the repository and branch imported are the space's own (git/info), never
 * the payload's.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** Whether `header` is the signature of `body` with `secret` (constant time). */
export function verifyGithubSignature(secret: string, body: Uint8Array, header: string | undefined): boolean {
  if (typeof header !== 'string' || !header.startsWith('sha256=')) return false;
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(body).digest('hex')}`);
  const got = Buffer.from(header);
  return got.length === expected.length && timingSafeEqual(got, expected);
}

export interface GithubPush {
  /** `refs/heads/<branch>`. */
  ref: string;
  /** The commit the branch now points at. */
  after: string;
  /** The branch was deleted by the push. */
  deleted: boolean;
  /** The head commit's time (ISO 8601), when the push has one. */
  timestamp?: string;
}

/** The push event's members Folio uses, or null when the body is not a push event. */
export function parseGithubPush(body: Uint8Array): GithubPush | null {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(body).toString('utf8'));
  } catch {
    return null;
  }
  const v = value as { ref?: unknown; after?: unknown; deleted?: unknown; head_commit?: { timestamp?: unknown } | null };
  if (typeof v?.ref !== 'string' || typeof v.after !== 'string' || !/^[0-9a-f]{40,64}$/.test(v.after)) return null;
  const ts = typeof v.head_commit?.timestamp === 'string' ? Date.parse(v.head_commit.timestamp) : NaN;
  return { ref: v.ref, after: v.after, deleted: v.deleted === true, ...(Number.isFinite(ts) ? { timestamp: new Date(ts).toISOString() } : {}) };
}

/** `main` and `refs/heads/main` name the same branch. */
export function sameBranch(a: string, b: string): boolean {
  const norm = (r: string) => (r.startsWith('refs/heads/') ? r : `refs/heads/${r}`);
  return norm(a) === norm(b);
}
