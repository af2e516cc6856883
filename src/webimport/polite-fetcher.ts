/**
 * The website import's HTTP client: every request through the guarded fetch, at most `concurrency` requests at once
 * to one host, `delayMs` between two request starts to one host, a timeout per request, retries with exponential
 * backoff on 429, 5xx and network failures (`Retry-After` honoured), a size cap per response, a retry budget for the
 * whole run and the run's deadline (no request starts, and no retry waits, past it).
 *
 * Failures are typed: WebImportHttpError (its retries spent), WebImportNetworkError, WebImportTimeoutError,
 * WebImportHostNotFoundError (never retried: the name does not exist), WebImportResponseTooLargeError,
 * WebImportDeadlineError, and the guard's refusals (FETCH_*). Each failing error says in `data.attempts` how many
 * requests it took.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { abortRelay } from '../abort-relay.js';
import { guardedFetch, type GuardedResponse } from '../net/guarded-fetch.js';
import { FetchAddressDeniedError, FetchBodyTooLargeError, FetchEncodingRefusedError, FetchRedirectError, FetchUrlRefusedError } from '../net/errors.js';
import type { FetchPolicy } from '../net/policy.js';
import {
  WebImportDeadlineError,
  WebImportError,
  WebImportHostNotFoundError,
  WebImportHttpError,
  WebImportNetworkError,
  WebImportResponseTooLargeError,
  WebImportTimeoutError,
} from './errors.js';
import { WEBIMPORT_USER_AGENT } from './user-agent.js';

export interface PoliteFetcherOptions {
  policy: FetchPolicy;
  /** Requests at once to one host. */
  concurrency: number;
  /** Least time between two request starts to one host. */
  delayMs: number;
  timeoutMs: number;
  /** Retries of one request (a 429, a 5xx, a network failure or a timeout): a URL is requested at most 1 + retries times. */
  retries: number;
  /** Retries of all requests together; once spent, a failing request is not retried (`retryBudgetSpent`). Default: no bound. */
  runRetries?: number;
  /** Largest response accepted (bytes, counted after decoding gzip, deflate or br, which are asked for), unless a request asks for less. */
  maxResponseBytes: number;
  /** The run's deadline: epoch milliseconds, and the setting it came from (for messages). */
  deadline?: { at: number; ms: number };
  /** First backoff (doubled each retry, capped at 30 s); default 500 ms. */
  backoffMs?: number;
  /** Longest `Retry-After` waited for (default 120 s); a longer one ends the request as a retryable error. */
  maxRetryAfterMs?: number;
  signal?: AbortSignal;
}

export interface GetOptions {
  headers?: Record<string, string>;
  /** Largest response accepted for this request (at most the fetcher's `maxResponseBytes`). */
  maxBytes?: number;
  /** What the size limit is, for the message: `the most ${what}` (default "one response may have"). */
  what?: string;
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

/** `err`, with the number of requests it took in its data (typed errors only). */
function attempts(err: unknown, attempt: number): unknown {
  if (err instanceof WebImportError || err instanceof FetchAddressDeniedError || err instanceof FetchUrlRefusedError || err instanceof FetchRedirectError)
    err.data.attempts = attempt + 1;
  return err;
}

/** The body of a 2xx response, at most `limit` bytes (WebImportResponseTooLargeError beyond, the rest not read). */
async function readBody(url: string, response: GuardedResponse, limit: number, what: string): Promise<Uint8Array> {
  const declared = Number(header(response, 'content-length') ?? NaN);
  if (declared > limit) {
    response.body.destroy();
    throw new WebImportResponseTooLargeError(url, limit, what);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of response.body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > limit) {
        response.body.destroy();
        throw new WebImportResponseTooLargeError(url, limit, what);
      }
      chunks.push(chunk);
    }
  } catch (err) {
    // The guarded fetch counts the decoded bytes of a compressed body against the same limit as they stream.
    if (err instanceof FetchBodyTooLargeError) throw new WebImportResponseTooLargeError(url, limit, what);
    throw err;
  }
  return new Uint8Array(Buffer.concat(chunks));
}

export class PoliteFetcher {
  private readonly hosts = new Map<string, HostSlot>();
  /** Requests sent (attempts included), for progress and tests. */
  requests = 0;
  /** Retries made (of `runRetries`). */
  retried = 0;
  /** A request failed that was not retried because `runRetries` were spent. */
  retryBudgetSpent = false;
  /** A robots.txt `Crawl-delay`, raising `delayMs` for its host. */
  private readonly hostDelay = new Map<string, number>();

  /** The run's signal through one listener on it (../abort-relay.ts): every request and wait listens here. */
  private readonly stop: AbortSignal | undefined;

  constructor(private readonly options: PoliteFetcherOptions) {
    this.stop = options.signal ? abortRelay(options.signal) : undefined;
  }

  setCrawlDelay(host: string, ms: number): void {
    this.hostDelay.set(host, ms);
  }

