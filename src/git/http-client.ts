/**
 * The HTTP client handed to isomorphic-git: Node's fetch, bound to an AbortSignal so that
 * cancellation interrupts a transfer in flight (isomorphic-git's fetch does not forward signals).
 * Optionally counts response bytes for progress reporting.
 */
import type { GitHttpRequest, GitHttpResponse, HttpClient } from 'isomorphic-git';

export interface HttpClientOptions {
  signal?: AbortSignal;
  /** Called with the total response bytes received so far. */
  onBytes?: (received: number) => void;
  userAgent?: string;
}

async function collectBody(body: GitHttpRequest['body']): Promise<Uint8Array | undefined> {
  if (!body) return undefined;
  const chunks: Uint8Array[] = [];
  let size = 0;
  for await (const chunk of body as AsyncIterable<Uint8Array> | Iterable<Uint8Array>) {
    chunks.push(chunk);
    size += chunk.byteLength;
  }
  const out = new Uint8Array(size);
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
      const body = await collectBody(req.body);
      const headers: Record<string, string> = { ...(req.headers ?? {}) };
      if (options.userAgent && !Object.keys(headers).some((h) => h.toLowerCase() === 'user-agent')) headers['user-agent'] = options.userAgent;
      const init: RequestInit = { method: req.method ?? 'GET', headers, redirect: 'follow' };
      if (body) init.body = body;
      if (signal) init.signal = signal;
      const res = await fetch(req.url, init);
      const resHeaders: Record<string, string> = {};
      res.headers.forEach((value, key) => {
        resHeaders[key.toLowerCase()] = value;
      });
      const stream = res.body;
      async function* iterate(): AsyncGenerator<Uint8Array> {
        if (!stream) return;
        for await (const chunk of stream as unknown as AsyncIterable<Uint8Array>) {
          received += chunk.byteLength;
          options.onBytes?.(received);
          yield chunk;
        }
      }
      return {
        url: res.url || req.url,
        method: req.method ?? 'GET',
        headers: resHeaders,
        body: iterate(),
        statusCode: res.status,
        statusMessage: res.statusText,
      };
    },
  };
}
