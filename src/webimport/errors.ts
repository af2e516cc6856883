/**
 * Typed errors of the website import: one class per failure, each with a stable `code` and `retryable`. Messages
 * carry credential-free URLs only (the start URL is refused when it holds credentials).
 */
import { FolioError } from '../errors.js';
import { redact } from '../redact.js';

export type WebImportErrorCode =
  | 'WEBIMPORT_BAD_URL'
  | 'WEBIMPORT_START_FAILED'
  | 'WEBIMPORT_ROBOTS_DISALLOWED'
  | 'WEBIMPORT_TOO_MANY_PAGES'
  | 'WEBIMPORT_TOO_LARGE'
  | 'WEBIMPORT_RESPONSE_TOO_LARGE'
  | 'WEBIMPORT_HTTP'
  | 'WEBIMPORT_NETWORK'
  | 'WEBIMPORT_TIMEOUT'
  | 'WEBIMPORT_HOST_NOT_FOUND'
  | 'WEBIMPORT_SITE_UNREACHABLE'
  | 'WEBIMPORT_DEADLINE'
  | 'WEBIMPORT_NO_PAGES'
  | 'WEBIMPORT_CANCELLED'
  | 'WEBIMPORT_TARGET_GONE';

export class WebImportError extends FolioError {
  declare readonly code: WebImportErrorCode;
  constructor(code: WebImportErrorCode, message: string, options: { data?: Record<string, unknown>; retryable?: boolean; cause?: unknown } = {}) {
    super(code, redact(message), options);
  }
}

/** The start URL is not an absolute http(s) URL without credentials. */
export class WebImportBadUrlError extends WebImportError {
  constructor(url: string, reason: string) {
    super('WEBIMPORT_BAD_URL', `cannot import ${redact(url)}: ${reason}`, { data: { reason } });
  }
}

/** The start page itself could not be fetched as HTML (4xx, not HTML): nothing to import. */
export class WebImportStartFailedError extends WebImportError {
  constructor(url: string, detail: string) {
    super('WEBIMPORT_START_FAILED', `the start page ${url} could not be imported: ${detail}`, { data: { url, detail } });
  }
}

/** The site's robots.txt disallows Folio's user agent the start URL. */
export class WebImportRobotsDisallowedError extends WebImportError {
  constructor(url: string) {
    super('WEBIMPORT_ROBOTS_DISALLOWED', `robots.txt of the site disallows ${url} to Folio's user agent`, { data: { url } });
  }
}

/** Pages and assets together exceed WEBIMPORT_MAX_BYTES. */
export class WebImportTooLargeError extends WebImportError {
  constructor(limit: number, url: string) {
    super('WEBIMPORT_TOO_LARGE', `the import exceeds ${limit} bytes (WEBIMPORT_MAX_BYTES) at ${url}`, { data: { limit, url } });
  }
}

/** One response is larger than the fetcher accepts for it (a page or file, a sitemap, robots.txt): it is not read. */
export class WebImportResponseTooLargeError extends WebImportError {
  readonly limit: number;
  constructor(url: string, limit: number, what: string) {
    super('WEBIMPORT_RESPONSE_TOO_LARGE', `${url} is larger than ${limit} bytes, the most ${what}`, { data: { url, limit } });
    this.limit = limit;
  }
}

/**
 * A response other than 2xx. 429 and 5xx are `retryable` in the fetcher's sense (it retries them itself, within
 * WEBIMPORT_RETRIES); once it throws one, its retries are spent.
 */
export class WebImportHttpError extends WebImportError {
  readonly status: number;
  constructor(url: string, status: number) {
    super('WEBIMPORT_HTTP', `${url} answered HTTP ${status}`, { data: { url, status }, retryable: status === 429 || status >= 500 });
    this.status = status;
  }
}

/** The connection failed (reset, refused, DNS). Retryable. */
export class WebImportNetworkError extends WebImportError {
  constructor(url: string, detail: string, cause?: unknown) {
    super('WEBIMPORT_NETWORK', `fetching ${url} failed: ${detail}`, { data: { url }, retryable: true, cause });
  }
}

/** One request took longer than WEBIMPORT_TIMEOUT_MS. Retryable. */
export class WebImportTimeoutError extends WebImportError {
  constructor(url: string, timeoutMs: number) {
    super('WEBIMPORT_TIMEOUT', `fetching ${url} took longer than ${timeoutMs} ms (WEBIMPORT_TIMEOUT_MS)`, { data: { url, timeoutMs }, retryable: true });
  }
}

/** The host name does not resolve (DNS: no such name): nothing on it can be fetched, so it is never retried. */
export class WebImportHostNotFoundError extends WebImportError {
  constructor(url: string, host: string) {
    super('WEBIMPORT_HOST_NOT_FOUND', `the host ${host} of ${url} does not resolve (no such name in DNS)`, { data: { url, host } });
  }
}

/**
 * The site's robots.txt could not be fetched (no answer in time, the network, a 5xx) after the fetcher's retries:
 * an unreachable robots.txt disallows the whole site (RFC 9309, 2.3.1.4), so nothing is imported.
 */
export class WebImportSiteUnreachableError extends WebImportError {
  constructor(url: string, cause: Error) {
    super('WEBIMPORT_SITE_UNREACHABLE', `the site does not answer: ${url} could not be fetched (${cause.message}); nothing was imported`, {
      data: { url },
      cause,
    });
  }
}

/** The run reached WEBIMPORT_DEADLINE_MS before its start page was fetched (later, the crawl stops with a warning). */
export class WebImportDeadlineError extends WebImportError {
  constructor(deadlineMs: number, what: string) {
    super('WEBIMPORT_DEADLINE', `the import reached its deadline of ${deadlineMs} ms (WEBIMPORT_DEADLINE_MS) ${what}`, { data: { deadlineMs } });
  }
}

/** The crawl found no page that could be imported. */
export class WebImportNoPagesError extends WebImportError {
  constructor(url: string) {
    super('WEBIMPORT_NO_PAGES', `no HTML page could be imported from ${url}`, { data: { url } });
  }
}

/** The run was cancelled: nothing of it reaches the space. */
export class WebImportCancelledError extends WebImportError {
  constructor(operation: string) {
    super('WEBIMPORT_CANCELLED', `${operation} cancelled`);
  }
}

/** The target (space, change request, page) is gone or no longer editable. */
export class WebImportTargetGoneError extends WebImportError {
  constructor(detail: string) {
    super('WEBIMPORT_TARGET_GONE', `the import target is gone: ${detail}`, { data: { detail } });
  }
}
