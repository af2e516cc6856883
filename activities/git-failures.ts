/**
 * Maps whatever a git operation throws onto a typed Temporal `ApplicationFailure`: git-layer codes are kept
 * (AUTH_FAILED, REPO_NOT_FOUND, …), the converter's page limit becomes TOO_MANY_PAGES. Whether a git error is
 * retried is the error's own `retryable` (src/git/errors.ts: network trouble, a locked cache, a moved branch, …),
 * decided there once. Transient store errors (STORE_UNAVAILABLE, STORE_TRANSIENT: every FolioError that says
 * `retryable`) are retried under their own code, and so is a row the store reports missing in the middle of the
 * operation (STALE_READ): the activity checked its space first, so the retry either finds the row or stops on that
 * check with NOT_FOUND. Messages are scrubbed of URL userinfo and of the given secrets. A git sync operation's own
 * failures (`GitSyncError`: NOT_FOUND, LOCKED, CONFLICT, …) keep their code, message and details as they are.
 */
import { ApplicationFailure } from '@temporalio/activity';
import { GitError } from '../src/git/index.js';
import { FormatError, NoContentError, TooManyPagesError } from '../src/format/index.js';
import { FolioError } from '../src/errors.js';
import { GitSyncError } from '../src/gitsync/errors.js';
import { redact } from '../src/redact.js';

export function scrubSecrets(text: string, secrets: readonly string[]): string {
  let out = redact(text);
  for (const s of secrets) if (s && s.length >= 1) out = out.split(s).join('***').split(encodeURIComponent(s)).join('***');
  return out;
}

/** A typed failure; not retried unless `nonRetryable: false` is given. */
export function gitFailure(
  type: string,
  message: string,
  options: { nonRetryable?: boolean; details?: unknown[]; secrets?: readonly string[] } = {},
): ApplicationFailure {
  return ApplicationFailure.create({
    type,
    message: scrubSecrets(message, options.secrets ?? []),
    nonRetryable: options.nonRetryable ?? true,
    ...(options.details ? { details: options.details } : {}),
  });
}

/** A git sync operation's own failure as the run's typed failure: its code, message and details as they are. */
function syncFailure(err: GitSyncError): ApplicationFailure {
  return ApplicationFailure.create({ type: err.code, message: err.message, nonRetryable: !err.retryable, ...(err.details ? { details: err.details } : {}) });
}

/** The outcome of `work`, a git sync operation's own failure thrown as its typed failure (any other error as it is). */
export async function typedFailures<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (err) {
    throw err instanceof GitSyncError ? syncFailure(err) : err;
  }
}

export function toFailure(err: unknown, secrets: readonly string[] = []): ApplicationFailure {
  if (err instanceof ApplicationFailure) {
    return err;
  }
  if (err instanceof GitSyncError) return syncFailure(err);
  if (err instanceof TooManyPagesError) return gitFailure('TOO_MANY_PAGES', err.message, { nonRetryable: true, secrets });
  if (err instanceof NoContentError) return gitFailure(err.code, err.message, { nonRetryable: true, secrets });
  if (err instanceof GitError) return gitFailure(err.code, err.message, { nonRetryable: !err.retryable, secrets });
  if (err instanceof FormatError) return gitFailure('FORMAT_ERROR', `${err.code}: ${err.message}`, { nonRetryable: true, secrets });
  if (err instanceof FolioError && err.retryable) return gitFailure(err.code, err.message, { nonRetryable: false, secrets });
  if (err instanceof FolioError && err.code === 'NOT_FOUND') return gitFailure('STALE_READ', err.message, { nonRetryable: false, secrets });
  const message = err instanceof Error ? err.message : String(err);
  // Anything else (store unavailable, a bug) is retried with backoff; the message is scrubbed all the same.
  return ApplicationFailure.create({ type: 'INTERNAL', message: scrubSecrets(message, secrets), nonRetryable: false });
}
