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

/**
 * The most one response of a website import may hold (bytes, counted after decoding its content coding): a page or
 * an asset is held whole in memory; WEBIMPORT_MAX_BYTES, when smaller, is the limit instead.
 */
export const WEBIMPORT_MAX_RESPONSE_BYTES = 256 * 1024 * 1024;

/** `n` bytes in MiB or KiB, for messages. */
function humanBytes(n: number): string {
  if (n >= 1024 * 1024) return `${+(n / 1024 / 1024).toFixed(1)} MiB`;
  return n >= 1024 ? `${+(n / 1024).toFixed(1)} KiB` : `${n} bytes`;
}

/**
 * Pages and assets together exceed WEBIMPORT_MAX_BYTES (no `url`), or one response alone is larger than a response
 * may be (`url`): WEBIMPORT_MAX_RESPONSE_BYTES, or WEBIMPORT_MAX_BYTES when that is smaller. The message names the
 * limit that was hit, with its value.
 */
export class WebImportTooLargeError extends WebImportError {
  constructor(limit: number, url?: string) {
    const byVariable = url === undefined || limit < WEBIMPORT_MAX_RESPONSE_BYTES;
    const message =
      url === undefined
        ? `the import exceeds ${limit} bytes (${humanBytes(limit)}), the limit of WEBIMPORT_MAX_BYTES`
        : byVariable
          ? `${url} is larger than ${limit} bytes (${humanBytes(limit)}), the limit of WEBIMPORT_MAX_BYTES for the whole import`
          : `${url} is larger than ${limit} bytes (${humanBytes(limit)}), the most one response of a website import may hold`;
    super('WEBIMPORT_TOO_LARGE', message, {
      data: { limit, scope: url === undefined ? 'import' : 'response', ...(byVariable ? { setting: 'WEBIMPORT_MAX_BYTES' } : {}), ...(url ? { url } : {}) },
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
