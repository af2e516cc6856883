import { Worker } from '@temporalio/worker';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { createActivities } from '../../activities/index.js';
import { loadConfig } from '../../src/config.js';
import type { Store } from '../../src/store/index.js';
import { workflowIds } from '../../workflows/definitions.js';
import { restoreSpaceSignal, type purgeSpaceWorkflow } from '../../workflows/purge.js';
import { testLogger } from '../helpers/logger.js';
import { createTestStore } from '../helpers/store.js';
import { uniqueTaskQueue } from '../helpers/temporal.js';
import { createTimeSkippingEnv } from '../helpers/time-skipping.js';

const DAY = 24 * 3600 * 1000;

/** The real 7-day window, on the time-skipping test server (its own worker on `env.nativeConnection`). */
describe('purge after 7 days (time-skipping)', () => {
  let env: TestWorkflowEnvironment;
  let store: Store;
  const taskQueue = uniqueTaskQueue('purge-ts');
  const config = { ...loadConfig({}), taskQueue };

  beforeAll(async () => {
    env = await createTimeSkippingEnv();
    store = await createTestStore();
    await store.orgs.ensure({ id: 'ts-org', title: 'Time' });
  });

  /** A worker runs once (runUntil shuts it down): one per test. */
  const newWorker = () =>
    Worker.create({
      connection: env.nativeConnection,
      taskQueue,
      workflowBundle: { codePath: inject('workflowBundlePath') },
      activities: createActivities({ store, config, logger: testLogger('purge-ts') }),
    });
  afterAll(async () => {
    await env?.teardown();
    await store?.close();
  });

  async function deletedSpace(): Promise<{ spaceId: string; deletionId: string }> {
    const space = await store.spaces.create('ts-org', { title: 'Week' });
    const { deletionId } = await store.spaces.markDeleted(space.id);
    return { spaceId: space.id, deletionId };
  }

  it('keeps the space for 7 days, then removes it', async () => {
    const { spaceId, deletionId } = await deletedSpace();
    const worker = await newWorker();
    await worker.runUntil(async () => {
      const handle = await env.client.workflow.start<typeof purgeSpaceWorkflow>('purgeSpaceWorkflow', {
        workflowId: workflowIds.purge(spaceId),
        taskQueue,
        args: [{ spaceId, deletionId, purgeAfterMs: 7 * DAY }],
      });
      await env.sleep(7 * DAY - 3600 * 1000);
      expect(await store.spaces.get(spaceId, { includeDeleted: true })).not.toBeNull();
      const result = await handle.result();
      expect(result).toMatchObject({ outcome: 'purged' });
    });
    expect(await store.spaces.get(spaceId, { includeDeleted: true })).toBeNull();
  });

  it('a restore on day 6 ends the run and the space stays', async () => {
    const { spaceId, deletionId } = await deletedSpace();
    const worker = await newWorker();
    await worker.runUntil(async () => {
      const handle = await env.client.workflow.start<typeof purgeSpaceWorkflow>('purgeSpaceWorkflow', {
        workflowId: workflowIds.purge(spaceId),
        taskQueue,
        args: [{ spaceId, deletionId, purgeAfterMs: 7 * DAY }],
      });
      await env.sleep(6 * DAY);
      await store.spaces.restore(spaceId, deletionId);
      await handle.signal(restoreSpaceSignal, { deletionId: 'some-other-deletion' });
      await handle.signal(restoreSpaceSignal, { deletionId });
      expect(await handle.result()).toEqual({ outcome: 'restored' });
    });
    const space = await store.spaces.get(spaceId);
    expect(space?.deletedAt).toBeNull();
  });
});
