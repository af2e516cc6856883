/**
 * Git sync activities: bookkeeping (operation state, request log, vault cleanup) and the two long ones,
 * import and export (./git-import.ts, ./git-export.ts).
 */
import { performance } from 'node:perf_hooks';
import { ApplicationFailure } from '@temporalio/activity';
import { NotFoundError } from '../src/errors.js';
import type { GitOperationResult, GitQueueOutcome, GitSyncRequest } from '../src/temporal/contract/index.js';
import type { ActivityDeps } from './deps.js';
import { gitSyncContext } from '../src/gitsync/context.js';
import { syncRepoOf } from '../src/gitsync/sync-repo.js';
import { createGitImportActivity } from './git-import.js';
import { createGitExportActivity } from './git-export.js';
import { parsePoolOf } from './parse-pool.js';

/** Whether `request` is older than the last applied operation of its direction recorded in the store. */
export function staleAgainst(request: GitSyncRequest, last: { timestamp: string } | null): boolean {
  return !request.force && last !== null && Date.parse(request.timestamp) < Date.parse(last.timestamp);
}

export function createGitSyncActivities(deps: ActivityDeps) {
  const ctx = gitSyncContext({ store: deps.store, config: deps.config, logger: deps.logger, parsePool: () => parsePoolOf(deps) });
  const { store, logger } = deps;
  const log = logger.child({ component: 'git-sync' });
  type OperationEnd = { state: 'success' | 'failure' | 'timeout'; result?: GitOperationResult; error?: { code: string; message: string } };

  /** Marks the operation running, unless the store says the request is stale. Idempotent. */
  async function beginOperation(request: GitSyncRequest): Promise<{ stale: boolean; detail?: string }> {
    const [space, state] = await Promise.all([store.spaces.get(request.spaceId), store.gitSync.get(request.spaceId)]);
    if (!space) throw ApplicationFailure.create({ type: 'NOT_FOUND', message: `space not found: ${request.spaceId}`, nonRetryable: true });
    const last = request.direction === 'import' ? state.lastImport : state.lastExport;
    if (staleAgainst(request, last)) {
      return { stale: true, detail: `older than the last applied ${request.direction} (${last?.timestamp})` };
    }
    await Promise.all([
      store.gitSync.update(request.spaceId, {
        repo: syncRepoOf(request),
        operation: { state: 'running', direction: request.direction, startedAt: new Date().toISOString(), requestId: request.requestId, error: null },
      }),
      store.gitRequests.record(request.spaceId, {
        requestId: request.requestId,
        direction: request.direction,
        timestamp: request.timestamp,
        status: 'running',
      }),
    ]);
    return { stale: false };
  }

  /** Records the end of the operation in `git/info` and the request log. */
  async function recordEnd(request: GitSyncRequest, end: OperationEnd): Promise<void> {
    const state = await store.gitSync.get(request.spaceId).catch(() => null);
    if (!state) return;
    const startedAt = state.operation?.requestId === request.requestId ? state.operation.startedAt : undefined;
    await Promise.all([
      store.gitSync
        .update(request.spaceId, {
          operation: {
            state: end.state,
            direction: request.direction,
            startedAt: startedAt ?? new Date().toISOString(),
            endedAt: new Date().toISOString(),
            requestId: request.requestId,
            error: end.error ?? null,
            ...(end.result?.warnings ? { warnings: end.result.warnings } : {}),
          },
        })
        .catch(() => undefined),
      store.gitRequests
        .record(request.spaceId, {
          requestId: request.requestId,
          direction: request.direction,
          timestamp: request.timestamp,
          status: end.state === 'success' ? (end.result?.outcome === 'noop' ? 'noop' : 'succeeded') : end.state === 'timeout' ? 'timeout' : 'failed',
          code: end.error?.code ?? null,
          message: end.error?.message ?? end.result?.detail ?? null,
        })
        .catch(() => undefined),
    ]);
  }

  /**
   * The whole operation in one activity (the workflow code since the `git-bookkeeping-in-operation-activity` patch):
   * marks it running (or answers `stale`), does the work and records its success, with no workflow task between the
   * three. A failure is recorded by the workflow after the last attempt (`gitFinishOperation`); the credentials are
   * forgotten by the workflow too (`gitForgetCredentials`), after the activity completed: a retry after a completion
   * that was lost still needs them.
   */
  const operation =
    (work: (request: GitSyncRequest) => Promise<GitOperationResult>) =>
    async (request: GitSyncRequest): Promise<GitOperationResult> => {
      const started = performance.now();
      const begun = await beginOperation(request);
      if (begun.stale)
        return { requestId: request.requestId, direction: request.direction, outcome: 'stale', ...(begun.detail ? { detail: begun.detail } : {}) };
      const beginMs = Math.round(performance.now() - started);
      const result = await work(request);
      const recording = performance.now();
      await recordEnd(request, { state: 'success', result });
      // The bookkeeping's own time, next to the work's phases (the benchmark's `phasesMs`).
      return { ...result, timingsMs: { begin: beginMs, ...result.timingsMs, record: Math.round(performance.now() - recording) } };
    };
  const gitImportActivity = createGitImportActivity(ctx);
  const gitExportActivity = createGitExportActivity(ctx);

  return {
    /**
     * Records queue outcomes (dropped, duplicate, failed, …) in the request log; deletes the credentials of
     * requests that will never run, and any expired ones (a request lost on the way).
     */
    async gitRecordOutcome(spaceId: string, outcomes: GitQueueOutcome[]): Promise<void> {
      for (const o of outcomes) if (o.credentialId) await ctx.vault().delete(o.credentialId);
      await ctx.vault().sweep();
      for (const o of outcomes) {
        if (o.status === 'dropped-stale' || o.status === 'duplicate')
          log.info({ spaceId, requestId: o.requestId, direction: o.direction, timestamp: o.timestamp, status: o.status }, 'git request dropped');
        await store.gitRequests
          .record(spaceId, {
            requestId: o.requestId,
            direction: o.direction,
            timestamp: o.timestamp,
            status: o.status,
            code: o.code ?? null,
            message: o.message ?? null,
          })
          .catch((err: unknown) => {
            // The space may be gone (purged): nothing to record then.
            if (!(err instanceof NotFoundError)) throw err;
          });
      }
    },

    /** Marks the operation running, unless the store says the request is stale. Idempotent. */
    gitBeginOperation: beginOperation,

    /** Records the end of the operation in `git/info` and the request log; forgets the credentials. */
    async gitFinishOperation(request: GitSyncRequest, end: OperationEnd): Promise<void> {
      await recordEnd(request, end);
      if (request.credentialId) await ctx.vault().delete(request.credentialId);
      if (end.state !== 'success') log.warn({ requestId: request.requestId, direction: request.direction, code: end.error?.code }, 'git operation failed');
    },

    /** Forgets the credentials of a request that completed (its end already recorded by the operation activity). */
    async gitForgetCredentials(credentialId: string): Promise<void> {
      await ctx.vault().delete(credentialId);
    },

    /** The import, its begin and its success recorded in the one activity (see `operation`). */
    gitImportOperation: operation(gitImportActivity),
    /** The export, its begin and its success recorded in the one activity (see `operation`). */
    gitExportOperation: operation(gitExportActivity),

    gitImportActivity,
    gitExportActivity,
  };
}
