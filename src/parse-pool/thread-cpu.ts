/**
 * The CPU time of one thread of this process, by its kernel id (Linux): the first field of
 * `/proc/self/task/<tid>/schedstat` (nanoseconds on the CPU), else utime + stime of `/proc/self/task/<tid>/stat`
 * (clock ticks, taken as 100 per second). Undefined where neither can be read (another system): the caller counts
 * wall time instead.
 */
import { readFileSync } from 'node:fs';
import type { ThreadClock } from './operation-budget.js';

/** A reader of the thread's CPU time in milliseconds, or undefined when it cannot be read now. */
export function threadCpuClock(tid: number): ThreadClock | undefined {
  const schedstat = `/proc/self/task/${tid}/schedstat`;
  const stat = `/proc/self/task/${tid}/stat`;
  const fromSchedstat = (): number | undefined => {
    try {
      const ns = Number(readFileSync(schedstat, 'utf8').split(' ')[0]);
      return Number.isFinite(ns) ? ns / 1e6 : undefined;
    } catch {
      return undefined;
    }
  };
  const fromStat = (): number | undefined => {
    try {
      const text = readFileSync(stat, 'utf8');
      const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
      const ticks = Number(fields[11]) + Number(fields[12]);
      return Number.isFinite(ticks) ? ticks * 10 : undefined;
    } catch {
      return undefined;
    }
  };
  if (fromSchedstat() !== undefined) return fromSchedstat;
  if (fromStat() !== undefined) return fromStat;
  return undefined;
}
