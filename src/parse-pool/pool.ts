/**
 * A pool of worker threads that parse and serialize untrusted documents off the event loop, each task with a
 * time budget (the thread is terminated on overrun and replaced) and a memory budget (the thread's
 * `resourceLimits`; a thread that runs out is replaced). Tasks wait in a bounded queue; threads start on
 * demand, load the parsers once and are reused; `close()` ends them all.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { ParseBudgetExceededError, ParsePoolBusyError, ParsePoolClosedError, ParseTaskFailedError } from './errors.js';
import type { ParseOperation, ParseOperationArgs, ParseOperationResult } from './operations.js';
import type { ReadyMessage, TaskReply, TaskRequest } from './protocol.js';

export interface ParsePoolOptions {
  /** Threads (default: `os.availableParallelism()`). */
  threads?: number;
  /** Time budget of one task in milliseconds (default 10 000). */
  timeBudgetMs?: number;
  /** Heap budget of one thread in MB (default 256); the young generation gets a fixed share of it. */
  memoryBudgetMb?: number;
  /** Young generation of one thread in MB (default an eighth of `memoryBudgetMb`, at least 4). */
  youngGenerationMb?: number;
  /** Tasks allowed to wait for a thread (default 10 000); more are refused with PARSE_POOL_BUSY. */
  maxQueue?: number;
  /**
   * What the time budget counts (default `wall`): `wall`, the time since the task started; `busy`, the time its
   * thread spent running code, not waiting for I/O (for tasks that fetch, such as OpenAPI `$ref`s).
   */
  budgetClock?: 'wall' | 'busy';
}

/** Options of one task ({@link ParsePool.runWith}). */
export interface ParseTaskOptions {
  /** Aborting it drops the task if it waits, or terminates its thread if it runs; the task rejects with the abort reason. */
  signal?: AbortSignal;
}

interface Task {
  id: number;
  op: string;
  args: unknown[];
  resolve(value: unknown): void;
  reject(err: Error): void;
  signal?: AbortSignal;
  /** Removes the listener that drops the task from the queue on abort (once it leaves the queue). */
  unqueue?: () => void;
}

interface Slot {
  worker: Worker;
  ready: boolean;
  task: Task | null;
  timer: NodeJS.Timeout | null;
  /** Removes the running task's abort listener. */
  unlisten: (() => void) | null;
  /** Set once the slot is being replaced (terminated or died): its late messages and exit are ignored. */
  retired: boolean;
  /** Waiting for this thread to be ready (`startAll`): told when it is, or that it could not start. */
  waiters: Array<{ resolve(): void; reject(err: Error): void }>;
}

let compiledThread: URL | null = null;

/**
 * Where threads start when this file runs as TypeScript source: the compiled `thread.js` of an up-to-date build
 * (tests, once `npm run build` ran), so a thread does not compile TypeScript. `null` (the default): `ts-thread.mjs`.
 */
export function useCompiledThread(entry: URL | null): void {
  compiledThread = entry;
}

/**
 * The thread entry: the compiled `thread.js` beside this file; when this file runs as TypeScript source (tests,
 * tsx), the compiled thread given to `useCompiledThread`, else `ts-thread.mjs`, which registers tsx's loader in the
 * thread and imports `thread.ts`.
 */
function threadEntry(): { entry: URL; workerData: unknown } {
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return { entry: new URL('./thread.js', here), workerData: null };
  if (compiledThread) return { entry: compiledThread, workerData: null };
  return { entry: new URL('./ts-thread.mjs', here), workerData: { threadModule: new URL('./thread.ts', here).href } };
}

export class ParsePool {
  readonly threads: number;
  readonly timeBudgetMs: number;
  readonly memoryBudgetMb: number;
  readonly youngGenerationMb: number;
  readonly maxQueue: number;
  readonly budgetClock: 'wall' | 'busy';
  private readonly slots: Slot[] = [];
  private readonly queue: Task[] = [];
  private nextId = 1;
  private closed = false;
  /** Threads replaced after a budget overrun or a crash (for operators and tests). */
  replaced = 0;

