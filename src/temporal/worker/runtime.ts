import { DefaultLogger, Runtime, type LogLevel, type LogEntry } from '@temporalio/worker';
import type { Logger } from '../../log.js';

let installed = false;

/**
 * Routes the Temporal SDK's own logs into pino and, given `prometheusBindAddress` (`host:port`), serves the SDK's
 * runtime metrics there (Prometheus: task slots, poll and schedule-to-start latencies, sticky cache, …). Once per
 * process, before any worker or native connection.
 */
export function installRuntime(logger: Logger, options: { prometheusBindAddress?: string } = {}): void {
  if (installed) return;
  installed = true;
  const level = (
    logger.level === 'debug' || logger.level === 'trace' ? 'DEBUG' : logger.level === 'warn' ? 'WARN' : logger.level === 'error' ? 'ERROR' : 'INFO'
  ) as LogLevel;
  const sdk = logger.child({ component: 'temporal-sdk' });
  Runtime.install({
    ...(options.prometheusBindAddress ? { telemetryOptions: { metrics: { prometheus: { bindAddress: options.prometheusBindAddress } } } } : {}),
    logger: new DefaultLogger(level, (entry: LogEntry) => {
      const fields = { ...(entry.meta ?? {}) };
      switch (entry.level) {
        case 'TRACE':
        case 'DEBUG':
          sdk.debug(fields, entry.message);
          break;
        case 'WARN':
          sdk.warn(fields, entry.message);
          break;
        case 'ERROR':
          sdk.error(fields, entry.message);
          break;
        default:
          sdk.info(fields, entry.message);
      }
    }),
  });
}
