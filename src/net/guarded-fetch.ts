/**
 * The one way Folio talks to the network on behalf of users (git smart-HTTP, OpenAPI documents and their
 * `$ref`s, the pipelines to come). Every hop of a request, redirects included, goes through the policy: IP
 * literals are checked before connecting, names inside the socket's own `lookup`, so the address that was
 * checked is the address connected to (no DNS-rebinding window). Redirects are followed here, never by a
 * library: credentials (URL userinfo, Authorization, Cookie) are dropped when the origin changes.
 * Content codings: the request asks for exactly `acceptEncoding` (`Accept-Encoding: identity` when none), the body
 * is decoded here as it streams and counted against `maxBodyBytes`, and a coding not asked for is refused
 * (src/net/body.ts).
 */
import type dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import type { Readable } from 'node:stream';
import { acceptEncodingHeader, responseBody, type ContentCoding } from './body.js';
import { FetchRedirectError, FetchUrlRefusedError } from './errors.js';
import { checkDestination, DEFAULT_FETCH_POLICY, systemResolve, type FetchPolicy } from './policy.js';

export const DEFAULT_MAX_REDIRECTS = 5;

export interface GuardedFetchOptions {
  /** Default: {@link DEFAULT_FETCH_POLICY} (every non-public address refused). */
  policy?: FetchPolicy;
  method?: string;
  headers?: Record<string, string>;
  /** Sent on the first hop, and again on a 307/308 redirect (hence bytes, not a stream). */
  body?: Uint8Array;
  /** Aborting it cancels the request and the response body stream (the abort reason is thrown). */
  signal?: AbortSignal;
  /** Default 5; 0 returns redirect responses as they are. */
  maxRedirects?: number;
  /**
   * The content codings the caller takes (sent as `Accept-Encoding`, any such header of `headers` replaced), decoded
   * here as the body streams. Default none: `Accept-Encoding: identity`, and an encoded body fails to read with
   * FETCH_ENCODING_REFUSED. Needs `maxBodyBytes`.
   */
  acceptEncoding?: readonly ContentCoding[];
  /** Largest body, counted as it streams (raw and decoded): past it, reading fails with FETCH_BODY_TOO_LARGE. */
  maxBodyBytes?: number;
}

export interface GuardedResponse {
  /** The URL that answered, after redirects (credentials kept only when the origin did not change). */
  url: string;
  status: number;
  statusMessage: string;
  /** As received (`content-encoding` and `content-length` describe the body on the wire, before decoding). */
  headers: http.IncomingHttpHeaders;
  /**
   * The body, decoded, as a stream (async iterable of Buffers); reading it fails with a typed error when its coding
   * was not asked for or it goes over `maxBodyBytes`. Destroy it when it is not read.
   */
  body: Readable;
  /** Every URL that answered with a redirect, in order. */
  redirects: string[];
}

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);
const CREDENTIAL_HEADERS = new Set(['authorization', 'cookie', 'proxy-authorization']);

