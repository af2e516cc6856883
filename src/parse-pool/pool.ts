/**
 * A pool of worker threads that parse and serialize untrusted documents off the event loop, each task with a
 * time budget (the thread is terminated on overrun and replaced) and a memory budget (the thread's
 * `resourceLimits`; a thread that runs out is replaced); a task may also belong to an operation whose budget bounds
 * all its tasks together (`./operation-budget.ts`). Tasks wait in a bounded queue, with a share per tenant key,
 * and are served fairly across keys (`./fair-queue.ts`). The pool has `threads + spareThreads` threads and one key
 * runs on at most `threads` of them: a tenant whose pages hold every thread for seconds leaves a (warm) thread to the
 * others. A thread whose task used more than `demoteAfterMs` of CPU time runs at a lower CPU priority (`demoteNice`)
 * and no longer counts against the pool's size: another thread may start for other keys' tasks meanwhile.
 * Threads start on demand (or all at once, `startAll`), load the parsers once and are reused; `close()` ends them all.
 */
import { availableParallelism, getPriority, setPriority } from 'node:os';
import { Worker } from 'node:worker_threads';
import { abortRelay } from '../abort-relay.js';
import { ParseBudgetExceededError, ParsePoolBusyError, ParsePoolClosedError, ParseTaskFailedError } from './errors.js';
import { FairQueue } from './fair-queue.js';
import type { OperationBudget, ThreadClock } from './operation-budget.js';
import { threadCpuClock } from './thread-cpu.js';
import type { ReadyMessage, TaskReply, TaskRequest } from './protocol.js';

/** What a pool's threads can run, by name (the threads' own table: `src/parse-threads/operations.ts` for Folio's). */
export type OperationTable = Record<string, (...args: never[]) => unknown>;

/** The module a pool's threads run (it calls `serveOperations` of `./serve.ts`): compiled `.js`, or `.ts` source. */
export interface ThreadModule {
  readonly url: URL;
}

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
   * Threads beyond `threads` (default 0): no key runs on more than `threads` threads, so that these are left to other
   * keys when one key holds every thread (a hostile repository's pages). `startAll` starts them too, so they are warm.
   */
  spareThreads?: number;
  /**
   * Nice value a thread takes while its task has used more than `demoteAfterMs` of CPU time (Linux, per thread;
   * default 0: never): such a task, rare for an ordinary document and the mark of a hostile one, then yields the CPU to
   * the process's event loop, to other processes (the database, the API) and to other tasks. The thread gets the
   * process's priority back when the task ends, or is replaced when the system does not allow that.
   */
  demoteNice?: number;
  /** CPU time of one task after which its thread is demoted (default 200 ms: an ordinary page takes a few). */
  demoteAfterMs?: number;
  /**
   * Operation families its threads load before they are ready (default none; Folio's pool, `src/parse-threads/pool.ts`,
   * loads OpenAPI processing unless told otherwise, so that a spec's processing is timed from its start, not from
   * loading its modules); a pool that parses only pages loads none, and a thread of it ended by a budget is replaced
   * faster.
   */
  preload?: string[];
  /**
   * What the time budget counts (default `wall`): `wall`, the time since the task started; `busy`, the time its
   * thread spent on the CPU (`/proc` per thread; elsewhere its event-loop utilization), not waiting for I/O or for
   * the CPU (for tasks that fetch, such as OpenAPI `$ref`s).
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
  /** The caller's signal and the operation budget's: either ends the task. */
  signals: AbortSignal[];
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
  /** The thread's kernel id and a reader of its CPU time (Linux), once it said its id. */
  tid: number | undefined;
  cpu: ThreadClock | undefined;
  /** Watches the running task's CPU time, to demote its thread. */
  demoteTimer: NodeJS.Timeout | null;
  /** The thread runs at `demoteNice`. */
  demoted: boolean;
  /** When the running task took the thread (`performance.now()`), for its key's usage. */
  since: number;
  /** A thread beyond the capacity that went idle: ends it unless it gets a task first. */
  idleTimer: NodeJS.Timeout | null;
}

/** How long a thread beyond the capacity stays idle before it ends. */
const EXTRA_IDLE_MS = 5000;

/** Half-life of a key's recent usage of the pool (the fair queue's tie-break). */
const USAGE_HALF_LIFE_MS = 30_000;

