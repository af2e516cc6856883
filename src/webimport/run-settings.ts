/**
 * A website import run's settings from the configuration: the polite fetcher (per-host pacing, timeout, retries per
 * URL and per run, the response cap) and the crawl's limits, with the run's deadline counted from the run's start
 * (`startedAt`, stored: a retried crawl activity keeps the deadline of the run, it does not get a new one).
 */
import type { Config } from '../config/config.js';
import { fetchPolicyFromConfig } from '../net/policy.js';
import type { CrawlLimits } from './crawl.js';
import { PoliteFetcher } from './polite-fetcher.js';
import { WEBIMPORT_MAX_RESPONSE_BYTES } from './errors.js';

/** The most one response may have, whatever WEBIMPORT_MAX_BYTES allows (a response is held in memory whole). */
export const MAX_RESPONSE_BYTES = WEBIMPORT_MAX_RESPONSE_BYTES;

type WebImportConfig = Pick<
  Config,
  | 'fetchDenyPrivateNetworks'
  | 'fetchAllowHosts'
  | 'webimportConcurrency'
  | 'webimportDelayMs'
  | 'webimportTimeoutMs'
  | 'webimportRetries'
  | 'webimportRunRetries'
  | 'webimportDeadlineMs'
  | 'webimportMaxPages'
  | 'webimportMaxBytes'
  | 'webimportMaxDepth'
>;

export interface RunSettings {
  fetcher: PoliteFetcher;
  limits: CrawlLimits;
  deadline: { at: number; ms: number };
  concurrency: number;
}

export function webImportRunSettings(config: WebImportConfig, run: { startedAt: Date | null }, signal?: AbortSignal): RunSettings {
  const deadline = { at: (run.startedAt?.getTime() ?? Date.now()) + config.webimportDeadlineMs, ms: config.webimportDeadlineMs };
  const fetcher = new PoliteFetcher({
    policy: fetchPolicyFromConfig(config),
    concurrency: config.webimportConcurrency,
    delayMs: config.webimportDelayMs,
    timeoutMs: config.webimportTimeoutMs,
    retries: config.webimportRetries,
    runRetries: config.webimportRunRetries,
    maxResponseBytes: Math.min(config.webimportMaxBytes, MAX_RESPONSE_BYTES),
    deadline,
    ...(signal ? { signal } : {}),
  });
  return {
    fetcher,
    limits: { maxPages: config.webimportMaxPages, maxBytes: config.webimportMaxBytes, maxDepth: config.webimportMaxDepth },
    deadline,
    concurrency: config.webimportConcurrency,
  };
}
