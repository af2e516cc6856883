/**
 * A pool of worker threads that parse and serialize untrusted documents off the event loop, each task with a
 * time budget (the thread is terminated on overrun and replaced) and a memory budget (the thread's
 * `resourceLimits`; a thread that runs out is replaced); a task may also belong to an operation whose budget bounds
 * all its tasks together (`./operation-budget.ts`). Tasks wait in a bounded queue, with a share per tenant key,
 * and are served fairly across keys (`./fair-queue.ts`): no key runs on more than `threads` threads, and a key with
 * work waiting and none running gets one of `spareThreads` more threads when every thread is busy with other keys.
 * Threads start on demand, run at a lower CPU priority than the process (`nice`), load the parsers once and are
 * reused; `close()` ends them all.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { ParseBudgetExceededError, ParsePoolBusyError, ParsePoolClosedError, ParseTaskFailedError } from './errors.js';
import { FairQueue } from './fair-queue.js';
import type { OperationBudget, ThreadClock } from './operation-budget.js';
import { threadCpuClock } from './thread-cpu.js';
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
  /** Tasks of one key (organization) allowed to wait (default a quarter of `maxQueue`); more are refused with PARSE_POOL_BUSY. */
  maxQueuePerKey?: number;
  /**
   * Threads beyond `threads` started for a key that has tasks waiting and none running while every thread is busy
   * with other keys' tasks (default 1); they serve only such keys and end after a second idle.
   */
  spareThreads?: number;
  /**
   * Nice value of the threads (default 0: the process's): a higher one lowers their CPU priority (Linux: per thread),
   * so that the process's own event loop and other processes (the database) keep the CPU they need while pages parse.
   */
  nice?: number;
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
  /** The tenant the task works for (an organization's id): tasks are served fairly across keys. Default `''`. */
  key?: string;
  /**
   * The budget of the operation the task belongs to: its thread time counts against it; once it is used up the task
   * is ended (or dropped, or refused) with ParseBudgetExceededError `operation`.
   */
  budget?: OperationBudget;
}

interface Task {
  id: number;
  op: string;
  args: unknown[];
  key: string;
  resolve(value: unknown): void;
  reject(err: Error): void;
  signal?: AbortSignal;
  budget?: OperationBudget;
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
  /** Ends the running task's time on its operation budget. */
  endBudget: (() => void) | null;
  /** A spare thread (beyond `threads`) that went idle: ends it unless it gets a task first. */
  idleTimer: NodeJS.Timeout | null;
  /** Reads the thread's CPU time (Linux), once it said its kernel id. */
  cpu: ThreadClock | undefined;
}

/** How long a spare thread stays idle before it ends. */
const SPARE_IDLE_MS = 1000;

/**
 * The thread entry: the compiled `thread.js` beside this file; when this file runs as TypeScript source (tests,
 * tsx), `ts-thread.mjs`, which registers tsx's loader in the thread and imports `thread.ts`.
 */
function threadEntry(): { entry: URL; workerData: { threadModule?: string } } {
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return { entry: new URL('./thread.js', here), workerData: {} };
  return { entry: new URL('./ts-thread.mjs', here), workerData: { threadModule: new URL('./thread.ts', here).href } };
}

