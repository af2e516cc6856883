import { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { inject } from 'vitest';
import { SEARCH_ATTRIBUTES } from '../../src/temporal/contract/search-attributes.js';

/** temporal.api.enums.v1.IndexedValueType.INDEXED_VALUE_TYPE_KEYWORD (@temporalio/proto is CommonJS). */
const KEYWORD = 2;
import { uniqueTaskQueue } from './temporal.js';
import { installTestRuntime } from './sdk-runtime.js';

/**
 * A time-skipping test environment on the official test server binary installed under .tools/ (never
 * downloaded), with Folio's search attributes registered (without them a child workflow tagged with them never
 * starts). Its clock is global to the environment: run such tests serially, one environment per file. It skips
 * time only while no activity is scheduled or running: a retry's backoff and a heartbeat timeout pass in real time.
 */
export async function createTimeSkippingEnv(): Promise<TestWorkflowEnvironment> {
  const path = inject('testServerPath');
  if (!path) throw new Error('the Temporal test server binary is missing; run node dist/src/temporal/install-binaries.js');
  // Once per process; the SDK logs every expected activity failure as a warning: tests keep only errors (LOG_LEVEL).
  installTestRuntime();
  const env = await TestWorkflowEnvironment.createTimeSkipping({ server: { executable: { type: 'existing-path', path } } });
  try {
    // The test server has no ListSearchAttributes: registered as they are.
    const searchAttributes = Object.fromEntries(SEARCH_ATTRIBUTES.map((a) => [a.name, KEYWORD]));
    await env.connection.operatorService.addSearchAttributes({ namespace: 'default', searchAttributes });
  } catch (err) {
    await env.teardown();
    throw err;
  }
  return env;
}

export interface StubWorker {
  taskQueue: string;
  /** Stops polling and waits for the worker to end (activities still running are cancelled after 2 s). */
  stop(): Promise<void>;
}

/**
 * A worker of Folio's real workflows (the shared bundle) with the given activity functions in place of Folio's, on
 * its own task queue of `env`: the workflow logic is tested against stubs, the way the Temporal samples do.
 */
export async function startStubWorker(env: TestWorkflowEnvironment, activities: object): Promise<StubWorker> {
  const taskQueue = uniqueTaskQueue('stub');
  const worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    workflowBundle: { codePath: inject('workflowBundlePath') },
    activities,
    shutdownGraceTime: '2 seconds',
  });
  const running = worker.run();
  return {
    taskQueue,
    async stop() {
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await running;
    },
  };
}
