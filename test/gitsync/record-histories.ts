/**
 * Records the fixture histories of `replay.test.ts` with the current workflow code: a git queue of the space
 * `space-replay` and its children (an applied import with a search-index child, a no-op, a failed import, a stale one,
 * an import with credentials, an export), run on the test dev server with fake activities. Run it once per workflow
 * version whose command sequence changed, with the name of the new directory:
 *
 *   HISTORY_VERSION=3-bookkeeping-in-activity npx vitest run --config test/gitsync/record-histories.config.ts
 *
 * Not part of `npm test` (its own config; the file is not a `.test.ts`).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ApplicationFailure } from '@temporalio/common';
import { historyToJSON } from '@temporalio/common/lib/proto-utils.js';
import { expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { initialGitQueueState, searchIndexWorkflowId, workflowIds } from '../../src/temporal/contract/index.js';
import type { GitOperationResult, GitSyncRequest, SearchIndexResult } from '../../src/temporal/contract/index.js';
import { enqueueGitRequestSignal, gitQueueStateQuery } from '../../workflows/git-definitions.js';
import { testLogger } from '../helpers/logger.js';
import { createTestStore } from '../helpers/store.js';
import { startTestWorker, testClient, uniqueTaskQueue } from '../helpers/temporal.js';

const version = process.env.HISTORY_VERSION;
const spaceId = 'space-replay';

function request(n: number, extra: Partial<GitSyncRequest> = {}): GitSyncRequest {
  return {
    requestId: `r-${n}`,
    direction: 'import',
    spaceId,
    organizationId: 'org-replay',
    url: 'https://git.example.com/docs.git',
    ref: 'refs/heads/main',
    timestamp: new Date(Date.UTC(2025, 0, 1, 0, 0, n)).toISOString(),
    force: false,
    standalone: false,
    projectDirectory: '',
    receivedAt: new Date().toISOString(),
    ...extra,
  };
}

/** The fake outcome of each request: applied (with a revision), no-op, failed, stale, applied with credentials, export. */
function outcome(r: GitSyncRequest): GitOperationResult {
  const base = { requestId: r.requestId, direction: r.direction };
  switch (r.requestId) {
    case 'r-1':
      return { ...base, outcome: 'applied', commit: 'a'.repeat(40), revisionId: 'rev-1', detail: 'imported' };
    case 'r-2':
      return { ...base, outcome: 'noop', commit: 'a'.repeat(40), detail: 'the space already holds it' };
    case 'r-3':
      throw ApplicationFailure.create({ type: 'AUTH_FAILED', message: 'authentication failed', nonRetryable: true });
    case 'r-4':
      return { ...base, outcome: 'stale', detail: 'older than the last applied import' };
    default:
      return { ...base, outcome: 'applied', commit: 'b'.repeat(40), detail: 'done' };
  }
}

it('records the histories of the current workflow code', { timeout: 120_000 }, async () => {
  if (!version || !/^\d+-[a-z0-9-]+$/.test(version)) throw new Error('HISTORY_VERSION=<n>-<name> names the fixture directory');
  const client = await testClient();
  const store = await createTestStore();
  const taskQueue = uniqueTaskQueue('record');
  const work = async (r: GitSyncRequest) => outcome(r);
  const worker = await startTestWorker(
    { store, config: { ...loadConfig({}), taskQueue }, logger: testLogger('record') },
    {
      taskQueue,
      activities: {
        gitRecordOutcome: async () => undefined,
        gitBeginOperation: async (r: GitSyncRequest) => (r.requestId === 'r-4' ? { stale: true, detail: 'older' } : { stale: false }),
        gitFinishOperation: async () => undefined,
        gitForgetCredentials: async () => undefined,
        gitImportActivity: work,
        gitExportActivity: work,
        gitImportOperation: work,
        gitExportOperation: work,
        searchIndexSpace: async (): Promise<SearchIndexResult> => ({
          outcome: 'indexed',
          revisionId: 'rev-1',
          pages: 1,
          reindexed: 1,
          removed: 0,
          titleOnly: 0,
        }),
      },
    },
  );
  try {
    const requests = [
      request(1),
      request(2),
      request(3),
      request(4),
      request(5, { credentialId: 'cred-replay' }),
      request(6, { requestId: 'e-6', direction: 'export', commitMessage: 'export' }),
    ];
    const initial = initialGitQueueState(spaceId, 'org-replay');
    for (const r of requests) {
      await client.workflow.signalWithStart('gitQueueWorkflow', {
        workflowId: workflowIds.gitQueue(spaceId),
        taskQueue,
        args: [{ ...initial, idleTimeoutMs: 2000 }],
        signal: enqueueGitRequestSignal,
        signalArgs: [r],
      });
    }
    const queue = client.workflow.getHandle(workflowIds.gitQueue(spaceId));
    const end = Date.now() + 60_000;
    while ((await queue.query(gitQueueStateQuery)).processed < requests.length) {
      if (Date.now() > end) throw new Error('the queue did not process every request');
      await new Promise((r) => setTimeout(r, 200));
    }
    await queue.result();
    const dir = path.join(import.meta.dirname, 'fixtures', 'histories', version);
    mkdirSync(dir, { recursive: true });
    const ids = [
      ['gitQueueWorkflow-git', workflowIds.gitQueue(spaceId)],
      ...requests.map((r) => [
        r.direction === 'import' ? `gitImportWorkflow-git-import-${r.requestId}` : `gitExportWorkflow-git-export-${r.requestId}`,
        r.direction === 'import' ? workflowIds.gitImport(spaceId, r.requestId) : workflowIds.gitExport(spaceId, r.requestId),
      ]),
      ['searchIndexWorkflow-search-index-rev-1', searchIndexWorkflowId(spaceId, 'rev-1')],
    ];
    for (const [name, workflowId] of ids) {
      const handle = client.workflow.getHandle(workflowId!);
      await handle.result().catch(() => undefined);
      writeFileSync(path.join(dir, `${name}.json`), historyToJSON(await handle.fetchHistory()) + '\n');
    }
    expect(ids.length).toBe(8);
  } finally {
    await worker.stop();
    await client.connection.close();
    await store.close();
  }
});
