/**
 * Typed errors of the parse pool (`./pool.ts`): one class per failure, each with a stable `code`.
 */
import { FolioError } from '../errors.js';

/** `operation`: the budget of a whole operation (./operation-budget.ts) was used up, by this task or others. */
export type ParseBudget = 'time' | 'memory' | 'stack' | 'operation';

/**
 * A task went over its budget: it ran longer than the time budget (its thread was terminated), its thread ran
 * out of the memory budget, or the parser overflowed its stack; or the budget of its whole operation was used up
 * (`operation`: its CPU time, or its deadline, `data.kind`). Retrying the same input fails the same way.
 */
export class ParseBudgetExceededError extends FolioError {
  constructor(
    readonly budget: ParseBudget,
    readonly limit: number | undefined,
    operation: string,
    /** For `operation`: which of its limits was reached. */
    readonly kind?: 'cpu' | 'deadline',
  ) {
    const unit = budget === 'time' ? ' ms' : budget === 'memory' ? ' MB' : '';
    const message =
      budget === 'operation'
        ? `${operation} went over its parse ${kind === 'deadline' ? 'deadline' : 'budget'}${limit !== undefined ? ` of ${limit} ms${kind === 'deadline' ? '' : ' of CPU time'}` : ''}`
        : `${operation} went over the ${budget} budget${limit !== undefined ? ` of ${limit}${unit}` : ''}`;
    super('PARSE_BUDGET_EXCEEDED', message, {
      data: { budget, ...(limit !== undefined ? { limit } : {}), operation, ...(kind ? { kind } : {}) },
    });
  }
}

/** The pool's queue is full, or the tenant's share of it (`perKey`): the caller may try again later. */
export class ParsePoolBusyError extends FolioError {
  constructor(maxQueue: number, perKey = false) {
    super('PARSE_POOL_BUSY', `the parse pool's queue is full (${maxQueue} tasks waiting${perKey ? ' for this organization' : ''})`, {
      data: { maxQueue, ...(perKey ? { perOrganization: true } : {}) },
      retryable: true,
    });
  }
}

/** The pool was closed (the process is shutting down) before the task ran. */
export class ParsePoolClosedError extends FolioError {
  constructor() {
    super('PARSE_POOL_CLOSED', 'the parse pool is closed (the process is shutting down)', { retryable: true });
  }
}

/** A pool thread died for another reason than a budget, or the task threw: the message says what. */
export class ParseTaskFailedError extends FolioError {
  constructor(operation: string, message: string, data: Record<string, unknown> = {}) {
    super('PARSE_TASK_FAILED', `${operation} failed: ${message}`, { data: { operation, ...data } });
  }
}
