/**
 * `git/info` asks the space's git queue workflow for its queue with a Temporal query, which a worker answers. When no
 * worker answers (the one that ran the workflow was killed, the others are busy or down), the query used to wait for
 * the server's own timeout (30 s and more were measured in the production-shape run) and `git/info` with it: the
 * query is bounded (GIT_QUEUE_QUERY_DEADLINE_MS, 10 s; 2 s here), after which `queryGitQueue` fails and `git/info`
 * answers without the queue, as it does for any failed query.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@temporalio/client';
import { queryGitQueue } from '../../src/temporal/client/start.js';
import { initialGitQueueState, workflowIds, workflowTypes } from '../../src/temporal/contract/index.js';
import { testClient, uniqueTaskQueue } from '../helpers/temporal.js';

let client: Client;
beforeAll(async () => {
  client = await testClient();
});
afterAll(async () => {
  await client?.connection.close();
});

describe('the git queue query', () => {
  it('fails within its deadline when no worker answers, instead of waiting for the server', { timeout: 120_000 }, async () => {
    const spaceId = `query-deadline-${Math.random().toString(36).slice(2)}`;
    // A queue workflow on a task queue no worker polls: nothing can answer its queries.
    const handle = await client.workflow.start(workflowTypes.gitQueue, {
      workflowId: workflowIds.gitQueue(spaceId),
      taskQueue: uniqueTaskQueue('no-worker'),
      args: [initialGitQueueState(spaceId, 'org')],
    });
    try {
      const failure = await queryGitQueue(client, spaceId, 2000).then(
        () => null,
        (err: Error & { cause?: { code?: number; details?: string } }) => err,
      );
      expect(failure).not.toBeNull();
      // Ended by this client's deadline (grpc-js: "Deadline exceeded after 2.001s,…", or "Deadline exceeded" when it passed before the call went out), not by the server's own query
      // timeout (30 s on the dev server: without the deadline this waited 30,061 ms and failed otherwise).
      expect(failure!.cause?.code).toBe(4); // gRPC DEADLINE_EXCEEDED
      expect(failure!.cause?.details).toMatch(/^Deadline exceeded\b/);
    } finally {
      await handle.terminate('test over');
    }
  });
});
