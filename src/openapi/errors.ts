import { FolioError } from '../errors.js';
import { stripCredentials } from '../redact.js';

/**
 * Typed failures of OpenAPI processing. Their `code` is exactly the value stored in the spec's
 * `lastProcessErrorCode` (and the Temporal `ApplicationFailure` type): FETCH_TIMEOUT, FETCH_ERROR, PARSE_ERROR.
 * FETCH_ERROR covers several failures; `data.reason` tells them apart.
 */
export type OpenApiErrorCode = 'FETCH_TIMEOUT' | 'FETCH_ERROR' | 'PARSE_ERROR';

export type FetchFailureReason =
  | 'http-status'
  | 'network'
  | 'too-large'
  | 'too-many-redirects'
  | 'denied-address'
  | 'unsupported-url';

/** The whole fetch (all redirects and the body) did not finish within the timeout. */
export class FetchTimeoutError extends FolioError {
  constructor(url: string, timeoutMs: number) {
    super('FETCH_TIMEOUT', `fetching ${stripCredentials(url)} timed out after ${timeoutMs} ms`, {
      data: { url: stripCredentials(url), timeoutMs },
      retryable: true,
    });
  }
}

/** Base of every FETCH_ERROR failure. */
export class FetchFailedError extends FolioError {
  readonly reason: FetchFailureReason;
  constructor(reason: FetchFailureReason, url: string, message: string, options: { data?: Record<string, unknown>; retryable?: boolean; cause?: unknown } = {}) {
    super('FETCH_ERROR', message, { ...options, data: { reason, url: stripCredentials(url), ...options.data } });
    this.reason = reason;
  }
}

export class FetchHttpStatusError extends FetchFailedError {
  readonly status: number;
  constructor(url: string, status: number) {
    super('http-status', url, `GET ${stripCredentials(url)} answered HTTP ${status}`, { data: { status }, retryable: status >= 500 || status === 429 });
    this.status = status;
  }
}

export class FetchNetworkError extends FetchFailedError {
  constructor(url: string, cause: unknown) {
    const detail = cause instanceof Error ? ((cause as NodeJS.ErrnoException).code ?? cause.message) : String(cause);
    super('network', url, `GET ${stripCredentials(url)} failed: ${detail}`, { data: { detail }, retryable: true, cause });
  }
}

export class FetchTooLargeError extends FetchFailedError {
  constructor(url: string, maxBytes: number) {
    super('too-large', url, `GET ${stripCredentials(url)}: response larger than ${maxBytes} bytes`, { data: { maxBytes } });
  }
}

export class FetchRedirectLimitError extends FetchFailedError {
  constructor(url: string, maxRedirects: number) {
    super('too-many-redirects', url, `GET ${stripCredentials(url)}: more than ${maxRedirects} redirects`, { data: { maxRedirects } });
  }
}

/**
 * The fetch guard refused the destination (src/net: FETCH_PRIVATE_ADDRESS_DENIED): the host is, or resolves to,
 * a loopback, private, link-local or otherwise non-public address that FETCH_ALLOW_HOSTS does not list.
 */
export class FetchDeniedAddressError extends FetchFailedError {
  constructor(url: string, address: string, cause?: unknown) {
    super('denied-address', url, `GET ${stripCredentials(url)}: address ${address} is in a denied (private) network; list the host or its network in FETCH_ALLOW_HOSTS to allow it`, {
      data: { address, guardCode: 'FETCH_PRIVATE_ADDRESS_DENIED', setting: 'FETCH_ALLOW_HOSTS' },
      cause,
    });
  }
}

/** Only absolute http: and https: URLs are fetched. */
export class FetchUnsupportedUrlError extends FetchFailedError {
  constructor(url: string, why: string) {
    super('unsupported-url', url, `cannot fetch ${stripCredentials(url)}: ${why}`);
  }
}

export function isFetchError(err: unknown): err is FetchTimeoutError | FetchFailedError {
  return err instanceof FetchTimeoutError || err instanceof FetchFailedError;
}

/** One problem found in a specification: where (file and/or JSON pointer, or line:column) and what. */
export interface SpecProblem {
  location: string;
  message: string;
}

/** The document cannot be parsed, a reference cannot be followed, or the document is not a valid specification. */
export class SpecParseError extends FolioError {
  readonly problems: SpecProblem[];
  constructor(problems: SpecProblem[], options: { cause?: unknown } = {}) {
    const first = problems[0];
    super('PARSE_ERROR', first ? `invalid specification: ${first.location}: ${first.message}${problems.length > 1 ? ` (and ${problems.length - 1} more)` : ''}` : 'invalid specification', {
      data: { problems },
      cause: options.cause,
    });
    this.problems = problems;
  }
}
