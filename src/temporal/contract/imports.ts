/**
 * `org/<organizationId>/import/<runId>`: one content import run (website import) — input, result, progress,
 * signal and query names, failure codes. Ids and counts only: the site's content stays in the store.
 */
import type { Progress } from './progress.js';

export interface ContentImportInput {
  runId: string;
  organizationId: string;
  spaceId: string;
  /**
   * Heartbeat timeout (ms) of the crawl and build activities, default 20 s: how long the attempt of a dead worker goes
   * unnoticed before it is retried. The API never sets it; tests that kill workers shorten it.
   */
  heartbeatTimeoutMs?: number;
  /** First retry interval (ms) of those activities, default 2 s. The API never sets it; tests that kill workers shorten it. */
  retryInitialIntervalMs?: number;
}

export interface ContentImportResult {
  outcome: 'completed' | 'failed' | 'cancelled';
  revisionId?: string;
  importedResources: number;
  totalResources: number;
  code?: string;
  reason?: string;
}

/** Progress of an import run: URLs done of those discovered, then pages converted. */
export interface ContentImportProgress extends Progress {
  importedResources?: number;
  totalResources?: number;
}

export const contentImportSignals = {
  /** Live progress, sent by the crawl and build activities to their workflow, argument ContentImportProgress. */
  progress: 'contentImportProgress',
} as const;

export const contentImportQueries = {
  /** The latest ContentImportProgress, or null before the first report. */
  progress: 'contentImportProgress',
} as const;

/** Typed failures of the run that retrying cannot fix (the activities' other errors are retried). */
export const NON_RETRYABLE_IMPORT_ERRORS = [
  'WEBIMPORT_BAD_URL',
  'WEBIMPORT_START_FAILED',
  'WEBIMPORT_ROBOTS_DISALLOWED',
  'WEBIMPORT_TOO_MANY_PAGES',
  'WEBIMPORT_TOO_LARGE',
  'WEBIMPORT_RESPONSE_TOO_LARGE',
  'WEBIMPORT_HOST_NOT_FOUND',
  'WEBIMPORT_SITE_UNREACHABLE',
  'WEBIMPORT_DEADLINE',
  'WEBIMPORT_NO_PAGES',
  'WEBIMPORT_CANCELLED',
  'WEBIMPORT_TARGET_GONE',
  'FETCH_PRIVATE_ADDRESS_DENIED',
  'FETCH_UNSUPPORTED_URL',
  'FETCH_REDIRECT',
  'NOT_FOUND',
  'LOCKED',
  'CONFLICT',
] as const;
