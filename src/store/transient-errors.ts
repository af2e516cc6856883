/**
 * Which errors of the pg driver are passing trouble (retry later) rather than a failed statement: connection
 * loss (→ StoreUnavailableError) and the SQLSTATEs of contention and exhausted resources (→ StoreTransientError).
 */
import { redact } from '../redact.js';
import { StoreTransientError, StoreUnavailableError } from './errors.js';

/** SQLSTATE classes and codes that a later attempt of the same statement can get past. */
const TRANSIENT_STATES = new Set(['40001', '40P01', '55P03', '55006', '57014', '25P03', '53000', '53100', '53200', '53300', '53400', '58000', '58030']);

/** Socket errors of a connection that could not be made or was lost (codes of Node's net module). */
const SOCKET_CODES = new Set(['EPIPE', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ENETDOWN', 'EHOSTDOWN']);

/**
 * Errors that mean "the server is not reachable" rather than "the statement failed": a refused, reset or timed-out
 * connection, a unix socket that is not there (ENOENT on connect: the embedded database server is restarting),
 * SQLSTATE class 08 (connection exception) and 57P01-57P03 (the server shut down or is starting), and pg's own
 * messages for a connection that ended or a client left unusable by one.
 */
export function isConnectionError(err: unknown): boolean {
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code !== 'string')
    return (
      err instanceof Error &&
      /Connection terminated|Cannot use a pool after calling end|not queryable|timeout exceeded when trying to connect/i.test(err.message)
    );
  const syscall = (err as { syscall?: unknown }).syscall;
  return (
    code.startsWith('ECONN') ||
    SOCKET_CODES.has(code) ||
    ((code === 'ENOENT' || code === 'EACCES') && syscall === 'connect') ||
    code.startsWith('08') ||
    code === '57P01' ||
    code === '57P02' ||
    code === '57P03'
  );
}

/**
 * Errors of a server that is not there (yet), before anything was sent: connection refused, its unix socket missing
 * (the embedded database server restarting), 57P03 (starting up). Connecting again later is safe.
 */
export function isServerAbsent(err: unknown): boolean {
  const { code, syscall } = (err ?? {}) as { code?: unknown; syscall?: unknown };
  return code === 'ECONNREFUSED' || code === '57P03' || (code === 'ENOENT' && syscall === 'connect');
}

/** What a log line may say of a connection error: its code and its message without credentials (never a statement). */
export function describeConnectionError(err: unknown): { code?: string; message: string } {
  const code = (err as { code?: unknown } | null)?.code;
  return { ...(typeof code === 'string' ? { code } : {}), message: redact(err instanceof Error ? err.message : String(err)) };
}

/** The typed retryable error for a connection loss or a transient SQLSTATE; any other error unchanged. */
export function translateStoreError(err: unknown): unknown {
  const message = redact(err instanceof Error ? err.message : String(err));
  if (isConnectionError(err)) return new StoreUnavailableError(`database unreachable: ${message}`, err);
  const code = (err as { code?: unknown } | null)?.code;
  if (typeof code === 'string' && TRANSIENT_STATES.has(code)) return new StoreTransientError(`database busy (${code}): ${message}`, code, err);
  return err;
}