/** Calls `then` with the reason of the first of `signals` to abort; returns what removes the listeners. */
function onAnyAbort(signals: AbortSignal[], then: (reason: unknown) => void): () => void {
  const listeners = signals.map((signal) => {
    const listener = () => {
      remove();
      then(signal.reason);
    };
    // Through the signal's relay: many tasks of one caller (a website import's conversions) share its signal.
    const relay = abortRelay(signal);
    relay.addEventListener('abort', listener, { once: true });
    return () => relay.removeEventListener('abort', listener);
  });
  const remove = () => listeners.forEach((r) => r());
  return remove;
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
 * The thread entry: a compiled thread module itself; a TypeScript one (tests, tsx) the compiled thread given to
 * `useCompiledThread`, else `ts-thread.mjs`, which registers tsx's loader in the thread and imports the module.
 */
function threadEntry(thread: ThreadModule): { entry: URL; workerData: { threadModule?: string } } {
  if (!thread.url.pathname.endsWith('.ts')) return { entry: thread.url, workerData: {} };
  if (compiledThread) return { entry: compiledThread, workerData: {} };
  return { entry: new URL('./ts-thread.mjs', import.meta.url), workerData: { threadModule: thread.url.href } };
}

export class ParsePool<Ops extends OperationTable = OperationTable> {
  readonly threads: number;
  readonly timeBudgetMs: number;
  readonly memoryBudgetMb: number;
  readonly youngGenerationMb: number;
  readonly maxQueue: number;
  readonly maxQueuePerKey: number;
  readonly spareThreads: number;
  readonly demoteNice: number;
  readonly demoteAfterMs: number;
  /** The process's nice value (what a demoted thread goes back to). */
  private readonly baseNice: number;
  readonly preload: string[];
  private readonly thread: ThreadModule;
  readonly budgetClock: 'wall' | 'busy';
  private readonly slots: Slot[] = [];
  private readonly queue = new FairQueue<Task>();
  /** Tasks running per key. */
  private readonly running = new Map<string, number>();
  /** Each key's thread time, decaying (half-life USAGE_HALF_LIFE_MS), as of `at`. */
  private readonly usage = new Map<string, { ms: number; at: number }>();
  private nextId = 1;
  private closed = false;
  /** Threads replaced after a budget overrun or a crash (for operators and tests). */
  replaced = 0;

  constructor(thread: ThreadModule, options: ParsePoolOptions = {}) {
    this.threads = Math.max(1, Math.floor(options.threads ?? availableParallelism()));
    this.timeBudgetMs = options.timeBudgetMs ?? 10_000;
    this.memoryBudgetMb = options.memoryBudgetMb ?? 256;
    this.youngGenerationMb = Math.max(4, Math.round(options.youngGenerationMb ?? this.memoryBudgetMb / 8));
    this.maxQueue = options.maxQueue ?? 10_000;
    this.maxQueuePerKey = Math.max(1, Math.floor(options.maxQueuePerKey ?? this.maxQueue / 4));
    this.spareThreads = Math.max(0, Math.floor(options.spareThreads ?? 0));
    this.demoteNice = Math.max(0, Math.min(19, Math.floor(options.demoteNice ?? 0)));
    this.demoteAfterMs = Math.max(0, options.demoteAfterMs ?? 200);
    this.baseNice = (() => {
      try {
        return getPriority();
      } catch {
        return 0;
      }
    })();
    this.preload = [...(options.preload ?? [])];
    this.thread = thread;
    this.budgetClock = options.budgetClock ?? 'wall';
  }

  /** Runs `op` in a pool thread; rejects with ParseBudgetExceededError, ParsePoolBusyError, ParsePoolClosedError or ParseTaskFailedError. */
  run<O extends keyof Ops & string>(op: O, ...args: Parameters<Ops[O]>): Promise<Awaited<ReturnType<Ops[O]>>> {
    return this.runWith({}, op, ...args);
  }

  /** {@link run} with per-task options (cancellation). An operation that returns a promise is awaited in its thread. */
  runWith<O extends keyof Ops & string>(options: ParseTaskOptions, op: O, ...args: Parameters<Ops[O]>): Promise<Awaited<ReturnType<Ops[O]>>> {
    if (this.closed) return Promise.reject(new ParsePoolClosedError());
    const key = options.key ?? '';
    if (this.queue.length >= this.maxQueue) return Promise.reject(new ParsePoolBusyError(this.maxQueue));
    if (this.queue.countOf(key) >= this.maxQueuePerKey) return Promise.reject(new ParsePoolBusyError(this.maxQueuePerKey, true));
    const { budget } = options;
    // The caller's signal and the operation's budget both end the task.
    const signals = [options.signal, budget?.signal].filter((s): s is AbortSignal => s !== undefined);
    const aborted = signals.find((s) => s.aborted);
    if (aborted) return Promise.reject(aborted.reason);
    return new Promise((resolve, reject) => {
      const task: Task = {
        id: this.nextId++,
        op,
        args,
        key,
        resolve: resolve as (v: unknown) => void,
        reject,
        signals,
        ...(budget ? { budget } : {}),
      };
      // Aborted while it waits: it leaves the queue (once running, start() ends its thread instead). The listener
      // goes when the task leaves the queue, so a long run's signal does not collect one per task.
      if (signals.length > 0) task.unqueue = onAnyAbort(signals, (reason) => this.queue.remove(task) && reject(reason));
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
    while (this.slots.length < this.threads + this.spareThreads) this.spawn();
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

  /**
   * Threads the pool may have now: `threads + spareThreads`, and one more for each task whose thread was demoted (at
   * most `threads` more): a demoted thread hardly takes the CPU any more, but it holds its slot until its task ends,
   * and other keys' tasks should not wait for that.
   */
  private capacity(): number {
    const demoted = this.slots.filter((s) => s.demoted && s.task !== null).length;
    return this.threads + this.spareThreads + Math.min(this.threads, demoted);
  }

  private dispatch(): void {
    this.fill();
    this.trimIdle();
  }

  private fill(): void {
    const size = this.capacity();
    while (this.queue.length > 0) {
      const idle = this.slots.find((s) => s.ready && s.task === null && !s.retired);
      const task = idle ? this.queue.take(this.runningOf, this.eligible, this.usageOf) : undefined;
      if (idle && task) {
        this.start(idle, task);
        continue;
      }
      // Start another thread when the pool is not full and more tasks that could run wait than threads start (one
      // takes a task when ready).
      if (idle || this.slots.length >= size) return;
      const starting = this.slots.filter((s) => !s.ready).length;
      let runnable = 0;
      for (const key of this.queue.keys()) runnable += Math.min(this.queue.countOf(key), this.threads - this.runningOf(key));
      if (starting >= runnable) return;
      this.spawn();
    }
  }

  /** Threads beyond the capacity (started while demoted tasks held threads) end once idle for EXTRA_IDLE_MS. */
  private trimIdle(): void {
    const keep = () => Math.max(this.threads + this.spareThreads, this.capacity());
    let extra = this.slots.length - keep();
    for (const slot of this.slots) {
      if (extra <= 0) return;
      if (!slot.ready || slot.task !== null || slot.retired || slot.idleTimer) continue;
      extra--;
      slot.idleTimer = setTimeout(() => {
        slot.idleTimer = null;
        if (slot.task !== null || slot.retired || this.slots.length <= keep()) return;
        this.retire(slot, false);
        void slot.worker.terminate();
      }, EXTRA_IDLE_MS);
      slot.idleTimer.unref();
    }
  }

  private spawn(): void {
    const { entry, workerData } = threadEntry(this.thread);
    const worker = new Worker(entry, {
      workerData: { ...workerData, preload: this.preload },
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
      tid: undefined,
      cpu: undefined,
      demoteTimer: null,
      demoted: false,
      since: 0,
      idleTimer: null,
    };
    this.slots.push(slot);
    worker.on('message', (msg: TaskReply | ReadyMessage) => this.onMessage(slot, msg));
    worker.on('error', (err: Error) => this.onDeath(slot, err));
    worker.on('exit', (code) => this.onDeath(slot, new Error(`thread exited with code ${code}`)));
  }

  private start(slot: Slot, task: Task): void {
    task.unqueue?.();
    const aborted = task.signals.find((s) => s.aborted);
    if (aborted) {
      task.reject(aborted.reason);
      queueMicrotask(() => this.dispatch());
      return;
    }
    slot.task = task;
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    slot.idleTimer = null;
    this.running.set(task.key, this.runningOf(task.key) + 1);
    slot.since = performance.now();
    slot.endBudget = task.budget?.begin(slot.cpu) ?? null;
    this.watchCpu(slot);
    const stop = (err: unknown) => {
      this.retire(slot);
      void slot.worker.terminate();
      task.reject(err as Error);
    };
    const overBudget = () => stop(new ParseBudgetExceededError('time', this.timeBudgetMs, task.op));
    if (this.budgetClock === 'busy') {
      // Busy time is the thread's CPU time (Linux's /proc, per thread): it does not grow while the thread waits for a
      // fetch, nor while a loaded machine keeps it off the CPU. Elsewhere, its event-loop utilization (which grows
      // while it runs code, and also while it waits for the CPU).
      const busy = this.busyClock(slot);
      const every = Math.max(5, Math.min(100, Math.floor(this.timeBudgetMs / 10)));
      slot.timer = setInterval(() => {
        if (busy() >= this.timeBudgetMs) overBudget();
      }, every);
    } else {
      slot.timer = setTimeout(overBudget, this.timeBudgetMs);
    }
    if (task.signals.length > 0) slot.unlisten = onAnyAbort(task.signals, stop);
    const req: TaskRequest = { id: task.id, op: task.op, args: task.args };
    slot.worker.postMessage(req);
  }

  /** Milliseconds of busy time of the slot's thread since now (see `run`). */
  private busyClock(slot: Slot): () => number {
    const cpu = slot.cpu;
    const start = cpu?.();
    if (cpu && start !== undefined) return () => (cpu() ?? start) - start;
    const since = slot.worker.performance.eventLoopUtilization();
    return () => slot.worker.performance.eventLoopUtilization(since).active;
  }

  private onMessage(slot: Slot, msg: TaskReply | ReadyMessage): void {
    if (slot.retired) return;
    if ('ready' in msg) {
      slot.ready = true;
      slot.tid = msg.tid;
      slot.cpu = msg.tid !== undefined ? threadCpuClock(msg.tid) : undefined;
      for (const w of slot.waiters.splice(0)) w.resolve();
      this.dispatch();
      return;
    }
    const task = slot.task;
    if (!task || task.id !== msg.id) return;
    this.release(slot);
    this.promote(slot);
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
    slot.unlisten?.();
    slot.unlisten = null;
    slot.endBudget?.();
    slot.endBudget = null;
    if (slot.demoteTimer) clearTimeout(slot.demoteTimer);
    slot.demoteTimer = null;
    if (slot.idleTimer) clearTimeout(slot.idleTimer);
    slot.idleTimer = null;
    const task = slot.task;
    slot.task = null;
    if (!task) return;
    const n = this.runningOf(task.key) - 1;
    if (n > 0) this.running.set(task.key, n);
    else this.running.delete(task.key);
    const now = performance.now();
    this.usage.set(task.key, { ms: this.usageOf(task.key, now) + (now - slot.since), at: now });
  }

  /** A key's recent thread time (decayed). */
  private usageOf = (key: string, now = performance.now()): number => {
    const u = this.usage.get(key);
    if (!u) return 0;
    const ms = u.ms * 0.5 ** ((now - u.at) / USAGE_HALF_LIFE_MS);
    if (ms < 1 && !this.running.has(key)) this.usage.delete(key);
    return ms;
  };

  /**
   * Demotes the slot's thread to `demoteNice` once its task used `demoteAfterMs` of CPU time (first checked when that
   * much wall time passed: CPU time never runs ahead of it).
   */
  private watchCpu(slot: Slot): void {
    const { cpu, tid } = slot;
    if (this.demoteNice <= this.baseNice || !cpu || tid === undefined || slot.demoted) return;
    const from = cpu();
    if (from === undefined) return;
    const check = () => {
      const used = cpu();
      if (used !== undefined && used - from < this.demoteAfterMs) {
        slot.demoteTimer = setTimeout(check, 100);
        return;
      }
      slot.demoteTimer = null;
      try {
        setPriority(tid, this.demoteNice);
        slot.demoted = true;
      } catch {
        // not allowed here: the thread keeps its priority
        return;
      }
      // The pool may start a thread for other keys' tasks in its stead.
      this.dispatch();
    };
    slot.demoteTimer = setTimeout(check, this.demoteAfterMs);
  }

  /** A demoted thread whose task ended gets the process's priority back, or is replaced where that is not allowed. */
  private promote(slot: Slot): void {
    if (!slot.demoted || slot.retired || slot.tid === undefined) return;
    try {
      setPriority(slot.tid, this.baseNice);
      slot.demoted = false;
    } catch {
      this.retire(slot, false);
      void slot.worker.terminate();
    }
  }

  /** The slot leaves the pool (`replaced` counts a thread ended by a budget or a crash, not one whose priority could not be restored). */
  private retire(slot: Slot, replaced = true): void {
    slot.retired = true;
    this.release(slot);
    const i = this.slots.indexOf(slot);
    if (i >= 0) this.slots.splice(i, 1);
    if (replaced) this.replaced++;
    if (!this.closed) queueMicrotask(() => this.dispatch());
  }
}
