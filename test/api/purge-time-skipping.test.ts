import { Worker } from '@temporalio/worker';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { createActivities } from '../../activities/index.js';
import { loadConfig } from '../../src/config/config.js';
import type { Store } from '../../src/store/index.js';
import { workflowIds } from '../../src/temporal/contract/index.js';
import type { purgeSpaceWorkflow } from '../../workflows/purge.js';
import { restoreSpaceSignal } from '../../workflows/purge-definitions.js';
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

  const encoder = new TextEncoder();
  /** A space with a revision (one page, one file) whose page body another space shares; then deleted. */
  async function deletedSpace(): Promise<{ spaceId: string; deletionId: string; revisionId: string; sharedHash: string; ownHash: string }> {
    const space = await store.spaces.create('ts-org', { title: 'Week' });
    const neighbour = await store.spaces.create('ts-org', { title: 'Neighbour' });
    const content = (spaceId: string, fileText: string) =>
      store.revisions.create({
        spaceId,
        parents: [],
        type: 'edits',
        pages: [{ id: 'p1', kind: 'document', title: 'Intro', slug: 'intro', path: 'intro', body: encoder.encode('# Shared page\n') }],
        files: [{ id: 'f1', name: 'a.txt', size: fileText.length, contentType: 'text/plain', bytes: encoder.encode(fileText) }],
      });
    const { id: revisionId } = await content(space.id, `only in ${space.id}`);
    await store.spaces.setPrimaryRevision(space.id, revisionId);
    await store.spaces.setPrimaryRevision(neighbour.id, (await content(neighbour.id, `neighbour ${neighbour.id}`)).id);
    const sharedHash = (await store.revisions.page(revisionId, 'p1'))!.bodyHash!;
    const ownHash = (await store.revisions.file(revisionId, 'f1'))!.hash!;
    const { deletionId } = await store.spaces.markDeleted(space.id);
    return { spaceId: space.id, deletionId, revisionId, sharedHash, ownHash };
  }

  it('keeps the space for 7 days, then removes it with its revisions, pages, files and unshared blobs', async () => {
    const { spaceId, deletionId, revisionId, sharedHash, ownHash } = await deletedSpace();
    const worker = await newWorker();
    await worker.runUntil(async () => {
      const handle = await env.client.workflow.start<typeof purgeSpaceWorkflow>('purgeSpaceWorkflow', {
        workflowId: workflowIds.purge(spaceId),
        taskQueue,
        args: [{ spaceId, deletionId, purgeAfterMs: 7 * DAY }],
      });
      await env.sleep(7 * DAY - 3600 * 1000);
      expect(await store.spaces.get(spaceId, { includeDeleted: true })).not.toBeNull();
      expect(await store.revisions.get(revisionId)).not.toBeNull();
      const result = await handle.result();
      expect(result).toMatchObject({ outcome: 'purged', revisions: 1 });
    });
    expect(await store.spaces.get(spaceId, { includeDeleted: true })).toBeNull();
    expect(await store.revisions.get(revisionId)).toBeNull();
    expect(await store.revisions.page(revisionId, 'p1')).toBeNull();
    expect(await store.revisions.file(revisionId, 'f1')).toBeNull();
    const kept = await store.blobs.has([sharedHash, ownHash]);
    expect(kept.has(sharedHash)).toBe(true);
    expect(kept.has(ownHash)).toBe(false);
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
