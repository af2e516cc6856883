/**
 * The `git/info` object: the official `GitSyncState` members Folio can fill (`repoName`, `url`,
 * `installationProvider`, `operation`, `updatedAt`) plus Folio's own (`repo`, `lastImport`, `lastExport`,
 * `queue`, `requests`). `operation` is `{ state: running|success|failure|timeout, direction, startedAt,
 * endedAt, error }`, absent before the first operation. A space that never asked for a sync has no Git info:
 * the API answers 404 there, as the official spec says ("Returns 404 if no Git provider is configured").
 */
import type { GitRequestLogRow, GitSyncState } from '../store/index.js';
import type { GitQueueView } from '../temporal/contract/index.js';

const STATES: Record<string, 'running' | 'success' | 'failure' | 'timeout'> = {
  running: 'running',
  pending: 'running',
  success: 'success',
  succeeded: 'success',
  failure: 'failure',
  failed: 'failure',
  cancelled: 'failure',
  timeout: 'timeout',
};

function repoName(url: string): string {
  try {
    const p = new URL(url).pathname.replace(/\/+$/, '').replace(/\.git$/, '');
    return p.split('/').filter(Boolean).slice(-2).join('/');
  } catch {
    return url;
  }
}

export function gitInfoObject(state: GitSyncState, extra: { queue: GitQueueView | null; requests: GitRequestLogRow[] }) {
  const repo = state.repo;
  const op = state.operation;
  return {
    object: 'git-info',
    ...(repo ? { repoName: repoName(repo.url), url: repo.infoURL ?? repo.treeURL ?? repo.url } : {}),
    ...(repo?.provider ? { installationProvider: repo.provider } : {}),
    repo: repo ? { url: repo.url, ref: repo.ref, projectDirectory: repo.projectDirectory ?? '' } : null,
    // The spec's `operation` is an object (not nullable): absent until the first operation starts.
    ...(op
      ? {
          operation: {
            state: STATES[op.state] ?? 'failure',
            direction: op.direction,
            startedAt: op.startedAt,
            ...(op.endedAt ? { endedAt: op.endedAt } : {}),
            ...(op.error ? { error: `${op.error.code}: ${op.error.message}`, errorCode: op.error.code } : {}),
            ...(op.requestId ? { requestId: op.requestId } : {}),
            // Folio's addition (the spec has no place for it): the typed warnings of the operation, e.g. pages
            // kept as raw bytes (FORMAT_PAGE_TOO_LARGE, FORMAT_PAGE_INVALID_UTF8, FORMAT_PAGE_BINARY).
            ...(op.warnings ? { warnings: op.warnings } : {}),
          },
        }
      : {}),
    lastImport: state.lastImport,
    lastExport: state.lastExport,
    queue: extra.queue,
    requests: extra.requests.map((r) => ({
      requestId: r.requestId,
      direction: r.direction,
      timestamp: r.timestamp,
      status: r.status,
      ...(r.code ? { code: r.code } : {}),
      ...(r.message ? { message: r.message } : {}),
      updatedAt: r.updatedAt.toISOString(),
    })),
    ...(state.updatedAt ? { updatedAt: state.updatedAt.toISOString() } : {}),
  };
}
