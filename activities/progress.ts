/**
 * Live progress of a long activity, for every pipeline: heartbeats (so a cancel reaches it and a dead worker is
 * noticed) carrying the current Progress, and, at most every two seconds, a signal to its own workflow, which
 * answers a query with it and shows it in the run's current details (workflows/progress.ts). The first signal goes
 * `firstAfterMs` after the first update, by a timer (a step that holds, such as a fetch waiting for its first byte,
 * still shows live progress): an activity done sooner (a tiny import, a no-op) signals only its final progress
 * (`flush`), instead of waking its workflow for a workflow task while it runs; the git activities return their final
 * progress with their result instead (no signal at all).
 *
 *   const progress = progressReporter<GitProgress>('fetching', { signal: gitSignals.progress, cancelled: (op) => new GitCancelledError(op) });
 *   progress.update({ phase: 'parsing', filesRead: 3 });
 */
import { ApplicationFailure, Context } from '@temporalio/activity';
import type { Progress } from '../src/temporal/contract/index.js';
import { assertAttemptCurrent } from './attempt-current.js';
import type { ProgressOptions, ProgressReporter } from './progress-types.js';

export type { ProgressOptions, ProgressReporter } from './progress-types.js';

function cancelledFailure(operation: string): Error {
  return ApplicationFailure.create({ type: 'CANCELLED', message: `${operation} cancelled`, nonRetryable: true });
}

export function progressReporter<P extends Progress = Progress>(phase: string, options: ProgressOptions): ProgressReporter<P> {
  const intervalMs = options.intervalMs ?? 2000;
  const cancelled = options.cancelled ?? cancelledFailure;
  let ctx: Context | undefined;
  try {
    ctx = Context.current();
  } catch {
    ctx = undefined;
  }
  const current = { phase } as P;
  const firstAfterMs = options.firstAfterMs ?? 300;
  let lastSent = 0;
  let sending: Promise<void> = Promise.resolve();
  let first: ReturnType<typeof setTimeout> | undefined;
  let flushed = false;
  const keepAlives = new Set<NodeJS.Timeout>();
  const send = () => {
    if (!ctx) return;
    if (first !== undefined) clearTimeout(first);
    first = undefined;
    lastSent = Date.now();
    const snapshot = { ...current };
    const workflowId = ctx.info.workflowExecution?.workflowId;
    if (!workflowId) return;
    let client;
    try {
      client = ctx.client;
    } catch {
      return;
    }
    sending = sending.then(() => client.workflow.getHandle(workflowId).signal(options.signal, snapshot)).catch(() => undefined);
  };
  const reporter: ProgressReporter<P> = {
    current,
    signal: ctx?.cancellationSignal,
    update(p) {
      Object.assign(current, p);
      ctx?.heartbeat(current);
      if (!ctx || flushed) return;
      if (lastSent === 0) {
        // The first signal, by a timer: what is current when it fires (unless the activity finished first).
        if (first === undefined) {
          first = setTimeout(() => {
            first = undefined;
            if (!flushed && !ctx?.cancellationSignal.aborted) send();
          }, firstAfterMs);
          first.unref?.();
        }
        return;
      }
      if (Date.now() - lastSent >= intervalMs) send();
    },
    async assertNotCancelled(operation) {
      await assertAttemptCurrent(ctx, operation, cancelled);
    },
    close() {
      flushed = true;
      if (first !== undefined) clearTimeout(first);
      first = undefined;
      for (const t of keepAlives) clearInterval(t);
      keepAlives.clear();
    },
    keepAlive(everyMs = 5000) {
      if (!ctx) return () => undefined;
      const timer = setInterval(() => reporter.update({}), everyMs);
      timer.unref();
      keepAlives.add(timer);
      return () => {
        clearInterval(timer);
        keepAlives.delete(timer);
      };
    },
    async flush() {
      flushed = true;
      send();
      await sending;
    },
  };
  return reporter;
}
