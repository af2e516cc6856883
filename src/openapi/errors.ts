import { FolioError } from '../errors.js';
import { stripCredentials } from '../redact.js';
import type { OpenApiErrorCode, SpecProblem } from '../store/index.js';

export type { OpenApiErrorCode, SpecProblem };

/**
 * Typed failures of OpenAPI processing. Their `code` is exactly the value stored in the spec's
 * `lastProcessErrorCode` (and the Temporal `ApplicationFailure` type): FETCH_TIMEOUT, FETCH_ERROR, PARSE_ERROR,
 * SPEC_TOO_COMPLEX.
 * FETCH_ERROR covers several failures; `data.reason` tells them apart.
 */

export type FetchFailureReason = 'http-status' | 'network' | 'too-large' | 'too-many-redirects' | 'denied-address' | 'unsupported-url';

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
  constructor(
    reason: FetchFailureReason,
    url: string,
    message: string,
    options: { data?: Record<string, unknown>; retryable?: boolean; cause?: unknown } = {},
  ) {
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
    super(
      'denied-address',
      url,
      `GET ${stripCredentials(url)}: address ${address} is in a denied (private) network; list the host or its network in FETCH_ALLOW_HOSTS to allow it`,
      {
        data: { address, guardCode: 'FETCH_PRIVATE_ADDRESS_DENIED', setting: 'FETCH_ALLOW_HOSTS' },
        cause,
      },
    );
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

/** The document cannot be parsed, a reference cannot be followed, or the document is not a valid specification. */
export class SpecParseError extends FolioError {
  readonly problems: SpecProblem[];
  constructor(problems: SpecProblem[], options: { cause?: unknown } = {}) {
    const first = problems[0];
    super(
      'PARSE_ERROR',
      first
        ? `invalid specification: ${first.location}: ${first.message}${problems.length > 1 ? ` (and ${problems.length - 1} more)` : ''}`
        : 'invalid specification',
      {
        data: { problems },
        cause: options.cause,
      },
    );
    this.problems = problems;
  }
}

/** Which budget a specification went over (see {@link SpecTooComplexError}). */
export type SpecBudget = 'time' | 'memory' | 'stack' | 'aliases';

/**
 * Processing the specification went over a budget: its thread ran longer than the time budget or out of the
 * memory budget, its nesting overflowed the parser's stack, or its YAML aliases expand it beyond the node limit.
 * Processing the same documents again fails the same way: never retried.
 */
export class SpecTooComplexError extends FolioError {
  readonly budget: SpecBudget;
  readonly problems: SpecProblem[];
  constructor(budget: SpecBudget, limit: number | undefined, location = '#', options: { cause?: unknown } = {}) {
    const what =
      budget === 'time'
        ? `processing took longer than the time budget of ${limit} ms`
        : budget === 'memory'
          ? `processing needed more than the memory budget of ${limit} MB`
          : budget === 'stack'
            ? 'the specification is nested too deeply'
            : `YAML aliases expand the document to more than ${limit} nodes`;
    const problems = [{ location, message: what }];
    super('SPEC_TOO_COMPLEX', `specification too complex: ${what}`, {
      data: { budget, ...(limit !== undefined ? { limit } : {}), problems },
      cause: options.cause,
    });
    this.budget = budget;
    this.problems = problems;
  }
}

/** Whether `err`, or an error it wraps, is a JavaScript stack overflow. */
export function isStackOverflow(err: unknown): boolean {
  for (let e = err, depth = 0; e && depth < 10; e = (e as { cause?: unknown }).cause, depth++) {
    if (e instanceof RangeError && /call stack/i.test(e.message)) return true;
    // ref-parser / swagger-parser rethrow with the original message in their own error types.
    if (e instanceof Error && /Maximum call stack size exceeded/.test(e.message)) return true;
  }
  return false;
}
