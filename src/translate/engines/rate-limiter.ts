/** At most `perSecond` starts per second, spaced evenly (callers wait their turn, in order). */
export class RateLimiter {
  private nextAt = 0;

  constructor(private readonly perSecond: number) {}

  async take(signal?: AbortSignal): Promise<void> {
    if (!(this.perSecond > 0) || !Number.isFinite(this.perSecond)) return;
    const gap = 1000 / this.perSecond;
    const now = Date.now();
    const at = Math.max(now, this.nextAt);
    this.nextAt = at + gap;
    const wait = at - now;
    if (wait > 0) await sleep(wait, signal);
  }
}

export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason instanceof Error ? signal.reason : new Error('aborted'));
    const timer = setTimeout(() => {
      signal?.removeEventListener('abort', onAbort);
      resolve();
    }, ms);
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal!.reason instanceof Error ? signal!.reason : new Error('aborted'));
    };
    signal?.addEventListener('abort', onAbort, { once: true });
  });
}
