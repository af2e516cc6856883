import { sleep } from '@temporalio/activity';
import { WorkflowFailedError, type Client, type WorkflowHandle } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createActivities } from '../../activities/index.js';
import { loadConfig, type Config } from '../../src/config/config.js';
import type { OpenApiStore } from '../../src/store/index.js';
import type { Store } from '../../src/store/index.js';
import { workflowIds } from '../../src/temporal/contract/index.js';
import { describeRefreshSchedule, ensureRefreshSchedule } from '../../src/temporal/client/openapi-schedule.js';
import { refreshWorkflowId } from '../../src/temporal/contract/index.js';
import type { processOpenApiSpecWorkflow, refreshOpenApiSpecWorkflow } from '../../workflows/openapi.js';
import { testLogger } from '../helpers/logger.js';
import { createTestStore } from '../helpers/store.js';
import { startSpecServer, type SpecServer } from '../openapi/spec-server.js';
import { startTestWorker, testClient, uniqueTaskQueue, type RunningWorker } from '../helpers/temporal.js';

/** The typed failure a failed processing run ends with, once its workflow is FAILED in Temporal. */
async function failureOf(handle: WorkflowHandle): Promise<ApplicationFailure> {
  const err = await handle.result().then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(WorkflowFailedError);
  const cause = (err as WorkflowFailedError).cause;
  expect(cause).toBeInstanceOf(ApplicationFailure);
  expect((cause as ApplicationFailure).nonRetryable).toBe(true);
  expect((await handle.describe()).status.name).toBe('FAILED');
  return cause as ApplicationFailure;
}

/**
 * The processing workflow with the real activities except one: a processing activity that outlives its
 * start-to-close timeout. The workflow must map that Temporal timeout to FETCH_TIMEOUT and record it.
 */