export function parseFetchUrl(input: string): URL {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new FetchUrlRefusedError(input, 'not an absolute URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new FetchUrlRefusedError(input, `protocol ${url.protocol} is not allowed`);
  return url;
}

/** One request, guarded on every hop. Network failures are thrown as Node's errors; refusals as typed errors. */
export async function guardedFetch(input: string, options: GuardedFetchOptions = {}): Promise<GuardedResponse> {
  const policy = options.policy ?? DEFAULT_FETCH_POLICY;
  const maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  const accept = options.acceptEncoding ?? [];
  if (accept.length > 0 && options.maxBodyBytes === undefined) throw new TypeError('guardedFetch: acceptEncoding needs maxBodyBytes');
  const redirects: string[] = [];
  let current = parseFetchUrl(input);
  let method = (options.method ?? 'GET').toUpperCase();
  let body = options.body;
  let headers: Record<string, string> = {
    ...Object.fromEntries(Object.entries(options.headers ?? {}).filter(([k]) => k.toLowerCase() !== 'accept-encoding')),
    'accept-encoding': acceptEncodingHeader(accept),
  };
  for (;;) {
    checkLiteral(policy, current);
    const response = await send(current, method, headers, body, policy, options.signal);
    const status = response.statusCode ?? 0;
    const location = response.headers.location;
    if (maxRedirects > 0 && REDIRECT_STATUSES.has(status) && location) {
      response.destroy();
      redirects.push(current.toString());
      if (redirects.length > maxRedirects) throw new FetchRedirectError(input, `more than ${maxRedirects} redirects`, { maxRedirects });
      const next = nextHop(current, location);
      if (next.origin !== current.origin) headers = withoutCredentials(headers);
      // As browsers and fetch do: 303, and 301/302 after a POST, continue as a GET without a body.
      if (status === 303 || ((status === 301 || status === 302) && method === 'POST')) {
        if (method !== 'HEAD') method = 'GET';
        body = undefined;
        headers = Object.fromEntries(Object.entries(headers).filter(([k]) => !/^content-(type|length|encoding)$/i.test(k)));
      }
      current = next;
      continue;
    }
    const decoded = responseBody(response, { url: current.toString(), method, accept, maxBytes: options.maxBodyBytes });
    return { url: current.toString(), status, statusMessage: response.statusMessage ?? '', headers: response.headers, body: decoded, redirects };
  }
}

function bareHostname(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '');
}

function checkLiteral(policy: FetchPolicy, url: URL): void {
  const host = bareHostname(url);
  if (net.isIP(host) !== 0) checkDestination(policy, url.toString(), host, host);
}

function nextHop(from: URL, location: string): URL {
  let next: URL;
  try {
    next = new URL(location, from);
  } catch {
    throw new FetchRedirectError(from.toString(), 'invalid redirect location');
  }
  if (next.protocol !== 'http:' && next.protocol !== 'https:')
    throw new FetchUrlRefusedError(next.toString(), `redirect to protocol ${next.protocol} is not allowed`);
  // Credentials never follow a redirect to another origin or a protocol change.
  if (next.origin !== from.origin) {
    next.username = '';
    next.password = '';
  }
  next.hash = '';
  return next;
}

function withoutCredentials(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(Object.entries(headers).filter(([k]) => !CREDENTIAL_HEADERS.has(k.toLowerCase())));
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

function guardedLookup(url: URL, policy: FetchPolicy) {
  const resolve = policy.resolve ?? systemResolve;
  return (hostname: string, lookupOptions: dns.LookupOptions, callback: LookupCallback): void => {
    resolve(hostname).then(
      (answers) => {
        try {
          // Refuse the host when any of its addresses is refused: a public decoy next to 127.0.0.1 must not pass.
          for (const a of answers) checkDestination(policy, url.toString(), hostname, a.address);
        } catch (err) {
          callback(err as NodeJS.ErrnoException, '', 0);
          return;
        }
        const wanted = lookupOptions.family === 4 || lookupOptions.family === 6 ? answers.filter((a) => a.family === lookupOptions.family) : answers;
        if (wanted.length === 0) {
          const err: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
          err.code = 'ENOTFOUND';
          callback(err, '', 0);
          return;
        }
        if (lookupOptions.all)
          callback(
            null,
            wanted.map((a) => ({ address: a.address, family: a.family })),
          );
        else callback(null, wanted[0]!.address, wanted[0]!.family);
      },
      (err: NodeJS.ErrnoException) => callback(err, '', 0),
    );
  };
}

function send(
  url: URL,
  method: string,
  headers: Record<string, string>,
  body: Uint8Array | undefined,
  policy: FetchPolicy,
  signal: AbortSignal | undefined,
): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    const mod = url.protocol === 'https:' ? https : http;
    const req = mod.request(url, {
      method,
      agent: false,
      headers: body
        ? { ...Object.fromEntries(Object.entries(headers).filter(([k]) => k.toLowerCase() !== 'content-length')), 'content-length': String(body.byteLength) }
        : headers,
      lookup: guardedLookup(url, policy) as unknown as typeof dns.lookup,
      ...(signal ? { signal } : {}),
    });
    req.once('response', resolve);
    req.once('error', reject);
    req.end(body);
  });
}
