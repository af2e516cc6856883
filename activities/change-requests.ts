import { ApplicationFailure, Context, heartbeat } from '@temporalio/activity';
import { mergeChangeRequest, updateChangeRequest, type ChangeRequestStepOutcome } from '../src/change-requests/run.js';
import type { MergeBody } from '../src/change-requests/merge.js';
import { FolioError } from '../src/errors.js';
import { ParseBudgetExceededError } from '../src/parse-pool/errors.js';
import { operationParseTask } from '../src/parse-pool/from-config.js';
import type { ChangeRequestMergeInput } from '../src/temporal/contract/index.js';
import type { ActivityDeps } from './deps.js';
import { toFailure } from './git-failures.js';
import { parsePoolOf } from './parse-pool.js';

/**
 * The step of `workflows/change-request-merge.ts`: an update or a merge of a change request over the store
 * (src/change-requests/run.ts), each page's markdown merged in the parse pool (time and memory budgets). Typed,
 * final failures (NOT_FOUND, VALIDATION, CONFLICT with the pages and blocks, PAGE_TOO_COMPLEX) keep their code;
 * store hiccups are retried. Idempotent: a retry finds the revision it built, or the move it made.
 */
export function createChangeRequestActivities(deps: ActivityDeps) {
  return {
    async changeRequestStep(input: ChangeRequestMergeInput): Promise<ChangeRequestStepOutcome> {
      const beat = setInterval(() => heartbeat(), 5000);
      const pool = parsePoolOf(deps);
      // One budget for every page of this merge, beside each page's own; an abandoned attempt leaves the pool.
      const task = operationParseTask(deps.config, input.organizationId, `change request ${input.operation}`, Context.current().cancellationSignal);
      const mergeBody: MergeBody = async (base, ours, theirs) => {
        heartbeat();
        return pool.runWith(task, 'page.merge3', base, ours, theirs);
      };
      try {
        const target = { spaceId: input.spaceId, changeRequestId: input.changeRequestId };
        return input.operation === 'merge'
          ? await mergeChangeRequest(deps.store, { ...target, mergedBy: input.actor }, { mergeBody })
          : await updateChangeRequest(deps.store, target, { mergeBody });
      } catch (err) {
        if (err instanceof ParseBudgetExceededError)
          throw ApplicationFailure.create({
            type: 'PAGE_TOO_COMPLEX',
            message: `a page is too complex to merge (over the ${err.budget} budget)`,
            nonRetryable: true,
          });
        if (err instanceof FolioError && !err.retryable)
          throw ApplicationFailure.create({ type: err.code, message: err.message, details: [err.data], nonRetryable: true });
        throw toFailure(err);
      } finally {
        clearInterval(beat);
      }
    },
  };
}