export class ParsePool {
  readonly threads: number;
  readonly timeBudgetMs: number;
  readonly memoryBudgetMb: number;
  readonly youngGenerationMb: number;
  readonly maxQueue: number;
  readonly maxQueuePerKey: number;
  readonly spareThreads: number;
  readonly nice: number;
  readonly budgetClock: 'wall' | 'busy';
  private readonly slots: Slot[] = [];
  private readonly queue = new FairQueue<Task>();
  /** Tasks running per key. */
  private readonly running = new Map<string, number>();
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
    this.maxQueuePerKey = Math.max(1, Math.floor(options.maxQueuePerKey ?? this.maxQueue / 4));
    this.spareThreads = Math.max(0, Math.floor(options.spareThreads ?? 1));
    this.nice = Math.max(0, Math.min(19, Math.floor(options.nice ?? 0)));
    this.budgetClock = options.budgetClock ?? 'wall';
  }

  /** Runs `op` in a pool thread; rejects with ParseBudgetExceededError, ParsePoolBusyError, ParsePoolClosedError or ParseTaskFailedError. */
  run<O extends ParseOperation>(op: O, ...args: ParseOperationArgs<O>): Promise<ParseOperationResult<O>> {
    return this.runWith({}, op, ...args);
  }

  /** {@link run} with per-task options (cancellation). An operation that returns a promise is awaited in its thread. */
  runWith<O extends ParseOperation>(options: ParseTaskOptions, op: O, ...args: ParseOperationArgs<O>): Promise<Awaited<ParseOperationResult<O>>> {
    if (this.closed) return Promise.reject(new ParsePoolClosedError());
    const key = options.key ?? '';
    if (this.queue.length >= this.maxQueue) return Promise.reject(new ParsePoolBusyError(this.maxQueue));
    if (this.queue.countOf(key) >= this.maxQueuePerKey) return Promise.reject(new ParsePoolBusyError(this.maxQueuePerKey, true));
    const { budget } = options;
    // The caller's signal and the operation's budget both end the task.
    const signals = [options.signal, budget?.signal].filter((s): s is AbortSignal => s !== undefined);
    const signal = signals.length > 1 ? AbortSignal.any(signals) : signals[0];
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
      const task: Task = {
        id: this.nextId++,
        op,
        args,
        key,
        resolve: resolve as (v: unknown) => void,
        reject,
        ...(signal ? { signal } : {}),
        ...(budget ? { budget } : {}),
      };
      // Aborted while it waits: it leaves the queue (once running, start() ends its thread instead). The listener
      // goes when the task leaves the queue, so a long run's signal does not collect one per task.
      if (signal) {
        const onAbort = () => {
          if (this.queue.remove(task)) reject(signal.reason);
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

  /** What the pool holds now, for the metrics (src/metrics/): tasks waiting, threads running a task, live threads, threads replaced. */
  get stats(): { queued: number; busy: number; threads: number; replaced: number } {
    const live = this.slots.filter((s) => !s.retired);
    return { queued: this.queue.length, busy: live.filter((s) => s.task !== null).length, threads: live.length, replaced: this.replaced };
  }

  /** Terminates every thread; waiting and running tasks fail with ParsePoolClosedError. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const t of this.queue.drain()) t.reject(new ParsePoolClosedError());
    const ending = this.slots.splice(0).map((s) => {
      s.retired = true;
      for (const w of s.waiters.splice(0)) w.reject(new ParsePoolClosedError());
      const task = s.task;
      this.release(s);
      task?.reject(new ParsePoolClosedError());
      return s.worker.terminate();
    });
    await Promise.allSettled(ending);
  }

  private runningOf = (key: string): number => this.running.get(key) ?? 0;

  /** A key may run on as many threads as the pool has (the spare ones are for other keys). */
  private eligible = (key: string): boolean => this.runningOf(key) < this.threads;

  private dispatch(): void {
    while (this.queue.length > 0) {
      const idle = this.slots.find((s) => s.ready && s.task === null && !s.retired);
      const task = idle ? this.queue.take(this.runningOf, this.eligible) : undefined;
      if (idle && task) {
        this.start(idle, task);
        continue;
      }
      const starting = this.slots.filter((s) => !s.ready).length;
      // Start another thread when every thread is busy and the pool is not full (it takes the task when ready).
      if (!idle && this.slots.length < this.threads && starting < this.queue.length) {
        this.spawn();
        continue;
      }
      // A spare thread for a key with tasks waiting and none running, while other keys hold every thread.
      if (!idle && starting === 0 && this.slots.length < this.threads + this.spareThreads && [...this.queue.keys()].some((k) => this.runningOf(k) === 0)) {
        this.spawn();
        continue;
      }
      break;
    }
    this.endIdleSpares();
  }

  /** Spare threads idle for a second end (the pool goes back to `threads`). */
  private endIdleSpares(): void {
    let extra = this.slots.length - this.threads;
    for (const slot of this.slots) {
      if (extra <= 0) break;
      if (!slot.ready || slot.task !== null || slot.retired || slot.idleTimer) continue;
      extra--;
      slot.idleTimer = setTimeout(() => {
        slot.idleTimer = null;
        if (slot.task !== null || slot.retired || this.slots.length <= this.threads) return;
        this.retire(slot, false);
        void slot.worker.terminate();
      }, SPARE_IDLE_MS);
      slot.idleTimer.unref();
    }
  }

  private spawn(): void {
    const { entry, workerData } = threadEntry();
    const worker = new Worker(entry, {
      workerData: { ...workerData, nice: this.nice },
      resourceLimits: { maxOldGenerationSizeMb: this.memoryBudgetMb, maxYoungGenerationSizeMb: this.youngGenerationMb },
      stdout: false,
      stderr: false,
    });
    // Idle threads never keep the process alive; close() ends them at shutdown.
    worker.unref();
    const slot: Slot = {
      worker,
      ready: false,
      task: null,
      timer: null,
      unlisten: null,
      retired: false,
      waiters: [],
      endBudget: null,
      idleTimer: null,
      cpu: undefined,
    };
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
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    slot.idleTimer = null;
    this.running.set(task.key, this.runningOf(task.key) + 1);
    slot.endBudget = task.budget?.begin(slot.cpu) ?? null;
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
      slot.cpu = msg.tid !== undefined ? threadCpuClock(msg.tid) : undefined;
      for (const w of slot.waiters.splice(0)) w.resolve();
      this.dispatch();
      return;
    }
    const task = slot.task;
    if (!task || task.id !== msg.id) return;
    this.release(slot);
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
      for (const t of this.queue.drain()) t.reject(new ParseTaskFailedError(t.op, `the parse thread could not start: ${err.message}`));
    }
  }

  /** The slot's task is over (answered, failed or ended): its timers, listener, key count and budget time end. */
  private release(slot: Slot): void {
    if (slot.timer) clearTimeout(slot.timer);
    slot.timer = null;
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    slot.idleTimer = null;
    slot.unlisten?.();
    slot.unlisten = null;
    slot.endBudget?.();
    slot.endBudget = null;
    const task = slot.task;
    slot.task = null;
    if (!task) return;
    const n = this.runningOf(task.key) - 1;
    if (n > 0) this.running.set(task.key, n);
    else this.running.delete(task.key);
  }

  /** The slot leaves the pool (`replaced` counts a thread ended by a budget or a crash, not a spare that went idle). */
  private retire(slot: Slot, replaced = true): void {
    slot.retired = true;
    this.release(slot);
    const i = this.slots.indexOf(slot);
    if (i >= 0) this.slots.splice(i, 1);
    if (replaced) this.replaced++;
    if (!this.closed) queueMicrotask(() => this.dispatch());
  }
}
