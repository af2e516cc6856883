/**
 * The parse budget of one whole operation (a git import or export, a search indexing): the thread time all its tasks
 * may take in the parse pool together, beside each task's own budget. Thread time is the wall time a task holds a
 * pool thread (from the moment the thread takes it to its answer), summed over the operation's tasks, those running
 * at the same time each counted: it is what the operation takes from the pool, whatever else runs on the machine.
 *
 * Once the time is used up the budget is exhausted for good: its `signal` aborts with ParseBudgetExceededError
 * (`operation`), which ends the operation's running tasks (their threads are terminated and replaced), drops its
 * waiting ones and refuses new ones at once. A caller keeps what it could not parse as it is (the importer keeps the
 * remaining pages as raw bytes with a typed warning), so the operation ends within about its budget.
 */
import { ParseBudgetExceededError } from './errors.js';

export interface OperationBudgetOptions {
  /** Thread time of the whole operation, in milliseconds. */
  timeMs: number;
  /** Named in the error (default `operation`). */
  operation?: string;
}

export class OperationBudget {
  readonly timeMs: number;
  private readonly controller = new AbortController();
  private readonly operation: string;
  /** Thread time of the tasks that answered. */
  private spentMs = 0;
  /** Start times of the tasks running now. */
  private readonly running = new Set<{ since: number }>();
  private timer: NodeJS.Timeout | null = null;

  constructor(options: OperationBudgetOptions) {
    if (!(options.timeMs > 0)) throw new RangeError('an operation budget needs a positive time');
    this.timeMs = options.timeMs;
    this.operation = options.operation ?? 'operation';
  }

  /** Aborts (with ParseBudgetExceededError) once the time is used up. */
  get signal(): AbortSignal {
    return this.controller.signal;
  }

  get exhausted(): boolean {
    return this.controller.signal.aborted;
  }

  /** Thread time used so far, the running tasks' included. */
  usedMs(now = performance.now()): number {
    let used = this.spentMs;
    for (const r of this.running) used += now - r.since;
    return used;
  }

  /**
   * A task of the operation took a thread: its time counts from now until the returned function is called (when it
   * answers, fails or is ended). Called once per task by the pool.
   */
  begin(): () => void {
    const run = { since: performance.now() };
    this.running.add(run);
    this.watch();
    let ended = false;
    return () => {
      if (ended) return;
      ended = true;
      this.running.delete(run);
      this.spentMs += performance.now() - run.since;
      if (this.running.size === 0) this.unwatch();
      this.check();
    };
  }

  /** Checks the time used while tasks run (often enough to end them close to the budget). */
  private watch(): void {
    if (this.timer || this.exhausted) return;
    const every = Math.max(10, Math.min(250, Math.floor(this.timeMs / 40)));
    this.timer = setInterval(() => this.check(), every);
    this.timer.unref();
  }

  private unwatch(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  private check(): void {
    if (this.exhausted || this.usedMs() < this.timeMs) return;
    this.unwatch();
    this.controller.abort(new ParseBudgetExceededError('operation', this.timeMs, this.operation));
  }
}
