import type { Config } from '../config/config.js';
import { ParsePool } from './pool.js';

/**
 * The pool of threads that process OpenAPI specs (`processSpecInPool`), sized from the CPU count like the parse
 * pool, with the OpenAPI budgets: FOLIO_OPENAPI_TIME_BUDGET_MS of busy time (waiting for fetches does not count)
 * and FOLIO_OPENAPI_MEMORY_BUDGET_MB of heap per thread, at the parse threads' priority (FOLIO_PARSE_NICE). Threads
 * start on first use.
 */
export function createSpecPool(
  config: Pick<Config, 'parseThreads' | 'openapiTimeBudgetMs' | 'openapiMemoryBudgetMb'> & Partial<Pick<Config, 'parseNice'>>,
): ParsePool {
  return new ParsePool({
    threads: config.parseThreads,
    timeBudgetMs: config.openapiTimeBudgetMs,
    memoryBudgetMb: config.openapiMemoryBudgetMb,
    budgetClock: 'busy',
    maxQueue: 1000,
    ...(config.parseNice !== undefined ? { demoteNice: config.parseNice } : {}),
  });
}
