/**
 * How long this process's event loop was held, counted in the main thread's CPU time: a timer every `everyMs` reads
 * the main thread's CPU time (`src/parse-pool/thread-cpu.ts`); the most CPU time between two ticks is the longest the
 * loop ran without turning (at least). Unlike the wall-clock delay (`monitorEventLoopDelay`), it does not grow when a
 * loaded machine keeps the thread off the CPU: a parse on the event loop shows as its seconds of CPU time whatever the
 * load, while an ordinary turn stays at milliseconds. Where the CPU time cannot be read, it counts wall time.
 */
import { threadCpuClock } from '../../src/parse-pool/thread-cpu.js';

export interface LoopCpuMonitor {
  /** Starts (again) from now: the maxima are reset. */
  reset(): void;
  /** Stops the timer. */
  disable(): void;
  /** The most main-thread CPU time (ms) between two ticks since the last reset. */
  readonly maxCpuMs: number;
  /** The longest wall time (ms) between two ticks since the last reset (for the report only: it grows with the load). */
  readonly maxWallMs: number;
}

export function monitorLoopCpu(everyMs = 10): LoopCpuMonitor {
  // The main thread's kernel id is the process id.
  const cpu = threadCpuClock(process.pid) ?? (() => performance.now());
  let lastCpu = cpu() ?? 0;
  let lastWall = performance.now();
  let maxCpuMs = 0;
  let maxWallMs = 0;
  const tick = () => {
    const nowCpu = cpu() ?? lastCpu;
    const nowWall = performance.now();
    maxCpuMs = Math.max(maxCpuMs, nowCpu - lastCpu);
    maxWallMs = Math.max(maxWallMs, nowWall - lastWall);
    lastCpu = nowCpu;
    lastWall = nowWall;
  };
  const timer = setInterval(tick, everyMs);
  timer.unref();
  return {
    reset() {
      tick();
      maxCpuMs = 0;
      maxWallMs = 0;
    },
    disable() {
      tick();
      clearInterval(timer);
    },
    get maxCpuMs() {
      return maxCpuMs;
    },
    get maxWallMs() {
      return maxWallMs;
    },
  };
}
