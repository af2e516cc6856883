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
  | 'WEBIMPORT_HTTP'
  | 'WEBIMPORT_NETWORK'
  | 'WEBIMPORT_TIMEOUT'
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

/** The site has more pages than WEBIMPORT_MAX_PAGES. */
export class WebImportTooManyPagesError extends WebImportError {
  constructor(limit: number) {
    super('WEBIMPORT_TOO_MANY_PAGES', `the site has more than ${limit} pages (WEBIMPORT_MAX_PAGES); import a section of it (a start URL deeper in the site)`, {
      data: { limit },
    });
  }
}

/** Pages and assets together exceed WEBIMPORT_MAX_BYTES (or one response alone does). */
export class WebImportTooLargeError extends WebImportError {
  constructor(limit: number, url?: string) {
    super('WEBIMPORT_TOO_LARGE', `the import exceeds ${limit} bytes (WEBIMPORT_MAX_BYTES)${url ? ` at ${url}` : ''}`, {
      data: { limit, ...(url ? { url } : {}) },
    });
  }
}

/** A response other than 2xx: 429 and 5xx are retryable (after the fetcher's own retries ran out). */
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
