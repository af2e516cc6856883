/** What `progressReporter` (./progress.ts) gives an activity, and its options. */
import type { Progress } from '../src/temporal/contract/index.js';

export interface ProgressReporter<P extends Progress = Progress> {
  update(p: Partial<P>): void;
  readonly current: P;
  /** Sends the current progress now and waits for the signals sent. */
  flush(): Promise<void>;
  /** The activity is over (whatever its outcome): a first signal not sent yet is not sent any more; keep-alives stop. */
  close(): void;
  /**
   * Sends the current progress again every `everyMs` until the returned function (or `close`) is called: for a step
   * that makes no update for a while but is bounded otherwise (parsing, within its budgets), so that heartbeats keep
   * flowing (the heartbeat timeout does not end a working attempt) and a cancel still reaches the activity.
   */
  keepAlive(everyMs?: number): () => void;
  readonly signal: AbortSignal | undefined;
  /**
   * Throws (`options.cancelled`) when this attempt must not change anything any more: a cancel seen by a heartbeat,
   * or (asked of the server now, since heartbeats are throttled and a cancel may not have reached us yet) the
   * workflow closed or asked to cancel this activity, or this attempt was superseded by a retry. Call it right
   * before the point of no return (storing a revision, making it primary, pushing).
   */
  assertNotCancelled(operation: string): Promise<void>;
}

export interface ProgressOptions {
  /** Name of the workflow's progress signal (from the contract, e.g. `gitSignals.progress`). */
  signal: string;
  /** Least time between two signals (heartbeats are throttled by the SDK). Default 2000 ms. */
  intervalMs?: number;
  /** Time from the first update to the first signal. Default 300 ms. */
  firstAfterMs?: number;
  /** The error `assertNotCancelled` throws. Default: a non-retryable `CANCELLED` ApplicationFailure. */
  cancelled?: (operation: string) => Error;
}
