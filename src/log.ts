import { pino, type DestinationStream, type Logger, type LoggerOptions } from 'pino';
import { redact } from './redact.js';

export type { Logger };

/**
 * Redacts every string in plain objects and arrays (a few levels deep). Class instances (requests, sockets,
 * errors) are left to pino's serializers, which run after this formatter.
 */
function redactValues(value: unknown, depth: number): unknown {
  if (typeof value === 'string') return redact(value);
  if (depth > 6 || value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((v) => redactValues(v, depth + 1));
  const proto = Object.getPrototypeOf(value);
  if (proto !== Object.prototype && proto !== null) {
    if (value instanceof Error)
      return { type: value.name, message: redact(value.message), ...('code' in value ? { code: (value as { code: unknown }).code } : {}) };
    return value;
  }
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = redactValues(v, depth + 1);
  return out;
}

/**
 * The process logger. JSON lines, or pretty output when `pretty` (the configuration's FOLIO_LOG_PRETTY) says
 * so or, when it says nothing, when stdout is a terminal. `level` is the configuration's LOG_LEVEL. Every string is passed through `redact` so a URL with
 * basic-auth credentials can never be logged in clear.
 */
export function createLogger(name: string, options: { level?: string; pretty?: boolean | undefined; destination?: DestinationStream } = {}): Logger {
  const level = options.level ?? 'info';
  const pretty = options.pretty ?? process.stdout.isTTY === true;
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
        return redactValues(obj, 0) as Record<string, unknown>;
      },
    },
    redact: { paths: ['password', '*.password', 'token', '*.token', 'authorization', '*.authorization', 'credentials', '*.credentials'], censor: '***' },
  };
  if (options.destination) return pino(opts, options.destination);
  if (pretty) {
    return pino({
      ...opts,
      transport: { target: 'pino-pretty', options: { colorize: process.stdout.isTTY === true, translateTime: 'HH:MM:ss.l', ignore: 'pid,hostname' } },
    });
  }
  return pino(opts);
}
