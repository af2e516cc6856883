import { performance } from 'node:perf_hooks';

/** The time an operation spends in each of its phases, in whole milliseconds (the result's `timingsMs`). */
export class PhaseTimings {
  readonly timingsMs: Record<string, number> = {};
  private mark = performance.now();

  /** Adds the time since the last lap (or the start) to `phase`. */
  lap(phase: string): void {
    const now = performance.now();
    this.timingsMs[phase] = Math.round((this.timingsMs[phase] ?? 0) + now - this.mark);
    this.mark = now;
  }

  /** Sets `name` to the time `work` takes from now (steps that run side by side; no lap). */
  async timed<T>(name: string, work: Promise<T>): Promise<T> {
    const start = performance.now();
    const result = await work;
    this.timingsMs[name] = Math.round(performance.now() - start);
    return result;
  }
}
