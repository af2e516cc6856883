/**
 * Live progress of a long git activity: heartbeats (so a cancel reaches it and a dead worker is noticed) and,
 * at most every two seconds, a `gitProgress` signal to its own workflow, which shows it in the workflow's
 * current details and answers the `gitProgress` query.
 */
import { Context } from '@temporalio/activity';
import { gitProgressSignal, type GitProgress } from '../workflows/git-definitions.js';

export interface ProgressReporter {
  update(p: Partial<GitProgress>): void;
  readonly current: GitProgress;
  flush(): Promise<void>;
  readonly signal: AbortSignal | undefined;
}

export function progressReporter(phase: string, intervalMs = 2000): ProgressReporter {
  let ctx: Context | undefined;
  try {
    ctx = Context.current();
  } catch {
    ctx = undefined;
  }
  const current: GitProgress = { phase };
  let lastSent = 0;
  let sending: Promise<void> = Promise.resolve();
  const send = () => {
    if (!ctx) return;
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
    sending = sending
      .then(() => client.workflow.getHandle(workflowId).signal(gitProgressSignal, snapshot))
      .catch(() => undefined);
  };
  return {
    current,
    signal: ctx?.cancellationSignal,
    update(p) {
      Object.assign(current, p);
      ctx?.heartbeat(current);
      if (Date.now() - lastSent >= intervalMs) send();
    },
    async flush() {
      send();
      await sending;
    },
  };
}
