/**
 * The bookkeeping of a git sync operation around its work (import or export): the operation state in `git/info`, the
 * request log, the stale-request check, the queue's outcomes and the request's credentials in the vault.
 */
import { performance } from 'node:perf_hooks';
import { NotFoundError } from '../errors.js';
import type { GitOperationResult, GitQueueOutcome, GitSyncRequest } from '../temporal/contract/index.js';
import type { Logger } from '../log.js';
import type { GitSyncContext } from './context.js';
import { GitSyncError } from './errors.js';
import { syncRepoOf } from './sync-repo.js';

/** Whether `request` is older than the last applied operation of its direction recorded in the store. */
export function staleAgainst(request: GitSyncRequest, last: { timestamp: string } | null): boolean {
  return !request.force && last !== null && Date.parse(request.timestamp) < Date.parse(last.timestamp);
}

export type OperationEnd = { state: 'success' | 'failure' | 'timeout'; result?: GitOperationResult; error?: { code: string; message: string } };

/** The bookkeeping of the operations of one worker (its logger, store and vault). */
export class GitBookkeeping {
  private readonly log: Logger;

  constructor(private readonly ctx: GitSyncContext) {
    this.log = ctx.logger.child({ component: 'git-sync' });
  }

  /** Marks the operation running, unless the store says the request is stale. Idempotent. */
  async beginOperation(request: GitSyncRequest): Promise<{ stale: boolean; detail?: string }> {
    const { store } = this.ctx;
    const [space, state] = await Promise.all([store.spaces.get(request.spaceId), store.gitSync.get(request.spaceId)]);
    if (!space) throw new GitSyncError('NOT_FOUND', `space not found: ${request.spaceId}`);
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
  async recordEnd(request: GitSyncRequest, end: OperationEnd): Promise<void> {
    const { store } = this.ctx;
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
   * The whole operation: marks it running (or answers `stale`), does the work and records its success, with nothing
   * between the three. A failure is recorded after the last attempt (`finishOperation`); the credentials are forgotten
   * after the operation completed too (`forgetCredentials`): a retry after a completion that was lost still needs them.
   */
  async runOperation(request: GitSyncRequest, work: (request: GitSyncRequest) => Promise<GitOperationResult>): Promise<GitOperationResult> {
    const started = performance.now();
    const begun = await this.beginOperation(request);
    if (begun.stale) return { requestId: request.requestId, direction: request.direction, outcome: 'stale', ...(begun.detail ? { detail: begun.detail } : {}) };
    const beginMs = Math.round(performance.now() - started);
    const result = await work(request);
    const recording = performance.now();
    await this.recordEnd(request, { state: 'success', result });
    // The bookkeeping's own time, next to the work's phases (the benchmark's `phasesMs`).
    return { ...result, timingsMs: { begin: beginMs, ...result.timingsMs, record: Math.round(performance.now() - recording) } };
  }

  /**
   * Records queue outcomes (dropped, duplicate, failed, …) in the request log; deletes the credentials of
   * requests that will never run, and any expired ones (a request lost on the way).
   */
  async recordOutcomes(spaceId: string, outcomes: GitQueueOutcome[]): Promise<void> {
    const { store } = this.ctx;
    for (const o of outcomes) if (o.credentialId) await this.ctx.vault().delete(o.credentialId);
    await this.ctx.vault().sweep();
    for (const o of outcomes) {
      if (o.status === 'dropped-stale' || o.status === 'duplicate')
        this.log.info({ spaceId, requestId: o.requestId, direction: o.direction, timestamp: o.timestamp, status: o.status }, 'git request dropped');
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
  }

  /** Records the end of the operation in `git/info` and the request log; forgets the credentials. */
  async finishOperation(request: GitSyncRequest, end: OperationEnd): Promise<void> {
    await this.recordEnd(request, end);
    if (request.credentialId) await this.ctx.vault().delete(request.credentialId);
    if (end.state !== 'success') this.log.warn({ requestId: request.requestId, direction: request.direction, code: end.error?.code }, 'git operation failed');
  }

  /** Forgets the credentials of a request that completed (its end already recorded by `runOperation`). */
  async forgetCredentials(credentialId: string): Promise<void> {
    await this.ctx.vault().delete(credentialId);
  }
}
