import dns from 'node:dns';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import zlib from 'node:zlib';
import type { Readable } from 'node:stream';
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
import { isPrivateAddress } from './private-network.js';

export const DEFAULT_MAX_BYTES = 20 * 1024 * 1024;
export const DEFAULT_MAX_REDIRECTS = 5;

export interface ResolvedAddress {
  address: string;
  family: number;
}

export interface SafeFetchOptions {
  /** Deadline for the whole fetch: every redirect hop and the body. */
  timeoutMs: number;
  /** Cap on the (decoded) body; larger responses fail with FETCH_ERROR (`too-large`). Default 20 MiB. */
  maxBytes?: number;
  /** Default 5. */
  maxRedirects?: number;
  /** Refuse loopback/private/link-local addresses: IP literals and every DNS answer, on every hop. */
  denyPrivateNetworks?: boolean;
  /** Which addresses are refused when `denyPrivateNetworks` is on. Default: {@link isPrivateAddress}. */
  isDeniedAddress?: (address: string) => boolean;
  /** Name resolution. Default: the system resolver (`dns.lookup`, all addresses). */
  resolve?: (hostname: string) => Promise<ResolvedAddress[]>;
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

const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

async function systemResolve(hostname: string): Promise<ResolvedAddress[]> {
  return await dns.promises.lookup(hostname, { all: true, verbatim: true });
}

function bareHostname(url: URL): string {
  return url.hostname.replace(/^\[|\]$/g, '');
}

/**
 * GET one URL the way a server that fetches user-supplied URLs must: http/https only, a deadline over the
 * whole exchange, a body size cap (also after decompression), a bounded number of redirects, and optionally
 * no connection to private networks. The address check runs inside the socket's own `lookup`, so the
 * address that was checked is the address that is connected to (no DNS-rebinding window), on every hop.
 */
export async function safeFetch(input: string, options: SafeFetchOptions): Promise<SafeFetchResult> {
  const maxBytes = options.maxBytes ?? DEFAULT_MAX_BYTES;
  const maxRedirects = options.maxRedirects ?? DEFAULT_MAX_REDIRECTS;
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), options.timeoutMs);
  const signal = options.signal ? AbortSignal.any([deadline.signal, options.signal]) : deadline.signal;
  const redirects: string[] = [];
  let current = parseUrl(input);
  try {
    for (;;) {
      checkLiteralAddress(current, options);
      let response: http.IncomingMessage;
      try {
        response = await request(current, options, signal);
      } catch (err) {
        throw translate(err, current, input, options, deadline.signal);
      }
      const status = response.statusCode ?? 0;
      const location = response.headers.location;
      if (REDIRECT_STATUSES.has(status) && location) {
        response.destroy();
        redirects.push(current.toString());
        if (redirects.length > maxRedirects) throw new FetchRedirectLimitError(input, maxRedirects);
        current = nextHop(current, location);
        continue;
      }
      if (status >= 400) {
        response.destroy();
        throw new FetchHttpStatusError(current.toString(), status);
      }
      if (status < 200 || status >= 300) {
        response.destroy();
        throw new FetchFailedError('http-status', current.toString(), `GET ${current.origin}${current.pathname} answered HTTP ${status} without a usable body`, { data: { status } });
      }
      let body: Buffer;
      try {
        body = await readBody(response, current.toString(), maxBytes);
      } catch (err) {
        throw translate(err, current, input, options, deadline.signal);
      }
      return { url: current.toString(), status, contentType: response.headers['content-type'], body, redirects };
    }
  } finally {
    clearTimeout(timer);
  }
}

function parseUrl(input: string): URL {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    throw new FetchUnsupportedUrlError(input, 'not an absolute URL');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new FetchUnsupportedUrlError(input, `protocol ${url.protocol} is not allowed`);
  return url;
}

function nextHop(from: URL, location: string): URL {
  let next: URL;
  try {
    next = new URL(location, from);
  } catch {
    throw new FetchFailedError('http-status', from.toString(), `GET ${from.origin}${from.pathname}: invalid redirect location`);
  }
  if (next.protocol !== 'http:' && next.protocol !== 'https:') {
    throw new FetchUnsupportedUrlError(next.toString(), `redirect to protocol ${next.protocol} is not allowed`);
  }
  // Credentials never follow a redirect to another origin or a protocol change.
  if (next.origin !== from.origin) {
    next.username = '';
    next.password = '';
  }
  next.hash = '';
  return next;
}

function checkLiteralAddress(url: URL, options: SafeFetchOptions): void {
  if (!options.denyPrivateNetworks) return;
  const host = bareHostname(url);
  if (net.isIP(host) !== 0) {
    const isDenied = options.isDeniedAddress ?? isPrivateAddress;
    if (isDenied(host)) throw new FetchDeniedAddressError(url.toString(), host);
  }
}

