/**
 * The last line of a long-running Folio process (worker, API, embedded database server): an exception nothing
 * caught. Every `pg` client has its own 'error' listener (src/store/sql-pg.ts) and a lost connection fails the
 * statement that used it, retried by its operation; should a connection error still escape (an emitter without a
 * listener, a rejected promise nobody awaited), it is logged and the process keeps running: the connection is gone
 * either way, and exiting would lose every activity in flight. Anything else is logged (redacted) and ends the process
 * with code 1, as Node would, but never silently.
 */
import type { Logger } from '../log.js';
import { redact } from '../redact.js';
import { describeConnectionError, isConnectionError } from '../store/index.js';

let installed = false;

/** What a connection error (or one it wraps) looks like, else null. */
function lostConnection(err: unknown): unknown {
  let e: unknown = err;
  for (let depth = 0; depth < 5 && e; depth++) {
    if (isConnectionError(e) || (e as { code?: unknown }).code === 'STORE_UNAVAILABLE') return e;
    e = (e as { cause?: unknown }).cause;
  }
  return null;
}

export function installLastResort(logger: Pick<Logger, 'error' | 'fatal'>): void {
  if (installed) return;
  installed = true;
  const handle = (err: unknown, origin: string) => {
    const lost = lostConnection(err);
    if (lost) {
      logger.error({ error: describeConnectionError(lost), origin }, 'a lost database connection was not handled where it happened; the process keeps running');
      return;
    }
    const stack = err instanceof Error && err.stack ? redact(err.stack) : undefined;
    logger.fatal({ error: { ...describeConnectionError(err), stack }, origin }, 'uncaught exception; the process exits');
    process.exit(1);
  };
  process.on('uncaughtException', (err, origin) => handle(err, origin));
  process.on('unhandledRejection', (reason) => handle(reason, 'unhandledRejection'));
}
