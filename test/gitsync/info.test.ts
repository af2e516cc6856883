/**
 * The `git/info` object: the official `GitSyncState.operation` is an object, not nullable: absent until the first
 * operation starts (a space whose first request is still queued), then `{ state, direction, startedAt, … }`.
 */
import { describe, expect, it } from 'vitest';
import { gitInfoObject } from '../../src/gitsync/info.js';

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
  it('has no operation before the first operation starts (never null)', () => {
    const info = gitInfoObject({ spaceId: 's', repo: null, lastImport: null, lastExport: null, operation: null, updatedAt: null }, queued);
    expect('operation' in info).toBe(false);
    expect(info.requests).toEqual([expect.objectContaining({ requestId: 'imp-1', status: 'queued' })]);
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
