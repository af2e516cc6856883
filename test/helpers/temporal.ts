import { randomBytes } from 'node:crypto';
import { Client, Connection } from '@temporalio/client';
import type { Worker } from '@temporalio/worker';
import { inject } from 'vitest';
import type { ActivityDeps } from '../../activities/index.js';
import { createWorker } from '../../src/temporal/worker/worker.js';
import { installTestRuntime } from './sdk-runtime.js';

/** A task queue of this test file's own, so files running in parallel never take each other's tasks. */
export function uniqueTaskQueue(prefix = 'test'): string {
  return `${prefix}-${randomBytes(6).toString('hex')}`;
}

export function temporalAddress(): string {
  return inject('temporalAddress');
}

/** A client of the shared test dev server. */
export async function testClient(): Promise<Client> {
  const connection = await Connection.connect({ address: temporalAddress() });
  return new Client({ connection, namespace: 'default' });
}

export interface RunningWorker {
  worker: Worker;
  taskQueue: string;
  /** Stops polling, waits for running tasks, closes the connection. */
  stop(): Promise<void>;
}

/** Starts a Folio worker (real activities built from `deps`) on the shared dev server with the shared bundle. */
export async function startTestWorker(deps: ActivityDeps, options: { taskQueue?: string; activities?: Record<string, unknown> } = {}): Promise<RunningWorker> {
  // Once per process; the SDK logs every expected activity failure as a warning: tests keep only errors (LOG_LEVEL).
  installTestRuntime();
  const taskQueue = options.taskQueue ?? deps.config.taskQueue;
  const { worker, connection } = await createWorker({
    deps,
    address: temporalAddress(),
    namespace: 'default',
    taskQueue,
    workflowBundle: { codePath: inject('workflowBundlePath') },
    workerOptions: { shutdownGraceTime: '2 seconds', ...(options.activities ? { activities: options.activities } : {}) },
  });
  const running = worker.run();
  return {
    worker,
    taskQueue,
    async stop() {
      if (worker.getState() === 'RUNNING') worker.shutdown();
      await running;
      await connection.close();
    },
  };
}
