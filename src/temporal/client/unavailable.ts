import { isGrpcServiceError, ServiceError } from '@temporalio/client';

/**
 * gRPC statuses of Temporal's passing trouble: the service does not answer or is restarting (UNAVAILABLE), did not
 * answer in time (DEADLINE_EXCEEDED: the call's outcome is unknown, and every call the API makes is safe to send
 * again — starts and signals carry ids that Temporal or the workflow deduplicates), or sheds load
 * (RESOURCE_EXHAUSTED).
 */
const PASSING = new Set([14, 4, 8]);

/** Whether `err`, or an error it wraps (`cause`), says Temporal is unreachable for now: the API answers 503. */
export function isTemporalUnavailable(err: unknown): boolean {
  let e: unknown = err;
  for (let depth = 0; depth < 5 && e; depth++) {
    if (isGrpcServiceError(e)) return PASSING.has(e.code);
    if (!(e instanceof ServiceError) && !(e instanceof Error)) return false;
    e = e.cause;
  }
  return false;
}
