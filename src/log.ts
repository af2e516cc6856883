import { pino, type Logger, type LoggerOptions } from 'pino';
import { redact } from './redact.js';

export type { Logger };

/**
 * The process logger. JSON lines, or pretty output when stdout is a terminal
 * (or FOLIO_LOG_PRETTY=1). Every string is passed through `redact` so a URL with
 * basic-auth credentials can never be logged in clear.
 */
export function createLogger(name: string, options: { level?: string; pretty?: boolean } = {}): Logger {
  const level = options.level ?? process.env.LOG_LEVEL ?? 'info';
  const pretty = options.pretty ?? (process.env.FOLIO_LOG_PRETTY === '1' || (process.env.FOLIO_LOG_PRETTY !== '0' && process.stdout.isTTY === true));
  const opts: LoggerOptions = {
    name,
    level,
    hooks: {
      logMethod(args, method) {
        method.apply(this, args.map((a) => (typeof a === 'string' ? redact(a) : a)) as Parameters<typeof method>);
      },
    },
    formatters: {
      log(obj) {
        return JSON.parse(redact(JSON.stringify(obj))) as Record<string, unknown>;
      },
    },
    redact: { paths: ['password', '*.password', 'token', '*.token', 'authorization', '*.authorization', 'credentials', '*.credentials'], censor: '***' },
  };
  if (pretty) {
    return pino({ ...opts, transport: { target: 'pino-pretty', options: { colorize: process.stdout.isTTY === true, translateTime: 'HH:MM:ss.l', ignore: 'pid,hostname' } } });
  }
  return pino(opts);
}
