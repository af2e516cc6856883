import type { Readable } from 'node:stream';
import { FetchAddressDeniedError, FetchBodyTooLargeError, FetchEncodingRefusedError, FetchRedirectError, FetchUrlRefusedError } from '../net/errors.js';
import { guardedFetch, DEFAULT_MAX_REDIRECTS } from '../net/guarded-fetch.js';
import type { FetchPolicy } from '../net/policy.js';
import {
  FetchDeniedAddressError,
  FetchFailedError,
  FetchHttpStatusError,
  FetchNetworkError,
  FetchRedirectLimitError,
  FetchTimeoutError,
  FetchTooLargeError,
  FetchUnsupportedUrlError,
} from './errors.js';

export const DEFAULT_MAX_BYTES = 20 * 1024 * 1024;
export { DEFAULT_MAX_REDIRECTS };

export interface SafeFetchOptions {
  /** Deadline for the whole fetch: every redirect hop and the body. */
  timeoutMs: number;
  /** Cap on the (decoded) body; larger responses fail with FETCH_ERROR (`too-large`). Default 20 MiB. */
  maxBytes?: number;
  /** Default 5. */
  maxRedirects?: number;
  /** Which destinations are refused, on every hop (src/net). Default: every non-public address. */
  policy?: FetchPolicy;
  /** Aborting it cancels the fetch (the abort reason is thrown). */
  signal?: AbortSignal;
  headers?: Record<string, string>;
}

export interface SafeFetchResult {
  /** The URL the body came from, after redirects (credentials kept only when the origin did not change). */
  url: string;
  status: number;
  contentType: string | undefined;
  body: Buffer;
  /** Every URL that answered with a redirect, in order. */
  redirects: string[];
}

/**
 * GET one document for OpenAPI processing through the fetch guard ({@link guardedFetch}: http/https only,
 * the address policy on every hop, bounded redirects), with a deadline over the whole exchange and a body
 * size cap (also after decompression). Failures are FETCH_TIMEOUT / FETCH_ERROR errors.
 */
export async function safeFetch(input: string, options: SafeFetchOptions): Promise<SafeFetchResult> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([deadline.signal, options.signal]) : deadline.signal;
  try {
    let res;
    try {
      res = await guardedFetch(input, {
        ...(options.policy ? { policy: options.policy } : {}),
        maxRedirects,
        signal,
        acceptEncoding: ['gzip', 'deflate', 'br'],
        maxBodyBytes: maxBytes,
        headers: {
          accept: 'application/json, application/yaml, text/yaml, application/x-yaml, text/plain;q=0.9, */*;q=0.8',
          'user-agent': 'folio-openapi-fetcher',
          ...options.headers,
        },
      });
    } catch (err) {
      throw translate(err, input, input, options, deadline.signal, maxRedirects);
    }
    const { status, url } = res;
    const response = res.body;
    if (status >= 300 && status < 400 && res.headers.location) {
      response.destroy();
      throw new FetchRedirectLimitError(input, maxRedirects);
    }
    if (status >= 400) {
      response.destroy();
      throw new FetchHttpStatusError(url, status);
    }
    if (status < 200 || status >= 300) {
      response.destroy();
      const u = new URL(url);
      throw new FetchFailedError('http-status', url, `GET ${u.origin}${u.pathname} answered HTTP ${status} without a usable body`, { data: { status } });
    }
    let body: Buffer;
    try {
      body = await readBody(response, url, maxBytes);
    } catch (err) {
      throw translate(err, url, input, options, deadline.signal, maxRedirects);
    }
    return { url, status, contentType: res.headers['content-type'], body, redirects: res.redirects };
  } finally {
    clearTimeout(timer);
  }
}

/** The body, decoded and counted by the guard (`maxBodyBytes`), as one buffer; its refusals typed as FETCH_ERROR. */
async function readBody(response: Readable, url: string, maxBytes: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of response as AsyncIterable<Buffer>) {
      size += chunk.length;
      chunks.push(chunk);
    }
  } catch (err) {
    if (err instanceof FetchBodyTooLargeError) throw new FetchTooLargeError(url, maxBytes);
    if (err instanceof FetchEncodingRefusedError) throw new FetchFailedError('http-status', url, err.message, { cause: err });
    throw err;
  } finally {
    response.destroy();
  }
  return Buffer.concat(chunks, size);
}

function translate(err: unknown, url: string, input: string, options: SafeFetchOptions, deadline: AbortSignal, maxRedirects: number): Error {
  if (err instanceof FetchFailedError || err instanceof FetchTimeoutError) return err;
  if (err instanceof FetchAddressDeniedError) return new FetchDeniedAddressError(String(err.data.url), err.address, err);
  if (err instanceof FetchUrlRefusedError) return new FetchUnsupportedUrlError(String(err.data.url), String(err.data.why));
  if (err instanceof FetchRedirectError) {
    if (err.data.maxRedirects !== undefined) return new FetchRedirectLimitError(input, maxRedirects);
    return new FetchFailedError('http-status', url, err.message, { cause: err });
  }
  if (deadline.aborted) return new FetchTimeoutError(input, options.timeoutMs);
  if (options.signal?.aborted) return options.signal.reason instanceof Error ? options.signal.reason : new Error('fetch aborted');
  return new FetchNetworkError(url, err);
}