describe('processOpenApiSpecWorkflow: timeouts, deleted specs, denied networks', () => {
  let store: Store;
  let client: Client;
  let worker: RunningWorker;
  let repo: OpenApiStore;
  let config: Config;
  let server: SpecServer;

  beforeAll(async () => {
    store = await createTestStore();
    await store.orgs.ensure({ id: 'wf-org', title: 'Workflow org' });
    repo = store.openapi;
    // The default configuration (private networks denied, no FETCH_ALLOW_HOSTS): the spec server below is on loopback.
    config = loadConfig({ FOLIO_TASK_QUEUE: uniqueTaskQueue('openapi-wf') });
    server = await startSpecServer({ '/spec.yaml': { body: 'openapi: 3.1.0\ninfo: { title: T, version: "1" }\npaths: {}\n' } });
    const deps = { store, config, logger: testLogger('openapi-wf') };
    const real = createActivities(deps);
    worker = await startTestWorker(deps, {
      activities: {
        ...real,
        // For the spec "slow": marks progress like the real one, then hangs past the timeout (until cancelled).
        async openapiProcess(input: { specId: string; run: number }) {
          if ((await repo.get(input.specId))?.slug !== 'slow') return real.openapiProcess(input);
          await repo.markProgress(input.specId, input.run);
          await sleep(30_000);
          throw new Error('unreachable');
        },
      },
    });
    client = await testClient();
  });

  afterAll(async () => {
    await worker?.stop();
    await client?.connection.close();
    await store?.close();
    await server?.close();
  });

  it('maps a processing activity timeout to FETCH_TIMEOUT and keeps the last version', async () => {
    const spec = await repo.create('wf-org', { slug: 'slow', source: { text: 'openapi: 3.1.0' } });
    const first = await repo.startRun(spec.id);
    await repo.recordSuccess(spec.id, first.run, {
      hash: 'sha256:previous',
      rootPath: 'openapi.yaml',
      filesystem: { 'openapi.yaml': 'openapi: 3.1.0' },
      url: undefined,
      info: { specVersion: '3.1.0', title: undefined, version: undefined },
      warnings: [],
      warningCount: 0,
    });
    const { run } = await repo.startRun(spec.id);
    const handle = await client.workflow.start<typeof processOpenApiSpecWorkflow>('processOpenApiSpecWorkflow', {
      workflowId: workflowIds.openapiProcess(spec.id, run),
      taskQueue: worker.taskQueue,
      args: [{ specId: spec.id, organizationId: 'wf-org', run, trigger: 'update', processTimeoutMs: 1000, pauseScheduleAfterFailures: 3 }],
    });
    // The spec's state is recorded, then the run fails in Temporal: typed, not retried, the cause in its message.
    const failure = await failureOf(handle);
    expect(failure.type).toBe('FETCH_TIMEOUT');
    expect(failure.message).toContain('FETCH_TIMEOUT: processing did not finish within 1 s');
    expect(failure.details?.[0]).toMatchObject({ outcome: 'failed', code: 'FETCH_TIMEOUT', run });
    // The processing activity is scheduled with a heartbeat timeout (it beats every 2 s), so a dead worker is noticed early.
    const history = await client.workflow.getHandle(workflowIds.openapiProcess(spec.id, run)).fetchHistory();
    const scheduled = history.events!.map((e) => e.activityTaskScheduledEventAttributes).filter((a) => a?.activityType?.name === 'openapiProcess');
    expect(scheduled.length).toBeGreaterThan(0);
    // (the server caps it at the 1 s start-to-close timeout of this test)
    expect(Number(scheduled[0]!.heartbeatTimeout?.seconds ?? 0)).toBeGreaterThan(0);
    const after = (await repo.get(spec.id))!;
    expect(after.processingState).toBe('complete');
    expect(after.lastProcessErrorCode).toBe('FETCH_TIMEOUT');
    expect(after.lastProcessedErrors[0]!.message).toContain('did not finish within 1 s');
    expect(after.lastVersionId).not.toBeNull();
    expect(after.consecutiveFailures).toBe(1);
  });

  it('a scheduled refresh of a deleted spec ends as "gone" and removes the leftover schedule', async () => {
    const specId = `missing-${Date.now()}`;
    const input = { specId, organizationId: 'wf-org', processTimeoutMs: 60_000, pauseScheduleAfterFailures: 3 };
    await ensureRefreshSchedule(client, { specId, organizationId: 'wf-org', taskQueue: worker.taskQueue, every: '6h', input });
    expect(await describeRefreshSchedule(client, specId)).not.toBeNull();
    const result = await client.workflow.execute<typeof refreshOpenApiSpecWorkflow>('refreshOpenApiSpecWorkflow', {
      workflowId: `${refreshWorkflowId(specId)}-${Date.now()}`,
      taskQueue: worker.taskQueue,
      args: [input],
    });
    expect(result).toEqual({ outcome: 'gone' });
    expect(await describeRefreshSchedule(client, specId)).toBeNull();
  });

  it('a scheduled refresh numbers the next run in the store and processes it as openapi/<specId>/process/<n>', async () => {
    const spec = await repo.create('wf-org', { slug: 'refreshed', source: { text: 'openapi: 3.1.0\ninfo: { title: T, version: "1" }\npaths: {}\n' } });
    await repo.startRun(spec.id);
    await repo.startRun(spec.id);
    const result = await client.workflow.execute<typeof refreshOpenApiSpecWorkflow>('refreshOpenApiSpecWorkflow', {
      workflowId: `${refreshWorkflowId(spec.id)}-${Date.now()}`,
      taskQueue: worker.taskQueue,
      args: [{ specId: spec.id, organizationId: 'wf-org', processTimeoutMs: 60_000, pauseScheduleAfterFailures: 3 }],
    });
    expect(result).toMatchObject({ outcome: 'processed', run: 3, versionCreated: true });
    const child = await client.workflow.getHandle(workflowIds.openapiProcess(spec.id, 3)).describe();
    expect(child.type).toBe('processOpenApiSpecWorkflow');
    expect(child.status.name).toBe('COMPLETED');
    const after = (await repo.get(spec.id))!;
    expect(after).toMatchObject({ processRuns: 3, appliedRun: 3, processingState: 'complete', lastProcessErrorCode: null });
  });

  it('by default (no FETCH_ALLOW_HOSTS), a spec on a loopback address fails with FETCH_ERROR naming FETCH_ALLOW_HOSTS and is never fetched', async () => {
    const spec = await repo.create('wf-org', { slug: 'loopback', source: { url: `${server.url}/spec.yaml` } });
    const { run } = await repo.startRun(spec.id);
    const handle = await client.workflow.start<typeof processOpenApiSpecWorkflow>('processOpenApiSpecWorkflow', {
      workflowId: workflowIds.openapiProcess(spec.id, run),
      taskQueue: worker.taskQueue,
      args: [{ specId: spec.id, organizationId: 'wf-org', run, trigger: 'create', processTimeoutMs: 60_000, pauseScheduleAfterFailures: 3 }],
    });
    const failure = await failureOf(handle);
    expect(failure.type).toBe('FETCH_ERROR');
    expect(failure.message).toMatch(/^FETCH_ERROR: .*denied.*FETCH_ALLOW_HOSTS/);
    expect(failure.details?.[0]).toMatchObject({ outcome: 'failed', code: 'FETCH_ERROR', run });
    const after = (await repo.get(spec.id))!;
    expect(after.lastProcessErrorCode).toBe('FETCH_ERROR');
    expect(after.lastProcessedErrors[0]!.message).toContain('denied');
    expect(after.lastProcessedErrors[0]!.message).toContain('FETCH_ALLOW_HOSTS');
    expect(server.hits).toEqual([]);
  });
});
