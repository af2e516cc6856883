/**
 * The website import's HTTP client: every request through the guarded fetch, at most `concurrency` requests at once
 * to one host, `delayMs` between two request starts to one host, a timeout per request, retries with exponential
 * backoff on 429, 5xx and network failures (`Retry-After` honoured), and a size cap per response.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { guardedFetch, type GuardedResponse } from '../net/guarded-fetch.js';
import { FetchAddressDeniedError, FetchBodyTooLargeError, FetchEncodingRefusedError, FetchRedirectError, FetchUrlRefusedError } from '../net/errors.js';
import type { FetchPolicy } from '../net/policy.js';
import { WebImportHttpError, WebImportNetworkError, WebImportTimeoutError, WebImportTooLargeError } from './errors.js';
import { WEBIMPORT_USER_AGENT } from './user-agent.js';

export interface PoliteFetcherOptions {
  policy: FetchPolicy;
  /** Requests at once to one host. */
  concurrency: number;
  /** Least time between two request starts to one host. */
  delayMs: number;
  timeoutMs: number;
  /** Retries of a 429, a 5xx, a network failure or a timeout. */
  retries: number;
  /** Largest response accepted (bytes, counted after decoding gzip, deflate or br, which are asked for). */
  maxResponseBytes: number;
  /** First backoff (doubled each retry, capped at 30 s); default 500 ms. */
  backoffMs?: number;
  /** Longest `Retry-After` waited for (default 120 s); a longer one ends the request as a retryable error. */
  maxRetryAfterMs?: number;
  signal?: AbortSignal;
}

export interface FetchedResource {
  url: string;
  /** The URL that answered, after redirects. */
  finalUrl: string;
  status: number;
  contentType: string | null;
  etag: string | null;
  lastModified: string | null;
  bytes: Uint8Array;
}

interface HostSlot {
  active: number;
  waiting: Array<() => void>;
  nextStart: number;
}

