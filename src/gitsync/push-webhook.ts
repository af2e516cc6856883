/**
 * Push webhooks of git hosts (push-triggered sync). GitHub signs the raw body: `X-Hub-Signature-256: sha256=<hex
 * HMAC-SHA256 of the body with the webhook's secret>`; GitLab sends the secret itself: `X-Gitlab-Token: <secret>`.
 * Both are compared in constant time. Nothing of the body is trusted before that; the repository and branch imported
 * are the space's own (git/info), never the payload's. The members Folio uses are the same for both hosts
 * (`PushEvent`), so what follows a verified push does not depend on who sent it.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { parseTrailers } from '../git/index.js';
import { FOLIO_SPACE_TRAILER } from './trailers.js';

/** Whether `header` is the signature of `body` with `secret` (constant time). */
export function verifyGithubSignature(secret: string, body: Uint8Array, header: string | undefined): boolean {
  if (typeof header !== 'string' || !header.startsWith('sha256=')) return false;
  const expected = Buffer.from(`sha256=${createHmac('sha256', secret).update(body).digest('hex')}`);
  const got = Buffer.from(header);
  return got.length === expected.length && timingSafeEqual(got, expected);
}

/**
 * Whether GitLab's `X-Gitlab-Token` is `secret`. Both sides are hashed first, so the comparison takes the same time
 * whatever the token's length or content.
 */
export function verifyGitlabToken(secret: string, header: string | undefined): boolean {
  if (typeof header !== 'string' || header === '') return false;
  const digest = (s: string) => createHash('sha256').update(s, 'utf8').digest();
  return timingSafeEqual(digest(header), digest(secret));
}

export interface PushEvent {
  /** `refs/heads/<branch>`. */
  ref: string;
  /** The commit the branch now points at. */
  after: string;
  /** The branch was deleted by the push. */
  deleted: boolean;
  /** The head commit's time (ISO 8601), when the push has one. */
  timestamp?: string;
  /** The head commit's message, when the push has it (Folio's exports carry their trailers there). */
  headMessage?: string;
}

const COMMIT = /^[0-9a-f]{40,64}$/;
const DELETED = /^0+$/;

function parseJson(body: Uint8Array): unknown {
  try {
    return JSON.parse(Buffer.from(body).toString('utf8'));
  } catch {
    return null;
  }
}

function isoOf(value: unknown): string | undefined {
  const ts = typeof value === 'string' ? Date.parse(value) : NaN;
  return Number.isFinite(ts) ? new Date(ts).toISOString() : undefined;
}

function pushEvent(ref: string, after: string, deleted: boolean, head: { timestamp?: unknown; message?: unknown } | undefined): PushEvent {
  const timestamp = isoOf(head?.timestamp);
  const message = typeof head?.message === 'string' ? head.message.slice(0, 20_000) : undefined;
  return { ref, after, deleted, ...(timestamp ? { timestamp } : {}), ...(message !== undefined ? { headMessage: message } : {}) };
}

/** GitHub's push event's members Folio uses, or null when the body is not a push event. */
export function parseGithubPush(body: Uint8Array): PushEvent | null {
  const v = parseJson(body) as { ref?: unknown; after?: unknown; deleted?: unknown; head_commit?: { timestamp?: unknown; message?: unknown } | null };
  if (typeof v?.ref !== 'string' || typeof v.after !== 'string' || !COMMIT.test(v.after)) return null;
  return pushEvent(v.ref, v.after, v.deleted === true || DELETED.test(v.after), v.head_commit ?? undefined);
}

/**
 * GitLab's push hook's members Folio uses (`object_kind: "push"`), or null when the body is not one. A deleted
 * branch has `after` all zeros (and `checkout_sha` null); the head commit is the one of `commits` whose id is `after`.
 */
export function parseGitlabPush(body: Uint8Array): PushEvent | null {
  const v = parseJson(body) as { object_kind?: unknown; ref?: unknown; after?: unknown; commits?: unknown };
  if (v?.object_kind !== 'push' || typeof v.ref !== 'string' || typeof v.after !== 'string' || !COMMIT.test(v.after)) return null;
  const commits = Array.isArray(v.commits) ? (v.commits as Array<{ id?: unknown; timestamp?: unknown; message?: unknown } | null>) : [];
  const head = commits.find((c) => c?.id === v.after) ?? undefined;
  return pushEvent(v.ref, v.after, DELETED.test(v.after), head);
}

/** `main` and `refs/heads/main` name the same branch. */
export function sameBranch(a: string, b: string): boolean {
  const norm = (r: string) => (r.startsWith('refs/heads/') ? r : `refs/heads/${r}`);
  return norm(a) === norm(b);
}

/**
 * Whether the push is of Folio's own export of this space: the commit its last export wrote, or a head commit
 * carrying its `Folio-Space: <space id>` trailer (an earlier export whose webhook arrives after a later export).
 */
export function isOwnExport(push: PushEvent, spaceId: string, lastExportCommit: string | undefined): boolean {
  if (lastExportCommit !== undefined && lastExportCommit === push.after) return true;
  if (push.headMessage === undefined) return false;
  return parseTrailers(push.headMessage).some((t) => t.key === FOLIO_SPACE_TRAILER && t.value.trim() === spaceId);
}
