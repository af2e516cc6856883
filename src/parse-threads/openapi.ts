/**
 * Processes an untrusted OpenAPI specification off the event loop: {@link processSpec} runs in a thread of a
 * parse pool (`src/parse-pool/`), whose budgets bound it (the pool's time budget, best counted as `busy` time so
 * that waiting for `$ref` fetches does not count, and its memory budget). Over a budget the result is the
 * non-retryable SPEC_TOO_COMPLEX; the pool's own failures (busy, closed, a thread that died for another reason)
 * are thrown as they are, retryable.
 */
import { DEFAULT_FETCH_POLICY } from '../net/policy.js';
import { ParseBudgetExceededError } from '../parse-pool/errors.js';
import type { ParsePool } from './pool.js';
import { SpecTooComplexError } from '../openapi/errors.js';
import type { ProcessSpecOptions, ProcessSpecResult, SpecSource } from '../openapi/process.js';
import type { PlainFetchPolicy } from '../openapi/process-in-thread.js';

export async function processSpecInPool(pool: ParsePool, source: SpecSource, options: ProcessSpecOptions): Promise<ProcessSpecResult> {
  const { signal, fetch, ...rest } = options;
  const { signal: _fetchSignal, policy = DEFAULT_FETCH_POLICY, ...fetchRest } = fetch as typeof fetch & { signal?: AbortSignal };
  if (policy.resolve || policy.isDeniedAddress)
    throw new Error('processSpecInPool: a fetch policy with functions (resolve, isDeniedAddress) cannot be handed to a thread');
  const plain: PlainFetchPolicy = { denyPrivateNetworks: policy.denyPrivateNetworks, allowHosts: [...policy.allow.entries] };
  try {
    return await pool.runWith(signal ? { signal } : {}, 'openapi.process', source, { ...rest, fetch: { ...fetchRest, policy: plain } });
  } catch (err) {
    if (!(err instanceof ParseBudgetExceededError)) throw err;
    // A spec has no operation budget (the pool's budget is the whole operation's): `operation` is its time all the same.
    const budget = new SpecTooComplexError(err.budget === 'operation' ? 'time' : err.budget, err.limit, '#', { cause: err });
    return { ok: false, code: 'SPEC_TOO_COMPLEX', message: budget.message, errors: budget.problems, errorCount: budget.problems.length, retryable: false };
  }
}