  /** GET `url`; a non-2xx answer (after retries) is a WebImportHttpError. */
  async get(url: string, options: GetOptions = {}): Promise<FetchedResource> {
    const { retries, runRetries } = this.options;
    const backoff = this.options.backoffMs ?? 500;
    for (let attempt = 0; ; attempt++) {
      let failure: WebImportError;
      let wait: number;
      try {
        const result = await this.once(url, options);
        if (result.kind === 'ok') return result.resource;
        failure = new WebImportHttpError(url, result.status);
        wait = result.retryAfterMs ?? Math.min(30_000, backoff * 2 ** attempt);
        if (!failure.retryable || wait > (this.options.maxRetryAfterMs ?? 120_000)) throw attempts(failure, attempt);
      } catch (err) {
        if (!(err instanceof WebImportNetworkError || err instanceof WebImportTimeoutError)) throw attempts(err, attempt);
        failure = err;
        wait = Math.min(30_000, backoff * 2 ** attempt);
      }
      if (attempt >= retries) throw attempts(failure, attempt);
      if (runRetries !== undefined && this.retried >= runRetries) {
        this.retryBudgetSpent = true;
        throw attempts(failure, attempt);
      }
      const deadline = this.options.deadline;
      if (deadline && Date.now() + wait >= deadline.at) throw attempts(new WebImportDeadlineError(deadline.ms, `while ${url} was retried`), attempt);
      this.retried++;
      await sleep(wait, undefined, this.stop ? { signal: this.stop } : undefined);
    }
  }

  private async once(
    url: string,
    options: GetOptions,
  ): Promise<{ kind: 'ok'; resource: FetchedResource } | { kind: 'status'; status: number; retryAfterMs?: number }> {
    const deadline = this.options.deadline;
    const host = new URL(url).host;
    const release = await this.acquire(host);
    const controller = new AbortController();
    const left = deadline ? deadline.at - Date.now() : Infinity;
    const outer = this.stop;
    const onAbort = () => controller.abort(outer!.reason);
    // A run stopped while this request waited for its turn: it is not sent.
    if (outer?.aborted) onAbort();
    else outer?.addEventListener('abort', onAbort, { once: true });
    // The timeout of this request, or the run's deadline when it comes first.
    const timer =
      left < this.options.timeoutMs
        ? setTimeout(() => controller.abort(new WebImportDeadlineError(deadline!.ms, `while ${url} was fetched`)), Math.max(0, left))
        : setTimeout(() => controller.abort(new WebImportTimeoutError(url, this.options.timeoutMs)), this.options.timeoutMs);
    try {
      if (left <= 0) throw new WebImportDeadlineError(deadline!.ms, `before ${url} was fetched`);
      this.requests++;
      const response = await guardedFetch(url, {
        policy: this.options.policy,
        headers: { 'user-agent': WEBIMPORT_USER_AGENT, accept: 'text/html,application/xhtml+xml,*/*;q=0.8', ...options.headers },
        acceptEncoding: ['gzip', 'deflate', 'br'],
        maxBodyBytes: this.options.maxResponseBytes,
        signal: controller.signal,
      });
      if (response.status < 200 || response.status >= 300) {
        response.body.destroy();
        const after = retryAfterMs(response.headers['retry-after']);
        return { kind: 'status', status: response.status, ...(after !== undefined ? { retryAfterMs: after } : {}) };
      }
      const limit = Math.min(options.maxBytes ?? Infinity, this.options.maxResponseBytes);
      const bytes = await readBody(url, response, limit, options.what ?? 'one response may have');
      const resource = {
        url,
        finalUrl: response.url,
        status: response.status,
        contentType: header(response, 'content-type'),
        etag: header(response, 'etag'),
        lastModified: header(response, 'last-modified'),
        bytes,
      };
      return { kind: 'ok', resource };
    } catch (err) {
      throw this.translate(url, err, controller.signal);
    } finally {
      clearTimeout(timer);
      outer?.removeEventListener('abort', onAbort);
      release();
    }
  }

  private translate(url: string, err: unknown, signal: AbortSignal): unknown {
    if (
      err instanceof WebImportError ||
      err instanceof FetchAddressDeniedError ||
      err instanceof FetchUrlRefusedError ||
      err instanceof FetchRedirectError ||
      err instanceof FetchEncodingRefusedError
    )
      return err;
    if (signal.aborted) return signal.reason ?? err;
    const e = err as { code?: string; message?: string; hostname?: string };
    // No such name (NXDOMAIN, or no address at all): asking again cannot help. EAI_AGAIN (the resolver failed) is retried.
    if (e.code === 'ENOTFOUND') return new WebImportHostNotFoundError(url, e.hostname ?? new URL(url).hostname);
    return new WebImportNetworkError(url, e.code ?? e.message ?? String(err), err);
  }

  private async acquire(host: string): Promise<() => void> {
    let slot = this.hosts.get(host);
    if (!slot) {
      slot = { active: 0, waiting: [], nextStart: 0 };
      this.hosts.set(host, slot);
    }
    const s = slot;
    // A robots.txt Crawl-delay asks for that long between requests: one at a time, the next one starting that long
    // after the last one ended (as `wget --wait`), so that the host sees them at least that far apart however late
    // a loaded machine sent the last one.
    const crawlDelay = this.hostDelay.get(host);
    const limit = crawlDelay === undefined ? this.options.concurrency : 1;
    if (s.active >= limit) await new Promise<void>((resolve) => s.waiting.push(resolve));
    else s.active++;
    const delay = Math.max(this.options.delayMs, crawlDelay ?? 0);
    const now = Date.now();
    const start = Math.max(now, s.nextStart);
    s.nextStart = start + delay;
    if (start > now)
      await sleep(start - now, undefined, this.stop ? { signal: this.stop } : undefined).catch((err: unknown) => {
        this.releaseSlot(s);
        throw err;
      });
    let released = false;
    return () => {
      if (released) return;
      released = true;
      if (crawlDelay !== undefined) s.nextStart = Math.max(s.nextStart, Date.now() + crawlDelay);
      this.releaseSlot(s);
    };
  }

  private releaseSlot(s: HostSlot): void {
    const next = s.waiting.shift();
    if (next) next();
    else s.active--;
  }
}
