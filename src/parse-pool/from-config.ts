/** The parse pool's options from the configuration (FOLIO_PARSE_*): one place for the worker, the activities and the API. */
import type { Config } from '../config/config.js';
import { OperationBudget } from './operation-budget.js';
import type { ParsePoolOptions, ParseTaskOptions } from './pool.js';

export function parsePoolOptions(
  config: Pick<Config, 'parseThreads' | 'parseTimeBudgetMs' | 'parseMemoryBudgetMb' | 'parseQueuePerOrg' | 'parseNice'>,
): ParsePoolOptions {
  return {
    threads: config.parseThreads,
    timeBudgetMs: config.parseTimeBudgetMs,
    memoryBudgetMb: config.parseMemoryBudgetMb,
    maxQueuePerKey: config.parseQueuePerOrg,
    // A thread more than FOLIO_PARSE_THREADS, which no organization gets while it holds all the others.
    spareThreads: 1,
    // Pages only (OpenAPI specs have their pool): a thread ended by a budget is replaced faster.
    preload: [],
    demoteNice: config.parseNice,
    // The time budget counts the thread's CPU time: the threads run at FOLIO_PARSE_NICE, so on a loaded machine a
    // small page (or a thread's first task, which loads its modules) can wait for the CPU longer than the budget.
    // Counted on the wall clock, load alone ended such pages as too complex. The operation's deadline stays wall time.
    budgetClock: 'busy',
  };
}

/**
 * What the parse tasks of one operation (a git import or export, a search indexing) run with: the organization's key
 * (served fairly beside other organizations), a budget of FOLIO_PARSE_OPERATION_BUDGET_MS of CPU time over all its
 * documents with a deadline of FOLIO_PARSE_OPERATION_DEADLINE_MS, and its cancellation (an attempt that was cancelled
 * or abandoned leaves the pool at once).
 */
export function operationParseTask(
  config: Pick<Config, 'parseOperationBudgetMs' | 'parseOperationDeadlineMs'>,
  organizationId: string,
  operation: string,
  signal?: AbortSignal,
): ParseTaskOptions & { budget: OperationBudget } {
  return {
    key: organizationId,
    budget: new OperationBudget({ cpuMs: config.parseOperationBudgetMs, deadlineMs: config.parseOperationDeadlineMs, operation }),
    ...(signal ? { signal } : {}),
  };
}
