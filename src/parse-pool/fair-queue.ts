/**
 * The parse pool's waiting tasks, one line per tenant key (an organization's id; `''` for work of no tenant), served
 * fairly: the next task comes from the key that runs the fewest tasks at that moment; among equals from the one that
 * used the pool least lately (`usage`: its recent thread time), then the one served least recently (round robin). A
 * tenant with hundreds of slow pages queued therefore delays another tenant's page by at most the tasks already
 * running, never by its whole queue, and a tenant of ordinary pages gets a freed thread before one whose pages hold
 * threads for seconds.
 */

/** Keys whose last turn is remembered before those without waiting tasks are forgotten. */
const MAX_REMEMBERED = 1000;

export interface Keyed {
  key: string;
}

export class FairQueue<T extends Keyed> {
  /** Each key's tasks in arrival order; a key leaves the map when its line is empty. */
  private readonly lines = new Map<string, T[]>();
  /**
   * When each key was last served (a counter); a key never served yet has none and goes first. Kept when a key's line
   * empties (a tenant whose pages arrive one by one is not new each time); pruned when many keys have no line.
   */
  private readonly served = new Map<string, number>();
  private turn = 0;
  private size = 0;

  get length(): number {
    return this.size;
  }

  /** Tasks waiting under `key`. */
  countOf(key: string): number {
    return this.lines.get(key)?.length ?? 0;
  }

  /** The keys with a task waiting. */
  keys(): IterableIterator<string> {
    return this.lines.keys();
  }

  push(task: T): void {
    const line = this.lines.get(task.key);
    if (line) line.push(task);
    else this.lines.set(task.key, [task]);
    this.size++;
  }

  /** Removes a waiting task (cancelled); false when it is not waiting any more. */
  remove(task: T): boolean {
    const line = this.lines.get(task.key);
    const i = line ? line.indexOf(task) : -1;
    if (!line || i < 0) return false;
    line.splice(i, 1);
    this.size--;
    if (line.length === 0) this.drop(task.key);
    return true;
  }

  /**
   * The next task to run, taken from the queue: from the key `eligible` accepts that runs the fewest tasks
   * (`running`), among equals the one of least `usage`, then the one served least recently. Undefined when no eligible
   * key has a task waiting.
   */
  take(running: (key: string) => number, eligible: (key: string) => boolean = () => true, usage: (key: string) => number = () => 0): T | undefined {
    let best: string | undefined;
    let bestRunning = Infinity;
    let bestUsage = Infinity;
    let bestServed = Infinity;
    for (const key of this.lines.keys()) {
      if (!eligible(key)) continue;
      const r = running(key);
      const u = r > bestRunning ? Infinity : usage(key);
      const s = this.served.get(key) ?? -1;
      if (r < bestRunning || (r === bestRunning && (u < bestUsage || (u === bestUsage && s < bestServed)))) {
        best = key;
        bestRunning = r;
        bestUsage = u;
        bestServed = s;
      }
    }
    if (best === undefined) return undefined;
    const line = this.lines.get(best)!;
    const task = line.shift()!;
    this.size--;
    this.served.set(best, this.turn++);
    if (line.length === 0) this.drop(best);
    return task;
  }

  /** Every waiting task, in arrival order per key; the queue is left empty. */
  drain(): T[] {
    const all = [...this.lines.values()].flat();
    this.lines.clear();
    this.served.clear();
    this.size = 0;
    return all;
  }

  private drop(key: string): void {
    this.lines.delete(key);
    if (this.served.size > MAX_REMEMBERED) for (const k of this.served.keys()) if (!this.lines.has(k)) this.served.delete(k);
  }
}
