import { availableParallelism } from 'node:os';
import path from 'node:path';
import { checkRefreshInterval } from './refresh-interval.js';
import { HostAllowlist } from './net/allowlist.js';

/** Folio's configuration, read from the environment (every variable is documented in README.md). */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** Use this PostgreSQL server instead of the embedded PGlite one. */
  databaseUrl: string | undefined;
  /** Use this Temporal frontend instead of starting the dev server. */
  temporalAddress: string | undefined;
  temporalPort: number;
  temporalUiPort: number;
  temporalNamespace: string;
  taskQueue: string;
  logLevel: string;
  bootstrapOrg: string;
  bootstrapToken: string | undefined;
  /** Where blobs live: `database` (default) or `directory` (under DATA_DIR/blobs). */
  blobStore: 'database' | 'directory';
  /** Window between a space's deletion and its purge, in milliseconds. */
  purgeAfterMs: number;
  gitMaxPages: number;
  gitMaxFileBytes: number;
  openapiFetchTimeoutMs: number;
  openapiRefreshInterval: string;
  /** Refuse non-public destinations on every outbound request (default true; see src/net). */
  fetchDenyPrivateNetworks: boolean;
  /** FETCH_ALLOW_HOSTS: hostnames, IPs and CIDRs allowed although private (validated at startup). */
  fetchAllowHosts: string[];
  /** Threads of the parse pool (default: the CPU count). */
  parseThreads: number;
  /** Time budget of parsing or writing one document, in milliseconds. */
  parseTimeBudgetMs: number;
  /** Heap budget of one parse thread, in MB. */
  parseMemoryBudgetMb: number;
  /** Time budget of processing one OpenAPI spec in its thread, in milliseconds of the thread's busy time. */
  openapiTimeBudgetMs: number;
  /** Heap budget of one OpenAPI processing thread, in MB. */
  openapiMemoryBudgetMb: number;
}

function int(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  const n = Number(raw);
  if (!Number.isFinite(n) || n < 0) throw new Error(`${name} must be a non-negative number, got ${JSON.stringify(raw)}`);
  return n;
}

function bool(env: NodeJS.ProcessEnv, name: string, fallback: boolean): boolean {
  const raw = env[name];
  if (raw === undefined || raw === '') return fallback;
  return ['1', 'true', 'yes', 'on'].includes(raw.toLowerCase());
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const blobStore = env.FOLIO_BLOB_STORE ?? 'database';
  if (blobStore !== 'database' && blobStore !== 'directory') throw new Error(`FOLIO_BLOB_STORE must be "database" or "directory", got ${JSON.stringify(blobStore)}`);
  return {
    port: int(env, 'PORT', 8080),
    host: env.HOST ?? '127.0.0.1',
    dataDir: path.resolve(env.DATA_DIR ?? './data'),
    databaseUrl: env.DATABASE_URL || undefined,
    temporalAddress: env.TEMPORAL_ADDRESS || undefined,
    temporalPort: int(env, 'TEMPORAL_PORT', 7233),
    temporalUiPort: int(env, 'TEMPORAL_UI_PORT', 8233),
    temporalNamespace: env.TEMPORAL_NAMESPACE || 'default',
    taskQueue: env.FOLIO_TASK_QUEUE || 'folio',
    logLevel: env.LOG_LEVEL || 'info',
    bootstrapOrg: env.FOLIO_BOOTSTRAP_ORG || 'default',
    bootstrapToken: env.FOLIO_BOOTSTRAP_TOKEN || undefined,
    blobStore,
    purgeAfterMs: int(env, 'FOLIO_PURGE_AFTER_MS', 7 * 24 * 3600 * 1000),
    gitMaxPages: int(env, 'FOLIO_GIT_MAX_PAGES', 5000),
    gitMaxFileBytes: int(env, 'FOLIO_GIT_MAX_FILE_BYTES', 100 * 1024 * 1024),
    openapiFetchTimeoutMs: int(env, 'OPENAPI_FETCH_TIMEOUT_MS', 30000),
    openapiRefreshInterval: checkRefreshInterval(env.OPENAPI_REFRESH_INTERVAL || '6h'),
    fetchDenyPrivateNetworks: bool(env, 'FETCH_DENY_PRIVATE_NETWORKS', true),
    fetchAllowHosts: [...HostAllowlist.parse(env.FETCH_ALLOW_HOSTS).entries],
    parseThreads: Math.max(1, int(env, 'FOLIO_PARSE_THREADS', availableParallelism())),
    parseTimeBudgetMs: Math.max(1, int(env, 'FOLIO_PARSE_TIME_BUDGET_MS', 10_000)),
    parseMemoryBudgetMb: Math.max(16, int(env, 'FOLIO_PARSE_MEMORY_BUDGET_MB', 256)),
    openapiTimeBudgetMs: Math.max(1, int(env, 'FOLIO_OPENAPI_TIME_BUDGET_MS', 60_000)),
    openapiMemoryBudgetMb: Math.max(16, int(env, 'FOLIO_OPENAPI_MEMORY_BUDGET_MB', 1024)),
  };
}
