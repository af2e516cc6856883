import type { GitSyncRequest } from '../../src/temporal/contract/index.js';

/**
 * Git sync requests for activity-level tests: each one with a new request id and a timestamp a minute after the
 * previous one (so none is stale), organization `org`, branch `main`; exports carry a commit message.
 */
export function gitSyncRequests(urlOf: (repo: string) => string, start = Date.UTC(2025, 10, 1)) {
  let n = 0;
  let tick = start;
  return (spaceId: string, repo: string, direction: 'import' | 'export', extra: Partial<GitSyncRequest> = {}): GitSyncRequest => ({
    requestId: `${direction}-${++n}`,
    direction,
    spaceId,
    organizationId: 'org',
    url: urlOf(repo),
    ref: 'refs/heads/main',
    timestamp: new Date((tick += 60_000)).toISOString(),
    force: false,
    standalone: false,
    projectDirectory: '',
    receivedAt: new Date().toISOString(),
    ...(direction === 'export' ? { commitMessage: 'from Folio' } : {}),
    ...extra,
  });
}
