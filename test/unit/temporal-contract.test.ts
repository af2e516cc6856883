import { describe, expect, it } from 'vitest';
import {
  gitSignals,
  gitQueries,
  initialGitQueueState,
  purgeQueries,
  purgeSignals,
  searchAttributes,
  SEARCH_ATTRIBUTES,
} from '../../src/temporal/contract/index.js';
import { devServerArgs } from '../../src/temporal/dev-server.js';
import { enqueueGitRequest } from '../../src/temporal/client/start.js';
import { workflowStarter, type ApiDeps } from '../../src/api/deps.js';
import { loadConfig } from '../../src/config/config.js';
import type { GitSyncRequest } from '../../src/temporal/contract/index.js';
import { runOptions } from '../../src/temporal/client/run-options.js';
import { enqueueGitRequestSignal, gitProgressQuery, gitProgressSignal, gitQueueStateQuery } from '../../workflows/git-definitions.js';
import { purgeDeletionQuery, restoreSpaceSignal } from '../../workflows/purge-definitions.js';

describe('the Temporal contract', () => {
  it('tags a space run with SpaceId, OrganizationId and Operation, and a spec run with OpenApiSpecId instead', () => {
    const names = (subject: Parameters<typeof searchAttributes>[0]) => searchAttributes(subject).map(({ key, value }) => [key.name, key.type, value]);
    expect(names({ spaceId: 's1', organizationId: 'o1', operation: 'git-queue' })).toEqual([
      ['SpaceId', 'KEYWORD', 's1'],
      ['OrganizationId', 'KEYWORD', 'o1'],
      ['Operation', 'KEYWORD', 'git-queue'],
    ]);
    expect(names({ specId: 'p1', organizationId: 'o1', operation: 'openapi-process' })).toEqual([
      ['OpenApiSpecId', 'KEYWORD', 'p1'],
      ['OrganizationId', 'KEYWORD', 'o1'],
      ['Operation', 'KEYWORD', 'openapi-process'],
    ]);
  });

  it('puts the same ids, and nothing else, in the memo of a run', () => {
    expect(runOptions({ spaceId: 's1', organizationId: 'o1', operation: 'purge-space' }).memo).toEqual({ spaceId: 's1', organizationId: 'o1' });
    expect(runOptions({ specId: 'p1', organizationId: 'o1', operation: 'openapi-refresh' }).memo).toEqual({ specId: 'p1', organizationId: 'o1' });
  });

  it('registers every search attribute it sets on the dev server', () => {
    const args = devServerArgs({ binary: 'temporal', port: 7233 });
    const registered = args.flatMap((a, i) => (args[i - 1] === '--search-attribute' ? [a] : []));
    expect(registered.sort()).toEqual(SEARCH_ATTRIBUTES.map((a) => `${a.name}=Keyword`).sort());
  });

  it('persists the dev server with a write-ahead log and dispatches activities eagerly', () => {
    const persisted = devServerArgs({ binary: 'temporal', port: 7233, dbFile: '/data/temporal.sqlite' });
    const pragmas = persisted.flatMap((a, i) => (persisted[i - 1] === '--sqlite-pragma' ? [a] : []));
    expect(pragmas).toEqual(['journal_mode=wal', 'synchronous=normal']);
    const inMemory = devServerArgs({ binary: 'temporal', port: 7233 });
    expect(inMemory).not.toContain('--sqlite-pragma');
    expect(inMemory).toContain('system.enableActivityEagerExecution=true');
  });

  it('is what the workflows define their signals and queries from', () => {
    expect(enqueueGitRequestSignal.name).toBe(gitSignals.enqueue);
    expect(gitProgressSignal.name).toBe(gitSignals.progress);
    expect(gitQueueStateQuery.name).toBe(gitQueries.queueState);
    expect(gitProgressQuery.name).toBe(gitQueries.progress);
    expect(restoreSpaceSignal.name).toBe(purgeSignals.restore);
    expect(purgeDeletionQuery.name).toBe(purgeQueries.deletionId);
  });

  it('starts a git queue empty, on its first run', () => {
    expect(initialGitQueueState('s1', 'o1')).toEqual({
      spaceId: 's1',
      organizationId: 'o1',
      pending: [],
      lastApplied: {},
      seen: [],
      recent: [],
      processed: 0,
      dropped: 0,
      runs: 1,
    });
  });

  it('puts FOLIO_GIT_HEARTBEAT_TIMEOUT_MS and FOLIO_GIT_RETRY_INITIAL_MS in each git request the API queues, and nothing when unset', async () => {
    const request: GitSyncRequest = {
      requestId: 'r1',
      direction: 'import',
      spaceId: 's1',
      organizationId: 'o1',
      url: 'http://127.0.0.1/repo.git',
      ref: 'refs/heads/main',
      timestamp: '2026-01-01T00:00:00.000Z',
      force: false,
      standalone: false,
      projectDirectory: '',
      receivedAt: '2026-01-01T00:00:00.000Z',
    };
    const queued = async (env: Record<string, string>) => {
      const sent: unknown[] = [];
      const temporal = { workflow: { signalWithStart: async (_type: string, options: { signalArgs: unknown[] }) => void sent.push(...options.signalArgs) } };
      const starter = workflowStarter({ config: loadConfig(env), temporal } as unknown as ApiDeps);
      await enqueueGitRequest(starter, { spaceId: 's1', organizationId: 'o1', request });
      return sent;
    };
    expect(await queued({})).toEqual([request]);
    expect(await queued({ FOLIO_GIT_HEARTBEAT_TIMEOUT_MS: '10000', FOLIO_GIT_RETRY_INITIAL_MS: '100' })).toEqual([
      { ...request, heartbeatTimeoutMs: 10_000, retryInitialIntervalMs: 100 },
    ]);
    expect(() => loadConfig({ FOLIO_GIT_HEARTBEAT_TIMEOUT_MS: '10' })).toThrow(/FOLIO_GIT_HEARTBEAT_TIMEOUT_MS/);
  });
});
