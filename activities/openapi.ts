import { ApplicationFailure, Context, heartbeat } from '@temporalio/activity';
import { NotFoundError } from '../src/errors.js';
import { fetchPolicyFromConfig, type FetchPolicy } from '../src/net/policy.js';
import { processSpecInPool } from '../src/parse-threads/openapi.js';
import { isFolioError } from '../src/errors.js';
import type { ProcessSpecFailure } from '../src/openapi/process.js';
import type { SpecSource } from '../src/store/index.js';
import { deleteRefreshSchedule, updateRefreshScheduleAfterRun } from '../src/temporal/client/openapi-schedule.js';
import type { OpenApiFailureDetails, OpenApiProcessCode } from '../src/temporal/contract/index.js';
import type { ActivityDeps } from './deps.js';
import { openapiPoolOf } from './parse-pool.js';

/** Problems carried in a failure's details: enough to show, small enough for a payload. */
const MAX_FAILURE_PROBLEMS = 50;
const MAX_MESSAGE_LENGTH = 500;

function notFound(err: unknown): never {
  if (err instanceof NotFoundError) throw ApplicationFailure.nonRetryable(err.message, 'NOT_FOUND');
  throw err;
}

/**
 * Processes the spec in a thread of the OpenAPI pool, within its time and memory budgets (this event loop stays
 * free), heartbeating meanwhile: heartbeats are how a cancellation reaches an activity (it ends the thread).
 */
async function processWithHeartbeats(deps: ActivityDeps, policy: FetchPolicy, source: SpecSource, input: { specId: string; run: number }) {
  const beat = setInterval(() => heartbeat({ specId: input.specId, run: input.run }), 2000);
  try {
    return await processSpecInPool(openapiPoolOf(deps), source, {
      fetch: { timeoutMs: deps.config.openapiFetchTimeoutMs, policy },
      signal: Context.current().cancellationSignal,
    });
  } catch (err) {
    // The pool is busy or closing, or its thread died for another reason than a budget: another attempt may pass.
    if (isFolioError(err)) throw ApplicationFailure.retryable(err.message.slice(0, MAX_MESSAGE_LENGTH), err.code);
    throw err;
  } finally {
    clearInterval(beat);
  }
}

/** A failed processing as the typed failure the workflow records (problems truncated to fit a payload). */
function processFailure(result: ProcessSpecFailure): ApplicationFailure {
  const details: OpenApiFailureDetails = {
    errors: result.errors
      .slice(0, MAX_FAILURE_PROBLEMS)
      .map((e) => ({ location: e.location.slice(0, MAX_MESSAGE_LENGTH), message: e.message.slice(0, MAX_MESSAGE_LENGTH) })),
    errorCount: result.errorCount,
  };
  // Timeouts, server and network errors may pass on a retry; a 4xx, a refused address or a bad document will not.
  return ApplicationFailure.create({
    type: result.code satisfies OpenApiProcessCode,
    message: result.message.slice(0, MAX_MESSAGE_LENGTH),
    details: [details],
    nonRetryable: !result.retryable,
  });
}

export function createOpenApiActivities(deps: ActivityDeps) {
  const { store, config, logger } = deps;
  const fetchPolicy = fetchPolicyFromConfig(config);
  const repo = store.openapi;
  return {
    /** Removes the refresh schedule of a spec that no longer exists (false: there was none). */
    async openapiDeleteSchedule(input: { specId: string }): Promise<{ deleted: boolean }> {
      const deleted = await deleteRefreshSchedule(Context.current().client, input.specId);
      if (deleted) logger.info('refresh schedule of a deleted OpenAPI spec removed');
      return { deleted };
    },

    /** Numbers a run for a scheduled refresh (API-started runs are numbered by the API). */
    async openapiStartRun(input: { specId: string }): Promise<{ run: number }> {
      const { run } = await repo.startRun(input.specId).catch(notFound);
      return { run };
    },

    /**
     * Fetches, validates and bundles the spec, and stores a new version when the content changed. Returns a
     * summary; failures are ApplicationFailures typed FETCH_TIMEOUT / FETCH_ERROR / PARSE_ERROR /
     * SPEC_TOO_COMPLEX (over the pool's time or memory budget, or nested too deeply; recorded by
     * the workflow, which also maps this activity's own timeout). Idempotent: a retry finds the same content.
     */
    async openapiProcess(input: {
      specId: string;
      run: number;
    }): Promise<{ versionId: string | null; created: boolean; applied: boolean; warningCount: number }> {
      const spec = await repo.markProgress(input.specId, input.run).catch(notFound);
      const source = await repo.sourceOf(spec).catch(notFound);
      const result = await processWithHeartbeats(deps, fetchPolicy, source, input);
      if (!result.ok) throw processFailure(result);
      const out = await repo.recordSuccess(input.specId, input.run, result).catch(notFound);
      logger.info(
        { run: input.run, created: out.created, applied: out.applied, files: Object.keys(result.filesystem).length, warnings: result.warningCount },
        'OpenAPI spec processed',
      );
      return { versionId: out.version?.id ?? null, created: out.created, applied: out.applied, warningCount: result.warningCount };
    },

    async openapiRecordFailure(
      input: { specId: string; run: number; code: OpenApiProcessCode } & OpenApiFailureDetails,
    ): Promise<{ consecutiveFailures: number; applied: boolean }> {
      const out = await repo.recordFailure(input.specId, input.run, { code: input.code, errors: input.errors, errorCount: input.errorCount }).catch(notFound);
      return { consecutiveFailures: out.spec.consecutiveFailures, applied: out.applied };
    },

    /** Pauses the refresh schedule after repeated failures, resumes a pause of ours after a success. */
    async openapiUpdateSchedule(input: {
      specId: string;
      consecutiveFailures: number;
      lastCode: string | null;
      pauseAfter: number;
    }): Promise<{ paused: boolean } | null> {
      const result = await updateRefreshScheduleAfterRun(Context.current().client, input.specId, input);
      if (result?.changed) logger.info({ paused: result.paused, consecutiveFailures: input.consecutiveFailures }, 'OpenAPI refresh schedule updated');
      return result ? { paused: result.paused } : null;
    },
  };
}