  constructor(options: ParsePoolOptions = {}) {
    this.threads = Math.max(1, Math.floor(options.threads ?? availableParallelism()));
    this.timeBudgetMs = options.timeBudgetMs ?? 10_000;
    this.memoryBudgetMb = options.memoryBudgetMb ?? 256;
    this.youngGenerationMb = Math.max(4, Math.round(options.youngGenerationMb ?? this.memoryBudgetMb / 8));
    this.maxQueue = options.maxQueue ?? 10_000;
    this.budgetClock = options.budgetClock ?? 'wall';
  }

  /** Runs `op` in a pool thread; rejects with ParseBudgetExceededError, ParsePoolBusyError, ParsePoolClosedError or ParseTaskFailedError. */
  run<O extends ParseOperation>(op: O, ...args: ParseOperationArgs<O>): Promise<ParseOperationResult<O>> {
    return this.runWith({}, op, ...args);
  }

  /** {@link run} with per-task options (cancellation). An operation that returns a promise is awaited in its thread. */
  runWith<O extends ParseOperation>(options: ParseTaskOptions, op: O, ...args: ParseOperationArgs<O>): Promise<Awaited<ParseOperationResult<O>>> {
    if (this.closed) return Promise.reject(new ParsePoolClosedError());
    if (this.queue.length >= this.maxQueue) return Promise.reject(new ParsePoolBusyError(this.maxQueue));
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
      const task: Task = { id: this.nextId++, op, args, resolve: resolve as (v: unknown) => void, reject, ...(signal ? { signal } : {}) };
      // Aborted while it waits: it leaves the queue (once running, start() ends its thread instead). The listener
      // goes when the task leaves the queue, so a long run's signal does not collect one per task.
      if (signal) {
        const onAbort = () => {
          const i = this.queue.indexOf(task);
          if (i >= 0) {
            this.queue.splice(i, 1);
            reject(signal.reason);
          }
        };
        signal.addEventListener('abort', onAbort, { once: true });
        task.unqueue = () => signal.removeEventListener('abort', onAbort);
      }
      this.queue.push(task);
      this.dispatch();
    });
  }

  /**
   * Starts every thread of the pool (each loads its parsers) and resolves once all of them are ready for a task: a
   * worker's warm-up. Tasks alone start threads only while some wait (one ready thread may take them all first).
   */
  async startAll(): Promise<void> {
    if (this.closed) throw new ParsePoolClosedError();
    while (this.slots.length < this.threads) this.spawn();
    await Promise.all(this.slots.filter((s) => !s.ready && !s.retired).map((s) => new Promise<void>((resolve, reject) => s.waiters.push({ resolve, reject }))));
  }

  /** Threads started and ready for a task (busy or idle). */
  get readyThreads(): number {
    return this.slots.filter((s) => s.ready && !s.retired).length;
  }

  /** Terminates every thread; waiting and running tasks fail with ParsePoolClosedError. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const t of this.queue.splice(0)) t.reject(new ParsePoolClosedError());
    const ending = this.slots.splice(0).map((s) => {
      s.retired = true;
      for (const w of s.waiters.splice(0)) w.reject(new ParsePoolClosedError());
      if (s.timer) clearTimeout(s.timer);
      s.unlisten?.();
      s.task?.reject(new ParsePoolClosedError());
      return s.worker.terminate();
    });
    await Promise.allSettled(ending);
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      const idle = this.slots.find((s) => s.ready && s.task === null);
      if (idle) {
        this.start(idle, this.queue.shift()!);
        continue;
      }
      // Start another thread when every thread is busy and the pool is not full (it takes the task when ready).
      const starting = this.slots.filter((s) => !s.ready).length;
      if (this.slots.length < this.threads && starting < this.queue.length) this.spawn();
      else return;
    }
  }

  private spawn(): void {
    const { entry, workerData } = threadEntry();
    const worker = new Worker(entry, {
      workerData,
      resourceLimits: { maxOldGenerationSizeMb: this.memoryBudgetMb, maxYoungGenerationSizeMb: this.youngGenerationMb },
      stdout: false,
      stderr: false,
    });
    // Idle threads never keep the process alive; close() ends them at shutdown.
    worker.unref();
    const slot: Slot = { worker, ready: false, task: null, timer: null, unlisten: null, retired: false, waiters: [] };
    this.slots.push(slot);
    worker.on('message', (msg: TaskReply | ReadyMessage) => this.onMessage(slot, msg));
    worker.on('error', (err: Error) => this.onDeath(slot, err));
    worker.on('exit', (code) => this.onDeath(slot, new Error(`thread exited with code ${code}`)));
  }

  private start(slot: Slot, task: Task): void {
    task.unqueue?.();
    if (task.signal?.aborted) {
      task.reject(task.signal.reason);
      queueMicrotask(() => this.dispatch());
      return;
    }
    slot.task = task;
    const stop = (err: unknown) => {
      this.retire(slot);
      void slot.worker.terminate();
      task.reject(err as Error);
    };
    const overBudget = () => stop(new ParseBudgetExceededError('time', this.timeBudgetMs, task.op));
    if (this.budgetClock === 'busy') {
      // The thread's event-loop utilization grows only while it runs code (also while a parse blocks it).
      const since = slot.worker.performance.eventLoopUtilization();
      const every = Math.max(5, Math.min(100, Math.floor(this.timeBudgetMs / 10)));
      slot.timer = setInterval(() => {
        if (slot.worker.performance.eventLoopUtilization(since).active >= this.timeBudgetMs) overBudget();
      }, every);
    } else {
      slot.timer = setTimeout(overBudget, this.timeBudgetMs);
    }
    if (task.signal) {
      const signal = task.signal;
      const onAbort = () => stop(signal.reason);
      signal.addEventListener('abort', onAbort, { once: true });
      slot.unlisten = () => signal.removeEventListener('abort', onAbort);
    }
    const req: TaskRequest = { id: task.id, op: task.op, args: task.args };
    slot.worker.postMessage(req);
  }

  private onMessage(slot: Slot, msg: TaskReply | ReadyMessage): void {
    if (slot.retired) return;
    if ('ready' in msg) {
      slot.ready = true;
      for (const w of slot.waiters.splice(0)) w.resolve();
      this.dispatch();
      return;
    }
    const task = slot.task;
    if (!task || task.id !== msg.id) return;
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    slot.unlisten?.();
    slot.unlisten = null;
    slot.task = null;
    if (msg.ok) task.resolve(msg.value);
    else if (msg.stackOverflow) task.reject(new ParseBudgetExceededError('stack', undefined, task.op));
    else task.reject(new ParseTaskFailedError(task.op, msg.message, { name: msg.name, ...(msg.code !== undefined ? { code: msg.code } : {}) }));
    this.dispatch();
  }

  /** A thread died (out of memory, or crashed): its task fails typed, a new thread replaces it on demand. */
  private onDeath(slot: Slot, err: Error): void {
    if (slot.retired) return;
    for (const w of slot.waiters.splice(0)) w.reject(new ParseTaskFailedError('start', `the parse thread could not start: ${err.message}`));
    const task = slot.task;
    this.retire(slot);
    if (task) {
      const oom = (err as { code?: string }).code === 'ERR_WORKER_OUT_OF_MEMORY';
      task.reject(
        oom ? new ParseBudgetExceededError('memory', this.memoryBudgetMb, task.op) : new ParseTaskFailedError(task.op, `the parse thread died: ${err.message}`),
      );
    } else if (!slot.ready && !this.closed) {
      // A thread that cannot even start would fail every task: fail the waiting ones rather than loop.
      for (const t of this.queue.splice(0)) t.reject(new ParseTaskFailedError(t.op, `the parse thread could not start: ${err.message}`));
    }
  }

  private retire(slot: Slot): void {
    slot.retired = true;
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    slot.unlisten?.();
    slot.unlisten = null;
    slot.task = null;
    const i = this.slots.indexOf(slot);
    if (i >= 0) this.slots.splice(i, 1);
    this.replaced++;
    if (!this.closed) queueMicrotask(() => this.dispatch());
  }
}
