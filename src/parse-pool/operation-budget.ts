/**
 * The parse budget of one whole operation (a git import or export, a search indexing), beside each task's own budget:
 * - CPU time: what all its tasks may spend on the CPU together (`cpuMs`), read per pool thread from Linux's
 *   `/proc/self/task/<tid>/schedstat`, where available; elsewhere the wall time its tasks hold pool threads. CPU time
 *   does not grow while a thread waits for the CPU: an operation of ordinary pages on a loaded machine does not use up
 *   its budget for being slow, a hostile one does by parsing;
 * - a deadline (`deadlineMs`): wall time from its first task taking a thread, so that the operation ends within a known
 *   time whatever the load (a task waiting for its turn counts too).
 *
 * Once either is reached the budget is exhausted for good: its `signal` aborts with ParseBudgetExceededError
 * (`operation`), which ends the operation's running tasks (their threads are terminated and replaced), drops its
 * waiting ones and refuses new ones at once. A caller keeps what it could not parse as it is (the importer keeps the
 * remaining pages as raw bytes with a typed warning).
 */
import { ParseBudgetExceededError } from './errors.js';

export interface OperationBudgetOptions {
  /** CPU time of all the operation's tasks, in milliseconds. */
  cpuMs: number;
  /** Wall time from the first task taking a thread, in milliseconds (default: none). */
  deadlineMs?: number;
  /** Named in the error (default `operation`). */
  operation?: string;
}

/** The CPU time (ms) of the thread running a task, or undefined when it cannot be read (the wall time then counts). */
export type ThreadClock = () => number | undefined;

interface Running {
  since: number;
  clock: () => number;
}

const wallClock = () => performance.now();

export class OperationBudget {
  readonly cpuMs: number;
  readonly deadlineMs: number | undefined;
  private readonly controller = new AbortController();
  private readonly operation: string;
  /** CPU time of the tasks that ended. */
  private spentMs = 0;
  private readonly running = new Set<Running>();
  private timer: NodeJS.Timeout | null = null;
  private deadline: NodeJS.Timeout | null = null;

  constructor(options: OperationBudgetOptions) {
    if (!(options.cpuMs > 0)) throw new RangeError('an operation budget needs a positive CPU time');
    if (options.deadlineMs !== undefined && !(options.deadlineMs > 0)) throw new RangeError('an operation deadline must be positive');
    this.cpuMs = options.cpuMs;
    this.deadlineMs = options.deadlineMs;
    this.operation = options.operation ?? 'operation';
  }

  /** Aborts (with ParseBudgetExceededError) once the budget is used up. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get exhausted(): boolean {
    return this.controller.signal.aborted;
  }

  /** CPU time used so far, the running tasks' included. */
  usedMs(): number {
    let used = this.spentMs;
    for (const r of this.running) used += r.clock() - r.since;
    return used;
  }

  /**
   * A task of the operation took a thread whose CPU time `clock` reads: its time counts from now until the returned
   * function is called (when it answers, fails or is ended). Called once per task by the pool.
   */
  begin(clock?: ThreadClock): () => void {
    this.startDeadline();
    const start = clock?.();
    const read = start !== undefined && clock ? () => clock() ?? start : wallClock;
    const run: Running = { since: start ?? wallClock(), clock: read };
    this.running.add(run);
    this.watch();
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.running.delete(run);
      this.spentMs += run.clock() - run.since;
      if (this.running.size === 0) this.unwatch();
      this.check();
    };
  }

  private startDeadline(): void {
    if (this.deadline || this.deadlineMs === undefined || this.exhausted) return;
    const deadlineMs = this.deadlineMs;
    this.deadline = setTimeout(() => this.exhaust(new ParseBudgetExceededError('operation', deadlineMs, this.operation, 'deadline')), deadlineMs);
    this.deadline.unref();
  }

  /** Checks the time used while tasks run (often enough to end them close to the budget). */
  private watch(): void {
    if (this.timer || this.exhausted) return;
    const every = Math.max(10, Math.min(250, Math.floor(this.cpuMs / 40)));
    this.timer = setInterval(() => this.check(), every);
    this.timer.unref();
  }

  private unwatch(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private check(): void {
    if (this.exhausted || this.usedMs() < this.cpuMs) return;
    this.exhaust(new ParseBudgetExceededError('operation', this.cpuMs, this.operation, 'cpu'));
  }

  private exhaust(reason: ParseBudgetExceededError): void {
    if (this.exhausted) return;
    this.unwatch();
    if (this.deadline) clearTimeout(this.deadline);
    this.deadline = null;
    this.controller.abort(reason);
  }
}
