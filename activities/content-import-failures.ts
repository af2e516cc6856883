/**
 * Maps what a content import activity throws onto a typed Temporal `ApplicationFailure`: Folio's typed errors keep
 * their code and say themselves whether a retry can help (`retryable`: a transient store error); a fetch's failure
 * never reaches here retryable (the crawl turns it into a warning or a non-retryable failure of the run: the
 * fetcher's own retries are spent, WEBIMPORT_RETRIES is not multiplied by activity attempts); the converter's page
 * limit is WEBIMPORT_TOO_MANY_PAGES; anything else is retried as INTERNAL. Messages are scrubbed of URL credentials.
 */
import { ApplicationFailure, CancelledFailure } from '@temporalio/activity';
import { FolioError } from '../src/errors.js';
import { TooManyPagesError } from '../src/format/index.js';
import { redact } from '../src/redact.js';

export function toImportFailure(err: unknown): Error {
  if (err instanceof ApplicationFailure || err instanceof CancelledFailure) return err;
  if (err instanceof TooManyPagesError)
    return ApplicationFailure.create({ type: 'WEBIMPORT_TOO_MANY_PAGES', message: redact(err.message), nonRetryable: true });
  if (err instanceof FolioError) return ApplicationFailure.create({ type: err.code, message: redact(err.message), nonRetryable: !err.retryable });
  const message = err instanceof Error ? err.message : String(err);
  return ApplicationFailure.create({ type: 'INTERNAL', message: redact(message), nonRetryable: false });
}
