/**
 * Typed errors of the website import: one class per failure, each with a stable `code` and `retryable`. Messages
 * carry credential-free URLs only (the start URL is refused when it holds credentials).
 */
import { FolioError, NotFoundError } from '../errors.js';
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

/** The import run is not in the store (of its organization): its workflow has nothing to run. */
export class ImportRunNotFoundError extends NotFoundError {
  constructor(runId: string) {
    super('import run', runId);
  }
}

/** The target space is locked (editMode: locked) and the run does not go into a change request. */
export class ImportTargetLockedError extends FolioError {
  constructor(spaceId: string) {
    super('LOCKED', `space ${spaceId} is locked (editMode: locked)`);
  }
}