type LookupCallback = (err: NodeJS.ErrnoException | null, address: string | dns.LookupAddress[], family?: number) => void;

function guardedLookup(url: URL, options: SafeFetchOptions) {
  const resolve = options.resolve ?? systemResolve;
  const isDenied = options.isDeniedAddress ?? isPrivateAddress;
  return (hostname: string, lookupOptions: dns.LookupOptions, callback: LookupCallback): void => {
    resolve(hostname).then(
      (answers) => {
        const wanted = lookupOptions.family === 4 || lookupOptions.family === 6 ? answers.filter((a) => a.family === lookupOptions.family) : answers;
        if (options.denyPrivateNetworks) {
          // Refuse the host when any of its addresses is private: a public decoy next to 127.0.0.1 must not pass.
          const bad = answers.find((a) => isDenied(a.address));
          if (bad) {
            callback(new FetchDeniedAddressError(url.toString(), bad.address) as unknown as NodeJS.ErrnoException, '', 0);
            return;
          }
        }
        if (wanted.length === 0) {
          const err: NodeJS.ErrnoException = new Error(`getaddrinfo ENOTFOUND ${hostname}`);
          err.code = 'ENOTFOUND';
          callback(err, '', 0);
          return;
        }
        if (lookupOptions.all) callback(null, wanted.map((a) => ({ address: a.address, family: a.family })));
        else callback(null, wanted[0]!.address, wanted[0]!.family);
      },
      (err: NodeJS.ErrnoException) => callback(err, '', 0),
    );
  };
}

function request(url: URL, options: SafeFetchOptions, signal: AbortSignal): Promise<http.IncomingMessage> {
  return new Promise((resolve, reject) => {
    if (signal.aborted) {
      reject(signal.reason);
      return;
    }
    const mod = url.protocol === 'https:' ? https : http;
    const useLookup = options.denyPrivateNetworks || options.resolve !== undefined;
    const req = mod.request(url, {
      method: 'GET',
      agent: false,
      signal,
      headers: {
        accept: 'application/json, application/yaml, text/yaml, application/x-yaml, text/plain;q=0.9, */*;q=0.8',
        'accept-encoding': 'gzip, deflate, br',
        'user-agent': 'folio-openapi-fetcher',
        ...options.headers,
      },
      ...(useLookup ? { lookup: guardedLookup(url, options) as unknown as typeof dns.lookup } : {}),
    });
    req.once('response', resolve);
    req.once('error', reject);
    req.end();
  });
}

function readBody(response: http.IncomingMessage, url: string, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(response.headers['content-length']);
    const encoding = (response.headers['content-encoding'] ?? 'identity').toLowerCase().trim();
    if (Number.isFinite(declared) && declared > maxBytes && (encoding === 'identity' || encoding === '')) {
      response.destroy();
      reject(new FetchTooLargeError(url, maxBytes));
      return;
    }
    let stream: Readable = response;
    if (encoding === 'gzip' || encoding === 'x-gzip') stream = response.pipe(zlib.createGunzip());
    else if (encoding === 'deflate') stream = response.pipe(zlib.createInflate());
    else if (encoding === 'br') stream = response.pipe(zlib.createBrotliDecompress());
    else if (encoding !== 'identity' && encoding !== '') {
      response.destroy();
      reject(new FetchFailedError('http-status', url, `unsupported content-encoding ${encoding}`));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let settled = false;
    const fail = (err: unknown) => {
      if (settled) return;
      settled = true;
      response.destroy();
      if (stream !== response) stream.destroy();
      reject(err);
    };
    stream.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) {
        fail(new FetchTooLargeError(url, maxBytes));
        return;
      }
      chunks.push(chunk);
    });
    stream.once('end', () => {
      if (settled) return;
      settled = true;
      resolve(Buffer.concat(chunks, size));
    });
    stream.once('error', fail);
    response.once('error', fail);
    response.once('aborted', () => fail(new Error('response aborted')));
    if (stream !== response) response.once('close', () => {
      if (!response.complete) fail(new Error('connection closed before the body was complete'));
    });
  });
}

function translate(err: unknown, url: URL, input: string, options: SafeFetchOptions, deadline: AbortSignal): Error {
  if (err instanceof FetchFailedError || err instanceof FetchTimeoutError) return err;
  if (deadline.aborted) return new FetchTimeoutError(input, options.timeoutMs);
  if (options.signal?.aborted) return options.signal.reason instanceof Error ? options.signal.reason : new Error('fetch aborted');
  return new FetchNetworkError(url.toString(), err);
}