/** Seconds or an HTTP date, as milliseconds from now; undefined when absent or unreadable. */
export function retryAfterMs(value: string | string[] | undefined, now = Date.now()): number | undefined {
  const raw = Array.isArray(value) ? value[0] : value;
  if (!raw) return undefined;
  if (/^\s*\d+\s*$/.test(raw)) return Number(raw) * 1000;
  const date = Date.parse(raw);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

function header(response: GuardedResponse, name: string): string | null {
  const v = response.headers[name];
  return Array.isArray(v) ? (v[0] ?? null) : (v ?? null);
}

export class PoliteFetcher {
  private readonly hosts = new Map<string, HostSlot>();
  /** Requests sent (attempts included), for progress and tests. */
  requests = 0;
  retried = 0;
  /** A robots.txt `Crawl-delay`, raising `delayMs` for its host. */
  private readonly hostDelay = new Map<string, number>();

  constructor(private readonly options: PoliteFetcherOptions) {}

  setCrawlDelay(host: string, ms: number): void {
    this.hostDelay.set(host, ms);
  }

  /** GET `url`; a non-2xx answer (after retries) is a WebImportHttpError. */
  async get(url: string, headers: Record<string, string> = {}): Promise<FetchedResource> {
    const { retries } = this.options;
    const backoff = this.options.backoffMs ?? 500;
    for (let attempt = 0; ; attempt++) {
      let wait: number;
      try {
        const result = await this.once(url, headers);
        if (result.kind === 'ok') return result.resource;
        const retryable = result.status === 429 || result.status >= 500;
        if (!retryable || attempt >= retries) throw new WebImportHttpError(url, result.status);
        wait = result.retryAfterMs ?? Math.min(30_000, backoff * 2 ** attempt);
        if (wait > (this.options.maxRetryAfterMs ?? 120_000)) throw new WebImportHttpError(url, result.status);
      } catch (err) {
        if (!(err instanceof WebImportNetworkError || err instanceof WebImportTimeoutError) || attempt >= retries) throw err;
        wait = Math.min(30_000, backoff * 2 ** attempt);
      }
      this.retried++;
      await sleep(wait, undefined, this.options.signal ? { signal: this.options.signal } : undefined);
    }
  }

  private async once(
    url: string,
    headers: Record<string, string>,
  ): Promise<{ kind: 'ok'; resource: FetchedResource } | { kind: 'status'; status: number; retryAfterMs?: number }> {
    const host = new URL(url).host;
    const release = await this.acquire(host);
    const controller = new AbortController();
    const timer = setTimeout(() => controller.abort(new WebImportTimeoutError(url, this.options.timeoutMs)), this.options.timeoutMs);
    const outer = this.options.signal;
    const onAbort = () => controller.abort(outer!.reason);
    outer?.addEventListener('abort', onAbort, { once: true });
    try {
      this.requests++;
      let response: GuardedResponse;
      try {
        response = await guardedFetch(url, {
          policy: this.options.policy,
          headers: { 'user-agent': WEBIMPORT_USER_AGENT, accept: 'text/html,application/xhtml+xml,*/*;q=0.8', ...headers },
          acceptEncoding: ['gzip', 'deflate', 'br'],
          maxBodyBytes: this.options.maxResponseBytes,
          signal: controller.signal,
        });
      } catch (err) {
        throw this.translate(url, err, controller.signal);
      }
      if (response.status < 200 || response.status >= 300) {
        response.body.destroy();
        const after = retryAfterMs(response.headers['retry-after']);
        return { kind: 'status', status: response.status, ...(after !== undefined ? { retryAfterMs: after } : {}) };
      }
      const declared = Number(header(response, 'content-length') ?? NaN);
      if (declared > this.options.maxResponseBytes) {
        response.body.destroy();
        throw new WebImportTooLargeError(this.options.maxResponseBytes, url);
      }
      const chunks: Buffer[] = [];
      let size = 0;
      try {
        for await (const chunk of response.body as AsyncIterable<Buffer>) {
          size += chunk.length;
          if (size > this.options.maxResponseBytes) {
            response.body.destroy();
            throw new WebImportTooLargeError(this.options.maxResponseBytes, url);
          }
          chunks.push(chunk);
        }
      } catch (err) {
        if (err instanceof WebImportTooLargeError) throw err;
        if (err instanceof FetchBodyTooLargeError) throw new WebImportTooLargeError(this.options.maxResponseBytes, url);
        throw this.translate(url, err, controller.signal);
      }
      const bytes = new Uint8Array(Buffer.concat(chunks));
      return {
        kind: 'ok',
        resource: {
          url,
          finalUrl: response.url,
          status: response.status,
          contentType: header(response, 'content-type'),
          etag: header(response, 'etag'),
          lastModified: header(response, 'last-modified'),
          bytes,
        },
      };
    } finally {
      clearTimeout(timer);
      outer?.removeEventListener('abort', onAbort);
      release();
    }
  }

  private translate(url: string, err: unknown, signal: AbortSignal): unknown {
    if (
      err instanceof FetchAddressDeniedError ||
      err instanceof FetchUrlRefusedError ||
      err instanceof FetchRedirectError ||
      err instanceof FetchEncodingRefusedError
    )
      return err;
    if (signal.aborted) return signal.reason instanceof WebImportTimeoutError ? signal.reason : (signal.reason ?? err);
    const e = err as { code?: string; message?: string };
    return new WebImportNetworkError(url, e.code ?? e.message ?? String(err), err);
  }

  private async acquire(host: string): Promise<() => void> {
    let slot = this.hosts.get(host);
    if (!slot) {
      slot = { active: 0, waiting: [], nextStart: 0 };
      this.hosts.set(host, slot);
    }
    const s = slot;
    if (s.active >= this.options.concurrency) await new Promise<void>((resolve) => s.waiting.push(resolve));
    else s.active++;
    const delay = Math.max(this.options.delayMs, this.hostDelay.get(host) ?? 0);
    const now = Date.now();
    const start = Math.max(now, s.nextStart);
    s.nextStart = start + delay;
    if (start > now)
      await sleep(start - now, undefined, this.options.signal ? { signal: this.options.signal } : undefined).catch((err: unknown) => {
        this.releaseSlot(s);
        throw err;
      });
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.releaseSlot(s);
    };
  }

  private releaseSlot(s: HostSlot): void {
    const next = s.waiting.shift();
    if (next) next();
    else s.active--;
  }
}
