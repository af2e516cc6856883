/**
 * Typed errors of the git layer: one class per failure, each with a stable `code`.
 * Messages are built from credential-free URLs only; `toGitError` maps isomorphic-git and
 * network errors onto these classes and scrubs anything that could carry a secret.
 */
import { FolioError } from '../errors.js';
import { redact } from '../redact.js';
import { FetchAddressDeniedError, FetchRedirectError, FetchUrlRefusedError } from '../net/errors.js';

export type GitErrorCode =
  | 'AUTH_FAILED'
  | 'REPO_NOT_FOUND'
  | 'REF_NOT_FOUND'
  | 'PUSH_REJECTED'
  | 'NON_FAST_FORWARD'
  | 'NETWORK'
  | 'FILE_TOO_LARGE'
  | 'CANCELLED'
  | 'OBJECT_NOT_FOUND'
  | 'REMOTE_CORRUPT'
  | 'INVALID_PATH'
  | 'CACHE_LOCKED'
  | 'GIT_PROTOCOL'
  | 'FETCH_PRIVATE_ADDRESS_DENIED'
  | 'FETCH_REFUSED';

/** Base class of every git-layer error. */
export class GitError extends FolioError {
  declare readonly code: GitErrorCode;
  constructor(code: GitErrorCode, message: string, options: { data?: Record<string, unknown>; retryable?: boolean; cause?: unknown } = {}) {
    super(code, redact(message), options);
  }
}

/** The remote rejected the credentials (HTTP 401/403). Never retried with the same credentials. */
export class GitAuthFailedError extends GitError {
  constructor(url: string, status: number) {
    super('AUTH_FAILED', `authentication failed for ${url} (HTTP ${status})`, { data: { url, status } });
  }
}

export class GitRepoNotFoundError extends GitError {
  constructor(url: string, detail?: string) {
    super('REPO_NOT_FOUND', `repository not found: ${url}${detail ? ` (${detail})` : ''}`, { data: { url } });
  }
}

export class GitRefNotFoundError extends GitError {
  constructor(url: string, ref: string) {
    super('REF_NOT_FOUND', `ref ${JSON.stringify(ref)} not found in ${url}`, { data: { url, ref } });
  }
}

/** The remote declined the update (protected branch, hook declined, tag exists…). */
export class GitPushRejectedError extends GitError {
  constructor(url: string, ref: string, reason: string) {
    super('PUSH_REJECTED', `push of ${ref} to ${url} rejected: ${reason}`, { data: { url, ref, reason } });
  }
}

/** The remote branch moved to a commit that is not an ancestor of ours; nothing was overwritten. Retryable (the retry fetches the new head). */
export class GitNonFastForwardError extends GitError {
  constructor(url: string, ref: string, remoteCommit?: string) {
    super(
      'NON_FAST_FORWARD',
      `push of ${ref} to ${url} rejected: the remote branch moved${remoteCommit ? ` to ${remoteCommit}` : ''} and is not an ancestor of the pushed commit`,
      {
        data: { url, ref, remoteCommit },
        retryable: true,
      },
    );
  }
}

/** Connection refused/reset, timeouts, 5xx: retrying may succeed. */
export class GitNetworkError extends GitError {
  constructor(url: string, detail: string, cause?: unknown) {
    super('NETWORK', `network error talking to ${url}: ${detail}`, { data: { url }, retryable: true, cause });
  }
}

export class GitFileTooLargeError extends GitError {
  constructor(path: string, size: number, limit: number) {
    super('FILE_TOO_LARGE', `${path} is ${size} bytes, over the ${limit}-byte limit`, { data: { path, size, limit } });
  }
}

export class GitCancelledError extends GitError {
  constructor(operation: string) {
    super('CANCELLED', `${operation} cancelled`, { data: { operation } });
  }
}

/** An object (commit, tree, blob) the operation needs is not in the local cache. Retryable (the retry fetches again). */
export class GitObjectNotFoundError extends GitError {
  constructor(what: string, oid: string) {
    super('OBJECT_NOT_FOUND', `${what} ${oid} not found in the local repository cache`, { data: { what, oid }, retryable: true });
  }
}

/**
 * The remote could not send what it advertised: its `git pack-objects` died (a missing or corrupt object in the remote
 * repository). Not retried: the remote fails the same way until its repository is repaired. The message carries the
 * remote's own words (its sideband messages).
 */
export class GitRemoteCorruptError extends GitError {
  constructor(url: string, ref: string, remoteMessage: string) {
    super('REMOTE_CORRUPT', `the remote ${url} failed to send ${ref}; it said: ${remoteMessage}`, { data: { url, ref, remoteMessage } });
  }
}

export class GitInvalidPathError extends GitError {
  constructor(path: string, reason: string) {
    super('INVALID_PATH', `invalid path ${JSON.stringify(path)}: ${reason}`, { data: { path, reason } });
  }
}

