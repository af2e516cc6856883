/**
 * The HTTP client handed to isomorphic-git: every request goes through the fetch guard (src/net), which checks
 * each hop's address against the policy and follows redirects itself (credentials are not forwarded to another
 * origin). Bound to an AbortSignal so that cancellation interrupts a transfer in flight (isomorphic-git's fetch
 * does not forward signals). Response bodies stream; optionally counts response bytes for progress reporting.
 */
import type { GitHttpRequest, GitHttpResponse, HttpClient } from 'isomorphic-git';
import { guardedFetch } from '../net/guarded-fetch.js';
import { publishBytesReceived } from '../net/observe.js';
import { isRefAdvertisement, type AdvertisementMemo } from './advertisement-memo.js';
import { withUnbornHead } from './unborn-head.js';
import type { FetchPolicy } from '../net/policy.js';

export interface HttpClientOptions {
  signal?: AbortSignal;
  /** Called with the total response bytes received so far. */
  onBytes?: (received: number) => void;
  userAgent?: string;
  /** Which destinations are refused. Default: every non-public address (src/net DEFAULT_FETCH_POLICY). */
  policy?: FetchPolicy;
  /** The operation's memo of ref advertisements: one already received is served from it (once), and kept in it. */
  advertisements?: AdvertisementMemo;
}

async function collectBody(body: GitHttpRequest['body']): Promise<Uint8Array | undefined> {
  if (!body) return undefined;
  const chunks: Uint8Array[] = [];
  for await (const chunk of body as AsyncIterable<Uint8Array> | Iterable<Uint8Array>) chunks.push(chunk);
  return concat(chunks);
}

async function* once(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes;
}

function concat(chunks: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.byteLength, 0));
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.byteLength;
  }
  return out;
}

export function createHttpClient(options: HttpClientOptions = {}): HttpClient {
  let received = 0;
  return {
    async request(req: GitHttpRequest): Promise<GitHttpResponse> {
      const signal = options.signal;
      signal?.throwIfAborted();
      const memo = options.advertisements;
      const advertisement = memo !== undefined && isRefAdvertisement(req.method ?? 'GET', req.url);
      if (advertisement) {
        const kept = memo.take(req.url, req.headers);
        if (kept)
          return {
            url: kept.url,
            method: 'GET',
            headers: { ...kept.headers },
            body: once(kept.body),
            statusCode: kept.statusCode,
            statusMessage: kept.statusMessage,
          };
      }
      // Collected, so that a 307/308 redirect can send it again (git's request bodies are want/have lists and packs).
      const body = await collectBody(req.body);
      const headers: Record<string, string> = { ...(req.headers ?? {}) };
      if (options.userAgent && !Object.keys(headers).some((h) => h.toLowerCase() === 'user-agent')) headers['user-agent'] = options.userAgent;
      const res = await guardedFetch(req.url, {
        method: req.method ?? 'GET',
        headers,
        ...(body ? { body } : {}),
        ...(signal ? { signal } : {}),
        ...(options.policy ? { policy: options.policy } : {}),
      });
      const resHeaders: Record<string, string> = {};
      for (const [key, value] of Object.entries(res.headers)) {
        if (value !== undefined) resHeaders[key.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
      }
      const stream = res.body;
      async function* iterate(): AsyncGenerator<Uint8Array> {
        try {
          for await (const chunk of stream as AsyncIterable<Buffer>) {
            received += chunk.byteLength;
            publishBytesReceived(chunk.byteLength);
            options.onBytes?.(received);
            yield new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength);
          }
        } finally {
          if (!stream.readableEnded) stream.destroy();
        }
      }
      const uploadPackAdvertisement = isRefAdvertisement(req.method ?? 'GET', req.url) && req.url.endsWith('service=git-upload-pack');
      if ((advertisement || uploadPackAdvertisement) && res.status === 200) {
        // Read whole (as isomorphic-git reads an advertisement anyway) and kept for the operation's next request of it.
        const chunks: Uint8Array[] = [];
        for await (const chunk of iterate()) chunks.push(chunk);
        const body = uploadPackAdvertisement ? withUnbornHead(concat(chunks)) : concat(chunks);
        memo?.keep(req.url, req.headers, { url: res.url, statusCode: res.status, statusMessage: res.statusMessage, headers: resHeaders, body });
        return { url: res.url, method: 'GET', headers: { ...resHeaders }, body: once(body), statusCode: res.status, statusMessage: res.statusMessage };
      }
      return {
        url: res.url,
        method: req.method ?? 'GET',
        headers: resHeaders,
        body: iterate(),
        statusCode: res.status,
        statusMessage: res.statusMessage,
      };
    },
  };
}
