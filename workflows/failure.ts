/**
 * The one classifier of what a workflow caught: it looks through the wrappers Temporal adds
 * (ChildWorkflowFailure, ActivityFailure) to the failure that decided the outcome. Callers word the result.
 */
import { ActivityFailure, ApplicationFailure, ChildWorkflowFailure, isCancellation, TimeoutFailure } from '@temporalio/workflow';

export type FailureKind =
  /** A typed failure: `type` is its code (`AUTH_FAILED`, `PARSE_ERROR`, …), `details` its payload. */
  | { kind: 'application'; type: string | undefined; message: string; details: unknown[] | undefined }
  | { kind: 'timeout'; timeoutType: string; message: string }
  | { kind: 'cancelled'; causeMessage: string }
  /** Anything else (a bug, the store failing): the message of what was caught, and of what it wraps. */
  | { kind: 'other'; message: string; causeMessage: string };

export function classifyFailure(err: unknown): FailureKind {
  let e: unknown = err;
  for (let i = 0; i < 4 && e; i++) {
    if (e instanceof ApplicationFailure) return { kind: 'application', type: e.type ?? undefined, message: e.message, details: e.details ?? undefined };
    if (e instanceof TimeoutFailure) return { kind: 'timeout', timeoutType: String(e.timeoutType), message: e.message };
    if (e instanceof ChildWorkflowFailure || e instanceof ActivityFailure) e = e.cause;
    else break;
  }
  const cause = err instanceof ActivityFailure || err instanceof ChildWorkflowFailure ? err.cause : err;
  if (isCancellation(err)) return { kind: 'cancelled', causeMessage: messageOf(cause) };
  return { kind: 'other', message: messageOf(err), causeMessage: messageOf(cause) };
}

function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