/** The cache lock could not be acquired in time (another activity holds it). Retryable. */
export class GitCacheLockedError extends GitError {
  constructor(dir: string, waitedMs: number) {
    super('CACHE_LOCKED', `repository cache ${dir} is locked (waited ${waitedMs} ms)`, { data: { dir, waitedMs }, retryable: true });
  }
}

/** The remote answered something that is not the git smart-HTTP protocol, or an unexpected git failure. Retryable. */
export class GitProtocolError extends GitError {
  constructor(url: string, detail: string) {
    super('GIT_PROTOCOL', `git error with ${url}: ${detail}`, { data: { url }, retryable: true });
  }
}

/**
 * The fetch guard refused the remote (or a redirect of it): a loopback, private, link-local or metadata address
 * that FETCH_ALLOW_HOSTS does not list. Not retried: the same request is refused again.
 */
export class GitAddressDeniedError extends GitError {
  constructor(url: string, address: string, cause?: unknown) {
    super(
      'FETCH_PRIVATE_ADDRESS_DENIED',
      `refused to connect to ${url}: address ${address} is private, loopback, link-local or metadata; list the host or its network in FETCH_ALLOW_HOSTS to allow it`,
      {
        data: { url, address, setting: 'FETCH_ALLOW_HOSTS' },
        cause,
      },
    );
  }
}

/** The fetch guard refused a redirect of the remote (too many hops, a non-http(s) target). Not retried. */
export class GitFetchRefusedError extends GitError {
  constructor(url: string, detail: string, cause?: unknown) {
    super('FETCH_REFUSED', `refused to fetch ${url}: ${detail}`, { data: { url }, cause });
  }
}

export function isGitError(err: unknown): err is GitError {
  return err instanceof GitError;
}

const NETWORK_CODES = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ETIMEDOUT',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EPIPE',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ECONNABORTED',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'UND_ERR_CLOSED',
]);

interface ErrorContext {
  /** Credential-free URL of the remote. */
  url: string;
  ref?: string;
  operation: string;
  signal?: AbortSignal;
  /** Set when the credential was offered and rejected (onAuthFailure was reached). */
  authRejected?: boolean;
  /** Secrets that must not survive in any message. */
  secrets?: string[];
}

function scrub(text: string, secrets: string[] = []): string {
  let out = redact(text);
  for (const s of secrets) if (s) out = out.split(s).join('***');
  return out;
}

function findNetworkCode(err: unknown, depth = 0): string | undefined {
  if (!err || typeof err !== 'object' || depth > 4) return undefined;
  const code = (err as { code?: unknown }).code;
  if (typeof code === 'string' && NETWORK_CODES.has(code)) return code;
  return findNetworkCode((err as { cause?: unknown }).cause, depth + 1);
}

function findCause<T>(err: unknown, type: abstract new (...args: never[]) => T, depth = 0): T | undefined {
  if (!err || typeof err !== 'object' || depth > 4) return undefined;
  if (err instanceof type) return err;
  return findCause((err as { cause?: unknown }).cause, type, depth + 1);
}

/** Maps any error thrown during a remote operation onto a GitError. Never lets secrets through. */
export function toGitError(err: unknown, ctx: ErrorContext): GitError {
  if (err instanceof GitError) return err;
  const denied = findCause(err, FetchAddressDeniedError);
  if (denied) return new GitAddressDeniedError(ctx.url, denied.address, denied);
  if (ctx.signal?.aborted) return new GitCancelledError(ctx.operation);
  const e = err as { code?: string; name?: string; message?: string; data?: Record<string, unknown> } | undefined;
  const code = e?.code ?? e?.name;
  const message = scrub(String(e?.message ?? err), ctx.secrets);
  if (e?.name === 'AbortError' || code === 'ABORT_ERR') return new GitCancelledError(ctx.operation);
  if (ctx.authRejected && (code === 'HttpError' || code === 'UserCanceledError')) return new GitAuthFailedError(ctx.url, 401);
  switch (code) {
    case 'HttpError': {
      const status = Number(e?.data?.statusCode);
      if (status === 401 || status === 403) return new GitAuthFailedError(ctx.url, status);
      if (status === 404 || status === 410) return new GitRepoNotFoundError(ctx.url);
      if (status === 408 || status === 429 || status >= 500) return new GitNetworkError(ctx.url, `HTTP ${status}`);
      return new GitProtocolError(ctx.url, `HTTP ${status}`);
    }
    case 'SmartHttpError':
      return new GitRepoNotFoundError(ctx.url, 'not a git smart-HTTP endpoint');
    case 'UserCanceledError':
      return new GitCancelledError(ctx.operation);
    case 'NotFoundError': {
      const what = String(e?.data?.what ?? '');
      if (ctx.ref !== undefined && (what === ctx.ref || what === `refs/heads/${ctx.ref}` || what.endsWith(`/${ctx.ref}`)))
        return new GitRefNotFoundError(ctx.url, ctx.ref);
      return new GitObjectNotFoundError('object', scrub(what, ctx.secrets));
    }
    case 'PushRejectedError': {
      const reason = String(e?.data?.reason ?? '');
      if (reason === 'not-fast-forward') return new GitNonFastForwardError(ctx.url, ctx.ref ?? '?');
      return new GitPushRejectedError(ctx.url, ctx.ref ?? '?', reason || message);
    }
    case 'GitPushError':
      return classifyPushError(ctx, message);
  }
  const refused = findCause(err, FetchUrlRefusedError) ?? findCause(err, FetchRedirectError);
  if (refused) return new GitFetchRefusedError(ctx.url, scrub(refused.message, ctx.secrets), refused);
  const net = findNetworkCode(err);
  if (net) return new GitNetworkError(ctx.url, net);
  if (/socket hang up|fetch failed|other side closed|premature close/i.test(message)) return new GitNetworkError(ctx.url, message);
  return new GitProtocolError(ctx.url, `${code ?? 'Error'}: ${message}`);
}

