import { existsSync } from 'node:fs';
import path from 'node:path';
import { NativeConnection, Worker, type WorkerOptions } from '@temporalio/worker';
import { createActivities, type ActivityDeps } from '../../../activities/index.js';
import { projectRoot } from '../../project-root.js';

export interface CreateWorkerOptions {
  deps: ActivityDeps;
  address: string;
  namespace: string;
  taskQueue: string;
  /** A prebundled workflow bundle (tests bundle once); otherwise the worker bundles `workflows/index`. */
  workflowBundle?: { code: string } | { codePath: string };
  /** Extra worker options (concurrency, shutdown grace time). */
  workerOptions?: Partial<WorkerOptions>;
}

/** The workflows entry point: the compiled JS in dist/ when it exists (and is preferred), else the TS source. */
export function workflowsPath(options: { preferCompiled?: boolean } = {}): string {
  const root = projectRoot();
  const compiled = path.join(root, 'dist', 'workflows', 'index.js');
  return (options.preferCompiled ?? true) && existsSync(compiled) ? compiled : path.join(root, 'workflows', 'index.ts');
}

/** Where `npm run build` puts the prebuilt workflow bundle. */
export function prebuiltBundlePath(): string {
  return path.join(projectRoot(), 'dist', 'workflow-bundle.js');
}

function defaultWorkflows(): { workflowBundle: { codePath: string } } | { workflowsPath: string } {
  const prebuilt = prebuiltBundlePath();
  return existsSync(prebuilt) ? { workflowBundle: { codePath: prebuilt } } : { workflowsPath: workflowsPath() };
}

export async function createWorker(options: CreateWorkerOptions): Promise<{ worker: Worker; connection: NativeConnection }> {
  const connection = await NativeConnection.connect({ address: options.address });
  const worker = await Worker.create({
    connection,
    namespace: options.namespace,
    taskQueue: options.taskQueue,
    activities: createActivities(options.deps),
    ...(options.workflowBundle ? { workflowBundle: options.workflowBundle } : defaultWorkflows()),
    shutdownGraceTime: '4 seconds',
    maxConcurrentActivityTaskExecutions: 8,
    ...options.workerOptions,
  });
  return { worker, connection };
}

/**
 * A worker that runs activities only, on its own task queue: the translation engines' (`FOLIO_TRANSLATION_TASK_QUEUE`),
 * so a slow provider never holds the main queue's activity slots. Shares the connection of the main worker.
 */
export async function createActivityWorker(options: {
  deps: ActivityDeps;
  connection: NativeConnection;
  namespace: string;
  taskQueue: string;
  workerOptions?: Partial<WorkerOptions>;
}): Promise<Worker> {
  return Worker.create({
    connection: options.connection,
    namespace: options.namespace,
    taskQueue: options.taskQueue,
    activities: createActivities(options.deps),
    shutdownGraceTime: '4 seconds',
    maxConcurrentActivityTaskExecutions: 4,
    ...options.workerOptions,
  });
}
