/**
 * The `git/info` object and a space's `gitSync` member, both the official `GitSyncState`: `installationId`,
 * `installationProvider`, `installationStatus` (required by the spec), `repoName`, `url`, `operation`,
 * `updatedAt`; `git/info` adds Folio's own members (`repo`, `lastImport`, `lastExport`, `queue`, `requests`).
 * `operation` is `{ state: running|success|failure|timeout, direction, startedAt, endedAt, error }`, absent
 * before the first operation. A space that never asked for a sync has no Git info: the API answers 404 there,
 * as the official spec says ("Returns 404 if no Git provider is configured").
 */
import { createHash } from 'node:crypto';
import type { GitRequestLogRow, GitSyncMark, GitSyncRepo, GitSyncState } from '../store/index.js';
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

/**
 * How Folio's sync reads in the spec's installation terms. Folio has no GitHub App or GitLab integration
 * installation: a space syncs with a plain git URL (and, when the repository wants them, sealed credentials).
 * The spec requires the three installation members all the same, so each gets the value closest to the truth:
 *
 * - `installationId`: the space's own sync configuration is the "installation" (one per space and repository,
 *   never shared): a stable id derived from the space id and the repository URL (without credentials), so
 *   pointing the space at another repository makes another installation.
 * - `installationProvider`: the provider the sync request declared (`gitInfo.provider`, as GitBook's platform
 *   sends it), else the host's (`github.com` and GitHub Enterprise hosts: `github`; GitLab hosts: `gitlab`).
 *   Any other git server is reported as `gitlab`: the spec's enum has no "plain git" value, and GitBook's
 *   GitLab Sync is the one provider the spec knows that connects a repository by its URL and an access token,
 *   on any self-managed host — which is exactly how Folio syncs; `github`/`github-legacy` name GitHub App
 *   installations, which Folio never has. `repo.url` (Folio's member) always shows the real repository.
 * - `installationStatus`: `unauthenticated` when the last operation was refused by the server's
 *   authentication (`AUTH_FAILED`), `active` once an operation ended otherwise, `pending` before that.
 */
export function gitSyncInstallation(spaceId: string, repo: GitSyncRepo, state: Pick<GitSyncState, 'operation' | 'lastImport' | 'lastExport'>) {
  const op = state.operation;
  const ended = op && op.state !== 'running' && op.state !== 'pending';
  const status: 'unauthenticated' | 'active' | 'pending' =
    ended && op.error?.code === 'AUTH_FAILED' ? 'unauthenticated' : ended || state.lastImport || state.lastExport ? 'active' : 'pending';
  return {
    installationId: `git-${createHash('sha256').update(`${spaceId}\n${repo.url}`).digest('hex').slice(0, 20)}`,
    installationProvider: gitProvider(repo),
    installationStatus: status,
  };
}

/** See gitSyncInstallation. */
export function gitProvider(repo: Pick<GitSyncRepo, 'url' | 'provider'>): 'github' | 'gitlab' {
  if (repo.provider === 'github' || repo.provider === 'gitlab') return repo.provider;
  let host = '';
  try {
    host = new URL(repo.url).hostname.toLowerCase();
  } catch {
    // not a URL: no host to go by
  }
  if (host === 'github.com' || host.endsWith('.github.com') || host.split('.').includes('github') || host.endsWith('.ghe.com')) return 'github';
  return 'gitlab';
}

/** The spec's `GitSyncState` of a space (its `gitSync` member): null when the space has no repository. */
export function gitSyncStateObject(state: GitSyncState) {
  const repo = state.repo;
  if (!repo) return null;
  const op = state.operation;
  return {
    ...gitSyncInstallation(state.spaceId, repo, state),
    repoName: repoName(repo.url),
    url: repo.infoURL ?? repo.treeURL ?? repo.url,
    // The spec's `operation` is an object (not nullable): absent until the first operation starts.
    ...(op
      ? {
          operation: {
            state: STATES[op.state] ?? 'failure',
            direction: op.direction,
            startedAt: op.startedAt ?? op.endedAt ?? (state.updatedAt ?? new Date(0)).toISOString(),
            ...(op.endedAt ? { endedAt: op.endedAt } : {}),
            ...(op.error ? { error: `${op.error.code}: ${op.error.message}` } : {}),
          },
        }
      : {}),
    ...(state.updatedAt ? { updatedAt: state.updatedAt.toISOString() } : {}),
  };
}

/** An export mark without the paths it wrote (bookkeeping for the next export, possibly long). */
function withoutExportedPaths(mark: GitSyncMark): GitSyncMark {
  const shown = { ...mark };
  delete shown.exportedPaths;
  return shown;
}

/** `git/info`: the spec's `GitSyncState` plus Folio's members; null when the space has no repository yet. */
export function gitInfoObject(state: GitSyncState, extra: { queue: GitQueueView | null; requests: GitRequestLogRow[] }) {
  const spec = gitSyncStateObject(state);
  const repo = state.repo;
  if (!spec || !repo) return null;
  const op = state.operation;
  return {
    object: 'git-info',
    ...spec,
    repo: { url: repo.url, ref: repo.ref, projectDirectory: repo.projectDirectory ?? '' },
    ...(op && spec.operation
      ? {
          operation: {
            ...spec.operation,
            ...(op.error ? { errorCode: op.error.code } : {}),
            ...(op.requestId ? { requestId: op.requestId } : {}),
            // Folio's addition (the spec has no place for it): the typed warnings of the operation, e.g. pages
            // kept as raw bytes (FORMAT_PAGE_TOO_LARGE, FORMAT_PAGE_INVALID_UTF8, FORMAT_PAGE_BINARY).
            ...(op.warnings ? { warnings: op.warnings } : {}),
          },
        }
      : {}),
    lastImport: state.lastImport,
    lastExport: state.lastExport && withoutExportedPaths(state.lastExport),
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
  };
}
