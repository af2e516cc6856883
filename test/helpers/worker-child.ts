/**
 * A Folio worker in a child process (test/gitsync/worker-process.ts) on the shared Temporal dev server: for the tests
 * that SIGKILL a worker in the middle of an activity. It polls `taskQueue` against `databaseUrl`; `env` adds or
 * overrides settings (HOLD_AT, the translation engine, …).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { inject } from 'vitest';
import { LOOPBACK_ALLOW_HOSTS } from './loopback-policy.js';

const ROOT = path.resolve(import.meta.dirname, '../..');

export interface WorkerChild {
  child: ChildProcess;
  /** Resolves once the child printed `line` (a line of its own on stdout); rejects if it exits first. */
  printed(line: string): Promise<void>;
  kill(): Promise<void>;
}

/** Every child started, for the test's afterAll: `killAll(children)`. */
export type WorkerChildren = ChildProcess[];

export async function startWorkerChild(
  children: WorkerChildren,
  options: { databaseUrl: string; taskQueue: string; env?: Record<string, string> },
): Promise<WorkerChild> {
  // The compiled worker of an up-to-date build (plain node) starts in about half the CPU time of the source under tsx.
  const compiled = inject('compiledWorkerProcess');
  const entry = compiled ? [compiled] : ['--import', 'tsx', path.join(ROOT, 'test/gitsync/worker-process.ts')];
  const child = spawn(process.execPath, entry, {
    cwd: ROOT,
    env: {
      ...process.env,
      DATABASE_URL: options.databaseUrl,
      TASK_QUEUE: options.taskQueue,
      TEMPORAL_ADDRESS: inject('temporalAddress'),
      WORKFLOW_BUNDLE: inject('workflowBundlePath'),
      COMPILED_PARSE_THREAD: inject('compiledParseThread'),
      FETCH_ALLOW_HOSTS: LOOPBACK_ALLOW_HOSTS,
      LOG_LEVEL: 'error',
      ...options.env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stderr = '';
  let out = '';
  const waiters: Array<{ line: string; resolve: () => void }> = [];
  child.stderr!.on('data', (c: Buffer) => (stderr += String(c)));
  child.stdout!.on('data', (c: Buffer) => {
    out += String(c);
    for (const w of waiters.splice(0)) {
      if (out.split('\n').includes(w.line)) w.resolve();
      else waiters.push(w);
    }
  });
  const printed = (line: string) =>
    new Promise<void>((resolve, reject) => {
      if (out.split('\n').includes(line)) return resolve();
      waiters.push({ line, resolve });
      child.once('exit', (code, signal) => reject(new Error(`worker process exited (${code ?? signal}) before printing ${line}: ${stderr.slice(-2000)}`)));
    });
  await printed('ready');
  return {
    child,
    printed,
    async kill() {
      const exited = new Promise((r) => child.once('exit', r));
      child.kill('SIGKILL');
      await exited;
    },
  };
}

/** SIGKILLs the children still running (afterAll). */
export function killAll(children: WorkerChildren): void {
  for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
}