/** The last remote messages kept for an error: at most this many lines, this many characters. */
const REMOTE_MESSAGE_LINES = 8;
const REMOTE_MESSAGE_CHARS = 1000;

const REMOTE_CORRUPT =
  /possible repository corruption|pack-objects died|unable to read [0-9a-f]{7,}|bad object|missing (?:blob|tree|commit) object|did not send all necessary objects|packfile .* cannot be accessed|loose object .* is corrupt|inflate: data stream error/i;
const REMOTE_AUTH = /access denied|authentication failed|permission denied|not authori[sz]ed|invalid credentials|HTTP Basic/i;
const REMOTE_NOT_FOUND = /repository not found|could not be found|does not appear to be a git repository|no such repository|not a git repository/i;
const REMOTE_TIMEOUT = /timed out|timeout|deadline exceeded|RPC failed/i;

/** The remote's messages as one line for an error: the last lines that say something, scrubbed, bounded. */
/**
 * One line a remote sent on its sideband, without control characters: a remote's message may carry a NUL or other
 * bytes of its protocol, which PostgreSQL refuses in text (a failure whose message holds one could not be recorded).
 */
export function cleanRemoteLine(line: string): string {
  return line.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
}

export function remoteMessageText(lines: readonly string[], secrets: string[] = []): string {
  const kept = lines
    .map((l) =>
      cleanRemoteLine(l)
        .replace(/^remote:\s*/i, '')
        .trim(),
    )
    .filter((l) => l !== '' && !/^(?:Enumerating|Counting|Compressing|Total|Receiving|Resolving) objects|^Enumerating objects/i.test(l));
  const text = scrub(kept.slice(-REMOTE_MESSAGE_LINES).join(' | '), secrets);
  return text.length > REMOTE_MESSAGE_CHARS ? `…${text.slice(-REMOTE_MESSAGE_CHARS)}` : text;
}

/**
 * The failure the remote's own sideband messages name, or null when they name none: a remote repository that cannot
 * be packed (REMOTE_CORRUPT), refused credentials (AUTH_FAILED), a missing repository (REPO_NOT_FOUND) — none of them
 * retried — or a timeout on the remote's side (NETWORK, retried). Each keeps the remote's words.
 */
export function classifyRemoteMessages(url: string, ref: string, lines: readonly string[], secrets: string[] = []): GitError | null {
  const text = remoteMessageText(lines, secrets);
  if (text === '') return null;
  if (REMOTE_CORRUPT.test(text)) return new GitRemoteCorruptError(url, ref, text);
  if (REMOTE_AUTH.test(text)) return new GitError('AUTH_FAILED', `authentication failed for ${url}; the remote said: ${text}`, { data: { url } });
  if (REMOTE_NOT_FOUND.test(text)) return new GitRepoNotFoundError(url, `the remote said: ${text}`);
  if (REMOTE_TIMEOUT.test(text)) return new GitNetworkError(url, `the remote timed out; it said: ${text}`);
  return null;
}

/** Classifies the per-ref failure reported by receive-pack. */
export function classifyPushError(ctx: ErrorContext, detail: string): GitError {
  const text = scrub(detail, ctx.secrets);
  if (/non-fast-forward|fetch first|stale info|failed to lock|cannot lock ref|but expected/i.test(text)) {
    return new GitNonFastForwardError(ctx.url, ctx.ref ?? '?');
  }
  return new GitPushRejectedError(ctx.url, ctx.ref ?? '?', text.replace(/^One or more branches were not updated:\s*/, '').trim());
}
