/**
 * What a URL of a website import that cannot be fetched becomes: the start page's failure fails the run (typed,
 * not retried: the fetcher's retries are spent), any other URL's is a typed warning the operator sees on the run —
 * refused by the address policy (`WEBIMPORT_ASSET_REFUSED` / `WEBIMPORT_PAGE_REFUSED`), larger than one response may
 * be (`WEBIMPORT_ASSET_TOO_LARGE` / `WEBIMPORT_PAGE_TOO_LARGE`), or failing (`WEBIMPORT_FETCH_FAILED`: a 4xx, a 5xx or
 * a 429 after its retries, no answer in time, the network, a host name that does not resolve).
 */
import { FetchAddressDeniedError, FetchRedirectError, FetchUrlRefusedError } from '../net/errors.js';
import type { FolioError } from '../errors.js';
import {
  WebImportHostNotFoundError,
  WebImportHttpError,
  WebImportNetworkError,
  WebImportResponseTooLargeError,
  WebImportStartFailedError,
  WebImportTimeoutError,
} from './errors.js';

export type FetchFailure =
  | WebImportHttpError
  | WebImportNetworkError
  | WebImportTimeoutError
  | WebImportHostNotFoundError
  | WebImportResponseTooLargeError
  | FetchAddressDeniedError
  | FetchUrlRefusedError
  | FetchRedirectError;

/** Whether `err` is the failure of one URL's fetch (not a cancel, the deadline or a fault of Folio's own). */
export function isFetchFailure(err: unknown): err is FetchFailure {
  return (
    err instanceof WebImportHttpError ||
    err instanceof WebImportNetworkError ||
    err instanceof WebImportTimeoutError ||
    err instanceof WebImportHostNotFoundError ||
    err instanceof WebImportResponseTooLargeError ||
    isRefusal(err)
  );
}

/** Refused by the fetch guard (a private address, a scheme, too many redirects): the same request is refused again. */
export function isRefusal(err: unknown): boolean {
  return err instanceof FetchAddressDeniedError || err instanceof FetchUrlRefusedError || err instanceof FetchRedirectError;
}

function requests(err: FolioError): string {
  const n = Number(err.data.attempts ?? 1);
  return n > 1 ? ` (${n} requests)` : '';
}

/**
 * The run's failure when the start page cannot be imported: the guard's refusals and an unknown host keep their
 * own codes; anything else is WEBIMPORT_START_FAILED. None is retried.
 */
export function startFailure(url: string, err: FetchFailure | string): Error {
  if (typeof err === 'string') return new WebImportStartFailedError(url, err);
  if (isRefusal(err) || err instanceof WebImportHostNotFoundError) return err as Error;
  const detail = err instanceof WebImportHttpError ? `HTTP ${err.status}` : err.message;
  return new WebImportStartFailedError(url, `${detail}${requests(err)}`);
}

/** The typed warning of a URL other than the start page that could not be fetched. */
export function failureWarning(url: string, kind: 'page' | 'asset', err: FetchFailure): { code: string; message: string } {
  const what = kind === 'asset' ? 'ASSET' : 'PAGE';
  if (isRefusal(err)) return { code: `WEBIMPORT_${what}_REFUSED`, message: `${url} is not imported: ${err.message}` };
  if (err instanceof WebImportResponseTooLargeError) return { code: `WEBIMPORT_${what}_TOO_LARGE`, message: `${err.message}; it is not imported` };
  const detail = err instanceof WebImportHttpError ? `${url} answered HTTP ${err.status}` : err.message;
  return { code: 'WEBIMPORT_FETCH_FAILED', message: `${detail}${requests(err)}; it is not imported` };
}
