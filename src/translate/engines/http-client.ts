/**
 * The HTTP side of the hosted engines (and of apertium-apy): every request through the fetch guard, a rate limit
 * per engine, retries with backoff on 429, 5xx and network errors (honouring `Retry-After`, capped), a timeout per
 * request. 401/403 is a TranslationEngineAuthError, another 4xx a non-retryable TranslationEngineError. Error
 * messages carry the status and a short excerpt of the answer, never the request's credentials.
 */
import { guardedFetch } from '../../net/guarded-fetch.js';
import type { FetchPolicy } from '../../net/policy.js';
import { redact } from '../../redact.js';
import { TranslationEngineAuthError, TranslationEngineError, TranslationEngineResponseError } from '../errors.js';
import { RateLimiter, sleep } from './rate-limiter.js';

export interface HttpEngineOptions {
  policy?: FetchPolicy;
  /** Default 5. */
  requestsPerSecond?: number;
  /** Attempts of one request (default 4). */
  attempts?: number;
  /** Default 60 s. */
  timeoutMs?: number;
  /** First backoff (default 500 ms), doubled each attempt, at most 30 s. */
  backoffMs?: number;
}

const MAX_BODY_BYTES = 32 * 1024 * 1024;

export interface HttpRequest {
  method: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  signal?: AbortSignal;
}

export class HttpEngineClient {
  private readonly limiter: RateLimiter;

  constructor(
    private readonly engine: string,
    private readonly options: HttpEngineOptions = {},
  ) {
    this.limiter = new RateLimiter(options.requestsPerSecond ?? 5);
  }

  /** The JSON answer of a 2xx response. */
  async json(url: string, request: HttpRequest): Promise<unknown> {
    const attempts = Math.max(1, this.options.attempts ?? 4);
    let backoff = this.options.backoffMs ?? 500;
    let lastError: unknown;
    for (let attempt = 1; attempt <= attempts; attempt++) {
      await this.limiter.take(request.signal);
      let retryAfterMs: number | undefined;
      try {
        const { status, text, retryAfter } = await this.once(url, request);
        if (status >= 200 && status < 300) {
          try {
            return JSON.parse(text) as unknown;
          } catch {
            throw new TranslationEngineResponseError(this.engine, `the answer is not JSON: ${excerpt(text)}`);
          }
        }
        if (status === 401 || status === 403) throw new TranslationEngineAuthError(this.engine, `the provider refused the credentials (HTTP ${status})`);
        const retryable = status === 429 || status >= 500;
        const err = new TranslationEngineError(this.engine, `HTTP ${status}: ${excerpt(text)}`, { retryable, status });
        if (!retryable) throw err;
        lastError = err;
        retryAfterMs = retryAfter;
      } catch (err) {
        if (err instanceof TranslationEngineAuthError) throw err;
        if (err instanceof TranslationEngineError && !err.retryable) throw err;
        if (request.signal?.aborted) throw err;
        lastError =
          err instanceof TranslationEngineError || err instanceof TranslationEngineResponseError
            ? err
            : new TranslationEngineError(this.engine, `request failed: ${redact(err instanceof Error ? err.message : String(err))}`, { cause: err });
        if ((err as { code?: string }).code === 'FETCH_PRIVATE_ADDRESS_DENIED' || (err as { code?: string }).code === 'FETCH_URL_REFUSED') throw err;
      }
      if (attempt < attempts) {
        await sleep(Math.min(30_000, Math.max(backoff, retryAfterMs ?? 0)), request.signal);
        backoff *= 2;
      }
    }
    throw lastError;
  }

  private async once(url: string, request: HttpRequest): Promise<{ status: number; text: string; retryAfter?: number }> {
    const timeout = AbortSignal.timeout(this.options.timeoutMs ?? 60_000);
    const signal = request.signal ? AbortSignal.any([request.signal, timeout]) : timeout;
    const response = await guardedFetch(url, {
      policy: this.options.policy,
      method: request.method,
      headers: { accept: 'application/json', ...request.headers },
      ...(request.body !== undefined ? { body: Buffer.from(request.body, 'utf8') } : {}),
      signal,
    });
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of response.body as AsyncIterable<Buffer>) {
      size += chunk.length;
      if (size > MAX_BODY_BYTES) {
        response.body.destroy();
        throw new TranslationEngineResponseError(this.engine, `the answer is larger than ${MAX_BODY_BYTES} bytes`);
      }
      chunks.push(chunk);
    }
    const header = response.headers['retry-after'];
    const seconds = typeof header === 'string' ? Number(header) : NaN;
    return { status: response.status, text: Buffer.concat(chunks).toString('utf8'), ...(Number.isFinite(seconds) ? { retryAfter: seconds * 1000 } : {}) };
  }
}

function excerpt(text: string): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return redact(one.length > 300 ? `${one.slice(0, 300)}…` : one);
}
