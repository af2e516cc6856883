/**
 * Typed refusals of the fetch guard (src/net/guarded-fetch.ts): one class per failure, each with a stable `code`.
 * None is retryable: the same request is refused again. Messages carry credential-free URLs only.
 */
import { FolioError } from '../errors.js';
import { stripCredentials } from '../redact.js';

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
    this.address = address;
  }
}

/** Only absolute http: and https: URLs are fetched, on the first hop and on every redirect. */
export class FetchUrlRefusedError extends FolioError {
  constructor(url: string, why: string) {
    super('FETCH_UNSUPPORTED_URL', `cannot fetch ${stripCredentials(url)}: ${why}`, { data: { url: stripCredentials(url), why } });
  }
}

/** More redirects than allowed (or a redirect without a usable Location). */
export class FetchRedirectError extends FolioError {
  constructor(url: string, why: string, data: Record<string, unknown> = {}) {
    super('FETCH_REDIRECT', `fetching ${stripCredentials(url)}: ${why}`, { data: { url: stripCredentials(url), ...data } });
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
