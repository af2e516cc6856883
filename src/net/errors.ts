/**
 * Typed refusals of the fetch guard (src/net/guarded-fetch.ts): one class per failure, each with a stable `code`.
 * None is retryable: the same request is refused again. Messages carry credential-free URLs only.
 */
import { FolioError } from '../errors.js';
import { stripCredentials } from '../redact.js';
import { publishRefusal } from './observe.js';

/**
 * The destination is (or resolves to) a loopback, private, link-local, metadata or otherwise non-public address
 * and is not allowlisted. The message names the setting that allows it.
 */
export class FetchAddressDeniedError extends FolioError {
  readonly address: string;
  constructor(url: string, host: string, address: string) {
    const where = host === address ? address : `${host} (${address})`;
    super(
      'FETCH_PRIVATE_ADDRESS_DENIED',
      `refused to connect to ${where} for ${stripCredentials(url)}: private, loopback, link-local and metadata addresses are denied; list the host or its network in FETCH_ALLOW_HOSTS to allow it`,
      { data: { url: stripCredentials(url), host, address, setting: 'FETCH_ALLOW_HOSTS' } },
    );
    publishRefusal(this.code);
    this.address = address;
  }
}

/** Only absolute http: and https: URLs are fetched, on the first hop and on every redirect. */
export class FetchUrlRefusedError extends FolioError {
  constructor(url: string, why: string) {
    super('FETCH_UNSUPPORTED_URL', `cannot fetch ${stripCredentials(url)}: ${why}`, { data: { url: stripCredentials(url), why } });
    publishRefusal(this.code);
  }
}

/** More redirects than allowed (or a redirect without a usable Location). */
export class FetchRedirectError extends FolioError {
  constructor(url: string, why: string, data: Record<string, unknown> = {}) {
    super('FETCH_REDIRECT', `fetching ${stripCredentials(url)}: ${why}`, { data: { url: stripCredentials(url), ...data } });
    publishRefusal(this.code);
  }
}

/**
 * A URL given to Folio (a git remote, a spec to fetch) that is not an absolute http(s) URL with a host. The message
 * never repeats the URL: it may hold a secret.
 */
export class UrlInvalidError extends FolioError {
  constructor(why: string) {
    super('URL_INVALID', `url ${why}`, { data: { why } });
  }
}

/**
 * The response's `Content-Encoding` is one the request did not ask for in `Accept-Encoding` (or one Folio cannot
 * decode): its body is refused rather than guessed at.
 */
export class FetchEncodingRefusedError extends FolioError {
  constructor(url: string, encoding: string, asked: string, why: string) {
    super(
      'FETCH_ENCODING_REFUSED',
      `${stripCredentials(url)} answered with Content-Encoding: ${encoding}, refused: ${why} (the request's Accept-Encoding: ${asked})`,
      { data: { url: stripCredentials(url), encoding, acceptEncoding: asked } },
    );
    publishRefusal(this.code);
  }
}

/**
 * The body went over the caller's limit, counted as it streamed: its raw bytes, or its bytes once decoded
 * (`stage`: the content coding whose output went over). `declared`: a Content-Length over the limit, nothing read.
 */
export class FetchBodyTooLargeError extends FolioError {
  readonly limit: number;
  constructor(url: string, limit: number, detail: { stage?: string; declared?: number } = {}) {
    const how =
      detail.declared !== undefined
        ? `(Content-Length: ${detail.declared})`
        : detail.stage && detail.stage !== 'raw'
          ? `once decoded (${detail.stage})`
          : 'as received';
    super('FETCH_BODY_TOO_LARGE', `the body of ${stripCredentials(url)} is larger than ${limit} bytes ${how}`, {
      data: { url: stripCredentials(url), limit, ...detail },
    });
    publishRefusal(this.code);
    this.limit = limit;
  }
}
