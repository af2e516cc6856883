import { createLogger, type Logger } from '../../src/log.js';

/** A quiet logger for tests (LOG_LEVEL=debug to see everything). */
export function testLogger(name = 'test'): Logger {
  return createLogger(name, { level: process.env.LOG_LEVEL ?? 'warn', pretty: false });
}
