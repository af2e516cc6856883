/**
 * The `git/info` object: the official `GitSyncState.operation` is an object, not nullable: absent until the first
 * operation starts (a space whose first request is still queued), then `{ state, direction, startedAt, … }`.
 */
import { describe, expect, it } from 'vitest';
import { gitInfoObject, gitProvider, gitSyncStateObject } from '../../src/gitsync/info.js';
import { assertContract, assertSchema } from '../helpers/openapi-contract.js';

const queued = {
  requests: [
    {
      requestId: 'imp-1',
      direction: 'import' as const,
      timestamp: '2025-01-01T00:00:00.000Z',
      status: 'queued',
      createdAt: new Date(0),
      updatedAt: new Date(0),
    },
  ],
  queue: null,
};

describe('git/info object', () => {
  it('is null without a repository (the API answers 404: no Git provider configured)', () => {
    expect(gitInfoObject({ spaceId: 's', repo: null, lastImport: null, lastExport: null, operation: null, updatedAt: null }, queued)).toBeNull();
  });

  it('has no operation before the first operation starts (never null); the installation is pending', () => {
    const state = {
      spaceId: 's',
      repo: { url: 'https://git.example.com/org/repo.git', ref: 'refs/heads/main' },
      lastImport: null,
      lastExport: null,
      operation: null,
      updatedAt: null,
    };
    const info = gitInfoObject(state, queued)!;
    expect('operation' in info).toBe(false);
    expect(info.requests).toEqual([expect.objectContaining({ requestId: 'imp-1', status: 'queued' })]);
    expect(info).toMatchObject({ installationStatus: 'pending', installationProvider: 'gitlab', repoName: 'org/repo' });
    assertSchema('GitSyncState', gitSyncStateObject(state));
    assertContract('GET', '/v1/spaces/s/git/info', 200, info);
  });

  it('shows the last export without the paths it recorded for the next one', () => {
    const lastExport = { timestamp: '2025-01-01T00:00:00.000Z', commit: 'c1', revisionId: 'r1', url: 'https://git.example.com/org/repo.git' };
    const state = {
      spaceId: 's',
      repo: { url: lastExport.url, ref: 'refs/heads/main' },
      lastImport: null,
      lastExport: { ...lastExport, exportedPaths: { p1: 'new.md' } },
      operation: null,
      updatedAt: null,
    };
    expect(gitInfoObject(state, queued)!.lastExport).toEqual(lastExport);
    expect(state.lastExport.exportedPaths).toEqual({ p1: 'new.md' });
  });

  it('installation: a stable id per space and repository; the declared or recognised provider; unauthenticated after AUTH_FAILED', () => {
    const base = { lastImport: null, lastExport: null, updatedAt: new Date('2025-01-01T00:00:00.000Z') };
    const repo = { url: 'https://github.com/org/repo.git', ref: 'refs/heads/main' };
    const a = gitSyncStateObject({ ...base, spaceId: 's1', repo, operation: null })!;
    expect(a).toMatchObject({ installationProvider: 'github', installationStatus: 'pending' });
    expect(gitSyncStateObject({ ...base, spaceId: 's1', repo, operation: null })!.installationId).toBe(a.installationId);
    expect(gitSyncStateObject({ ...base, spaceId: 's2', repo, operation: null })!.installationId).not.toBe(a.installationId);
    expect(
      gitSyncStateObject({ ...base, spaceId: 's1', repo: { ...repo, url: 'https://github.com/org/other.git' }, operation: null })!.installationId,
    ).not.toBe(a.installationId);
    expect(gitProvider({ url: 'https://gitlab.com/g/r.git' })).toBe('gitlab');
    expect(gitProvider({ url: 'https://github.acme.corp/g/r.git' })).toBe('github');
    expect(gitProvider({ url: 'https://github.com/g/r.git', provider: 'gitlab' })).toBe('gitlab');
    const denied = gitSyncStateObject({
      ...base,
      spaceId: 's1',
      repo,
      operation: { state: 'failed', direction: 'import', startedAt: '2025-01-01T00:00:00.000Z', error: { code: 'AUTH_FAILED', message: 'HTTP 401' } },
    })!;
    expect(denied.installationStatus).toBe('unauthenticated');
    assertSchema('GitSyncState', denied);
    const ok = gitSyncStateObject({
      ...base,
      spaceId: 's1',
      repo,
      operation: { state: 'failed', direction: 'export', startedAt: '2025-01-01T00:00:00.000Z', error: { code: 'CONFLICT', message: 'a.md' } },
    })!;
    expect(ok.installationStatus).toBe('active');
  });

  it('maps the stored operation onto the spec shape', () => {
    const info = gitInfoObject(
      {
        spaceId: 's',
        repo: { url: 'https://example.com/org/repo.git', ref: 'refs/heads/main' },
        lastImport: null,
        lastExport: null,
        operation: {
          state: 'failed',
          direction: 'export',
          startedAt: '2025-01-01T00:00:00.000Z',
          endedAt: '2025-01-01T00:01:00.000Z',
          requestId: 'exp-1',
          error: { code: 'CONFLICT', message: 'a.md' },
        },
        updatedAt: new Date('2025-01-01T00:01:00.000Z'),
      } as never,
      { requests: [], queue: null },
    );
    assertContract('GET', '/v1/spaces/s/git/info', 200, info);
    expect(info).toMatchObject({
      repoName: 'org/repo',
      operation: {
        state: 'failure',
        direction: 'export',
        startedAt: '2025-01-01T00:00:00.000Z',
        endedAt: '2025-01-01T00:01:00.000Z',
        error: 'CONFLICT: a.md',
        errorCode: 'CONFLICT',
      },
    });
  });
});
