import { availableParallelism } from 'node:os';
import path from 'node:path';
import { checkRefreshInterval } from '../refresh-interval.js';
import { HostAllowlist } from '../net/allowlist.js';
import { loadToolsConfig, type ToolsConfig } from './tools.js';
import type { ConfigVariable } from './variables.js';

/**
 * Folio's configuration, read from the environment here and nowhere else (every variable is listed in
 * ./config/variables.ts and documented in docs/configuration.md); everything else gets these values passed in.
 */
export interface Config {
  port: number;
  host: string;
  dataDir: string;
  /** DATA_DIR was set (else `dataDir` is the default `./data`, and the CLI looks for the deployment's data: src/cli/data-dir.ts). */
  dataDirSet: boolean;
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
  /** Where blobs live: `database` (default), `directory` (under DATA_DIR/blobs) or `s3` (the bucket of `s3`). */
  blobStore: 'database' | 'directory' | 's3';
  /** The S3-compatible bucket of the `s3` blob store (FOLIO_S3_*); undefined when FOLIO_S3_BUCKET is unset. */
  s3: S3Config | undefined;
  /** Window between a space's deletion and its purge, in milliseconds. */
  purgeAfterMs: number;
  /** Webhook delivery (issue 28): how often an idle subscriber looks for new events, the longest wait between two attempts, when it gives up. */
  webhookPollMs: number;
  webhookMaxIntervalMs: number;
  webhookGiveUpMs: number;
  gitMaxPages: number;
  gitMaxFileBytes: number;
  /**
   * First wait (ms) before a failed git import or export is retried (doubling, at most 1 minute, 6 attempts); undefined:
   * the workflow's default of 2 s. The API puts it in each git request it queues.
   */
  gitRetryInitialMs: number | undefined;
  /**
   * Heartbeat timeout (ms) of a git import or export activity: how long the attempt of a dead worker goes unnoticed
   * before it is retried; undefined: the workflow's default of 60 s. The API puts it in each git request it queues.
   */
  gitHeartbeatTimeoutMs: number | undefined;
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
  /** CPU time the parse tasks of one operation (git import or export, search indexing) may take together, in milliseconds. */
  parseOperationBudgetMs: number;
  /** Wall time from the first parse task of one operation after which its remaining documents are not parsed, in milliseconds. */
  parseOperationDeadlineMs: number;
  /** Parse tasks one organization may have waiting in a parse pool. */
  parseQueuePerOrg: number;
  /** Nice value (0-19; Linux, per thread) of a parse thread while its task has used over 200 ms of CPU time (0: never demoted). */
  parseNice: number;
  /** FOLIO_DB_PORT: the number in the embedded database's socket name, `DATA_DIR/run/.s.PGSQL.<n>`. */
  dbPort: number;
  /** FOLIO_LOG_PRETTY: true forces pretty logs, false JSON lines; undefined: pretty on a terminal. */
  logPretty: boolean | undefined;
  /** FOLIO_VAULT_KEY: the secret sealing git credentials; undefined: `DATA_DIR/vault.key`. */
  vaultKey: string | undefined;
  /** FOLIO_PUBLIC_URL: base of the `urls` members in API objects; undefined: the address the API listens on. */
  publicUrl: string | undefined;
  /** FOLIO_GIT_AUTHOR_NAME / FOLIO_GIT_AUTHOR_EMAIL: author and committer of exported commits. */
  gitAuthor: { name: string; email: string };
  /** FOLIO_SUPERVISED: this process is a child of `folio start` (it stops when its stdin closes). */
  supervised: boolean;
  /** Where the Temporal binaries are found. */
  tools: ToolsConfig;
  /** Time budget of processing one OpenAPI spec in its thread, in milliseconds of the thread's busy time. */
  openapiTimeBudgetMs: number;
  /** Heap budget of one OpenAPI processing thread, in MB. */
  openapiMemoryBudgetMb: number;
  /** The translation engine of organizations `translationOrgEngines` does not name. */
  translationEngine: TranslationEngineName;
  /** Engine per organization id (`FOLIO_TRANSLATION_ORG_ENGINES=acme=deepl,docs=openai`). */
  translationOrgEngines: Record<string, TranslationEngineName>;
  /** Task queue of the translation-engine activities (default `<FOLIO_TASK_QUEUE>-translation`). */
  translationTaskQueue: string;
  /** Requests per second to one HTTP engine, per worker. */
  translationRateLimit: number;
  /** An apertium-apy server (else the `apertium` command). */
  apertiumUrl: string | undefined;
  libretranslateUrl: string | undefined;
  libretranslateApiKey: string | undefined;
  deeplUrl: string;
  deeplApiKey: string | undefined;
  openaiUrl: string;
  openaiApiKey: string | undefined;
  openaiModel: string;
  /** TEMPLATES_DIR: an operator's folder of templates (one GitBook-format folder with a template.yaml each). */
  templatesDir: string | undefined;
  /** Website import: pages, bytes (pages and assets) and link depth allowed in one run. */
  webimportMaxPages: number;
  webimportMaxBytes: number;
  webimportMaxDepth: number;
  /** Website import: requests at once to one host, the delay between two requests to it, the timeout of one, retries of a 429/5xx. */
  webimportConcurrency: number;
  webimportDelayMs: number;
  webimportTimeoutMs: number;
  webimportRetries: number;
  /** Website import: retries of all requests of one run together, and the run's deadline (from its start). */
  webimportRunRetries: number;
  webimportDeadlineMs: number;
  /** File import: entries of one archive (zip or .docx) and the bytes it may unpack to (src/fileimport/limits.ts). */
  fileImportMaxEntries: number;
  fileImportMaxUnpackedBytes: number;
  /** FOLIO_SITE_HOSTNAMES: host name → site basename; a request for that host is served the published site. */
  siteHostnames: Record<string, string>;
  /** FOLIO_CHROMIUM_PATH: the Chromium that prints PDF exports; FOLIO_PDF_BUDGET_MS: the time one export may take, whole. */
  chromiumPath: string;
  pdfBudgetMs: number;
  /** FOLIO_WORKER_METRICS_PORT: the worker's Prometheus port (`GET /metrics`, bound on HOST); 0: none. */
  workerMetricsPort: number;
  /** FOLIO_TEMPORAL_METRICS_PORT: the worker's Temporal SDK runtime metrics (Prometheus, bound on HOST); 0: none. */
  temporalMetricsPort: number;
}

/** FOLIO_S3_*: an S3-compatible object store. The secret key goes to the S3 client only. */
export interface S3Config {
  endpoint: string | undefined;
  region: string;
  bucket: string;
  prefix: string;
  forcePathStyle: boolean;
  createBucket: boolean;
  accessKeyId: string | undefined;
  secretAccessKey: string | undefined;
}

export const TRANSLATION_ENGINES = ['apertium', 'libretranslate', 'deepl', 'openai'] as const;
export type TranslationEngineName = (typeof TRANSLATION_ENGINES)[number];

const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'];

type Env = NodeJS.ProcessEnv;

/** The value of a known variable; an empty value counts as unset. */
function get(env: Env, name: ConfigVariable): string | undefined {
  const raw = env[name];
  return raw === undefined || raw === '' ? undefined : raw;
}

function int(env: Env, name: ConfigVariable, fallback: number, range: { min?: number; max?: number } = {}): number {
  const raw = get(env, name);
  if (raw === undefined) return fallback;
  const n = Number(raw.trim());
  const min = range.min ?? 0;
  const max = range.max ?? Number.MAX_SAFE_INTEGER;
  if (raw.trim() === '' || !Number.isSafeInteger(n) || n < min || n > max) {
    throw new Error(
      `${name} must be ${range.max === undefined ? `a whole number of at least ${min}` : `a whole number from ${min} to ${max}`}, got ${JSON.stringify(raw)}`,
    );
  }
  return n;
}

function port(env: Env, name: ConfigVariable, fallback: number): number {
  return int(env, name, fallback, { min: 1, max: 65535 });
}

function bool(env: Env, name: ConfigVariable, fallback: boolean): boolean;
function bool(env: Env, name: ConfigVariable, fallback: undefined): boolean | undefined;
function bool(env: Env, name: ConfigVariable, fallback: boolean | undefined): boolean | undefined {
  const raw = get(env, name);
  if (raw === undefined) return fallback;
  const value = raw.trim().toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(value)) return true;
  if (['0', 'false', 'no', 'off'].includes(value)) return false;
  throw new Error(`${name} must be true or false (1/0, yes/no, on/off), got ${JSON.stringify(raw)}`);
}

function oneOf<T extends string>(env: Env, name: ConfigVariable, values: readonly T[], fallback: T): T {
  const raw = get(env, name) ?? fallback;
  if (!(values as readonly string[]).includes(raw))
    throw new Error(`${name} must be one of ${values.map((v) => JSON.stringify(v)).join(', ')}, got ${JSON.stringify(raw)}`);
  return raw as T;
}

function httpUrl(env: Env, name: ConfigVariable): string | undefined {
  const raw = get(env, name);
  if (raw === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`${name} must be an http: or https: URL, got ${JSON.stringify(raw)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error(`${name} must be an http: or https: URL, got ${JSON.stringify(raw)}`);
  if (url.username || url.password) throw new Error(`${name} must not hold credentials`);
  return raw.replace(/\/+$/, '');
}

/** Reads and checks every setting; an invalid value throws an error naming its variable (startup stops). */
export function loadConfig(env: Env = process.env): Config {
  return {
    port: int(env, 'PORT', 8080, { max: 65535 }),
    host: get(env, 'HOST') ?? '127.0.0.1',
    dataDir: path.resolve(get(env, 'DATA_DIR') ?? './data'),
    dataDirSet: get(env, 'DATA_DIR') !== undefined,
    databaseUrl: get(env, 'DATABASE_URL'),
    temporalAddress: get(env, 'TEMPORAL_ADDRESS'),
    temporalPort: port(env, 'TEMPORAL_PORT', 7233),
    temporalUiPort: port(env, 'TEMPORAL_UI_PORT', 8233),
    temporalNamespace: get(env, 'TEMPORAL_NAMESPACE') ?? 'default',
    taskQueue: get(env, 'FOLIO_TASK_QUEUE') ?? 'folio',
    logLevel: oneOf(env, 'LOG_LEVEL', LOG_LEVELS, 'info'),
    bootstrapOrg: get(env, 'FOLIO_BOOTSTRAP_ORG') ?? 'default',
    bootstrapToken: get(env, 'FOLIO_BOOTSTRAP_TOKEN'),
    blobStore: blobStore(env),
    s3: s3Config(env),
    purgeAfterMs: int(env, 'FOLIO_PURGE_AFTER_MS', 7 * 24 * 3600 * 1000),
    webhookPollMs: int(env, 'FOLIO_WEBHOOK_POLL_MS', 2000, { min: 10 }),
    webhookMaxIntervalMs: int(env, 'FOLIO_WEBHOOK_MAX_INTERVAL_MS', 15 * 60_000, { min: 10 }),
    webhookGiveUpMs: int(env, 'FOLIO_WEBHOOK_GIVE_UP_MS', 24 * 3600_000, { min: 1000 }),
    gitMaxPages: int(env, 'FOLIO_GIT_MAX_PAGES', 5000),
    gitMaxFileBytes: int(env, 'FOLIO_GIT_MAX_FILE_BYTES', 100 * 1024 * 1024),
    gitRetryInitialMs:
      get(env, 'FOLIO_GIT_RETRY_INITIAL_MS') === undefined ? undefined : int(env, 'FOLIO_GIT_RETRY_INITIAL_MS', 2000, { min: 10, max: 60_000 }),
    gitHeartbeatTimeoutMs:
      get(env, 'FOLIO_GIT_HEARTBEAT_TIMEOUT_MS') === undefined ? undefined : int(env, 'FOLIO_GIT_HEARTBEAT_TIMEOUT_MS', 60_000, { min: 1000, max: 3_600_000 }),
    openapiFetchTimeoutMs: int(env, 'OPENAPI_FETCH_TIMEOUT_MS', 30000),
    openapiRefreshInterval: checkRefreshInterval(get(env, 'OPENAPI_REFRESH_INTERVAL') ?? '6h'),
    fetchDenyPrivateNetworks: bool(env, 'FETCH_DENY_PRIVATE_NETWORKS', true),
    fetchAllowHosts: [...HostAllowlist.parse(get(env, 'FETCH_ALLOW_HOSTS')).entries],
    dbPort: port(env, 'FOLIO_DB_PORT', 5432),
    logPretty: bool(env, 'FOLIO_LOG_PRETTY', undefined),
    vaultKey: get(env, 'FOLIO_VAULT_KEY'),
    publicUrl: httpUrl(env, 'FOLIO_PUBLIC_URL'),
    gitAuthor: { name: get(env, 'FOLIO_GIT_AUTHOR_NAME') ?? 'Folio', email: get(env, 'FOLIO_GIT_AUTHOR_EMAIL') ?? 'folio@localhost' },
    supervised: bool(env, 'FOLIO_SUPERVISED', false),
    tools: loadToolsConfig(env),
    parseThreads: int(env, 'FOLIO_PARSE_THREADS', availableParallelism(), { min: 1, max: 256 }),
    parseTimeBudgetMs: int(env, 'FOLIO_PARSE_TIME_BUDGET_MS', 10_000, { min: 1 }),
    parseMemoryBudgetMb: int(env, 'FOLIO_PARSE_MEMORY_BUDGET_MB', 256, { min: 32 }),
    parseOperationBudgetMs: int(env, 'FOLIO_PARSE_OPERATION_BUDGET_MS', 120_000, { min: 1 }),
    parseOperationDeadlineMs: int(env, 'FOLIO_PARSE_OPERATION_DEADLINE_MS', 600_000, { min: 1 }),
    parseQueuePerOrg: int(env, 'FOLIO_PARSE_QUEUE_PER_ORG', 2500, { min: 1 }),
    parseNice: int(env, 'FOLIO_PARSE_NICE', 19, { min: 0, max: 19 }),
    openapiTimeBudgetMs: int(env, 'FOLIO_OPENAPI_TIME_BUDGET_MS', 60_000, { min: 1 }),
    openapiMemoryBudgetMb: int(env, 'FOLIO_OPENAPI_MEMORY_BUDGET_MB', 1024, { min: 32 }),
    translationEngine: oneOf(env, 'FOLIO_TRANSLATION_ENGINE', TRANSLATION_ENGINES, 'apertium'),
    translationOrgEngines: orgEngines(env),
    translationTaskQueue: get(env, 'FOLIO_TRANSLATION_TASK_QUEUE') ?? `${get(env, 'FOLIO_TASK_QUEUE') ?? 'folio'}-translation`,
    translationRateLimit: int(env, 'FOLIO_TRANSLATION_RATE_LIMIT', 5, { min: 1, max: 10_000 }),
    apertiumUrl: httpUrl(env, 'FOLIO_APERTIUM_URL'),
    libretranslateUrl: httpUrl(env, 'FOLIO_LIBRETRANSLATE_URL'),
    libretranslateApiKey: get(env, 'FOLIO_LIBRETRANSLATE_API_KEY'),
    deeplUrl: httpUrl(env, 'FOLIO_DEEPL_URL') ?? 'https://api-free.deepl.com',
    deeplApiKey: get(env, 'FOLIO_DEEPL_API_KEY'),
    openaiUrl: httpUrl(env, 'FOLIO_OPENAI_URL') ?? 'https://api.openai.com/v1',
    openaiApiKey: get(env, 'FOLIO_OPENAI_API_KEY'),
    openaiModel: get(env, 'FOLIO_OPENAI_MODEL') ?? 'gpt-4o-mini',
    templatesDir: get(env, 'TEMPLATES_DIR') === undefined ? undefined : path.resolve(get(env, 'TEMPLATES_DIR')!),
    webimportMaxPages: int(env, 'WEBIMPORT_MAX_PAGES', 2000, { min: 1 }),
    webimportMaxBytes: int(env, 'WEBIMPORT_MAX_BYTES', 512 * 1024 * 1024, { min: 1 }),
    webimportMaxDepth: int(env, 'WEBIMPORT_MAX_DEPTH', 10, { min: 0 }),
    webimportConcurrency: int(env, 'WEBIMPORT_CONCURRENCY', 4, { min: 1, max: 64 }),
    webimportDelayMs: int(env, 'WEBIMPORT_DELAY_MS', 100),
    webimportTimeoutMs: int(env, 'WEBIMPORT_TIMEOUT_MS', 30_000, { min: 1 }),
    webimportRetries: int(env, 'WEBIMPORT_RETRIES', 4, { max: 20 }),
    webimportRunRetries: int(env, 'WEBIMPORT_RUN_RETRIES', 200),
    webimportDeadlineMs: int(env, 'WEBIMPORT_DEADLINE_MS', 2 * 60 * 60 * 1000, { min: 1 }),
    fileImportMaxEntries: int(env, 'FILE_IMPORT_MAX_ENTRIES', 20_000, { min: 1, max: 1_000_000 }),
    fileImportMaxUnpackedBytes: int(env, 'FILE_IMPORT_MAX_UNPACKED_BYTES', 256 * 1024 * 1024, { min: 1, max: 2 * 1024 * 1024 * 1024 }),
    siteHostnames: siteHostnames(get(env, 'FOLIO_SITE_HOSTNAMES')),
    chromiumPath: get(env, 'FOLIO_CHROMIUM_PATH') ?? '/usr/bin/chromium',
    pdfBudgetMs: int(env, 'FOLIO_PDF_BUDGET_MS', 10 * 60 * 1000, { min: 1000, max: 60 * 60 * 1000 }),
    workerMetricsPort: int(env, 'FOLIO_WORKER_METRICS_PORT', 0, { max: 65535 }),
    temporalMetricsPort: int(env, 'FOLIO_TEMPORAL_METRICS_PORT', 0, { max: 65535 }),
  };
}

function blobStore(env: Env): Config['blobStore'] {
  const kind = oneOf(env, 'FOLIO_BLOB_STORE', ['database', 'directory', 's3'] as const, 'database');
  if (kind === 's3' && get(env, 'FOLIO_S3_BUCKET') === undefined) throw new Error('FOLIO_BLOB_STORE=s3 needs FOLIO_S3_BUCKET');
  return kind;
}

function s3Config(env: Env): S3Config | undefined {
  // Every FOLIO_S3_* variable is read, set bucket or not (the configuration reads the same names whatever their values).
  const bucket = get(env, 'FOLIO_S3_BUCKET');
  const accessKeyId = get(env, 'FOLIO_S3_ACCESS_KEY_ID');
  const secretAccessKey = get(env, 'FOLIO_S3_SECRET_ACCESS_KEY');
  const endpoint = httpUrl(env, 'FOLIO_S3_ENDPOINT');
  const prefix = get(env, 'FOLIO_S3_PREFIX') ?? '';
  const region = get(env, 'FOLIO_S3_REGION') ?? 'us-east-1';
  const forcePathStyle = bool(env, 'FOLIO_S3_FORCE_PATH_STYLE', endpoint !== undefined);
  const createBucket = bool(env, 'FOLIO_S3_CREATE_BUCKET', false);
  if (bucket === undefined) return undefined;
  if (!/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(bucket))
    throw new Error(`FOLIO_S3_BUCKET must be a bucket name (3-63 of a-z 0-9 . -), got ${JSON.stringify(bucket)}`);
  if ((accessKeyId === undefined) !== (secretAccessKey === undefined))
    throw new Error('FOLIO_S3_ACCESS_KEY_ID and FOLIO_S3_SECRET_ACCESS_KEY go together: set both, or neither for the default AWS credential chain');
  if (prefix.length > 200 || /[\\\x00-\x1f]|^\/|\/\//.test(prefix))
    throw new Error(`FOLIO_S3_PREFIX must be a plain key prefix, got ${JSON.stringify(prefix)}`);
  return { endpoint, region, bucket, prefix, forcePathStyle, createBucket, accessKeyId, secretAccessKey };
}

/** `org=engine,org2=engine2`: a malformed entry or an unknown engine stops startup. */
function orgEngines(env: Env): Record<string, TranslationEngineName> {
  const raw = get(env, 'FOLIO_TRANSLATION_ORG_ENGINES');
  const out: Record<string, TranslationEngineName> = {};
  if (!raw) return out;
  for (const part of raw.split(',')) {
    const entry = part.trim();
    if (entry === '') continue;
    const m = /^([A-Za-z0-9_-]{1,64})=([a-z]+)$/.exec(entry);
    if (!m || !(TRANSLATION_ENGINES as readonly string[]).includes(m[2]!))
      throw new Error(
        `FOLIO_TRANSLATION_ORG_ENGINES: "${entry.slice(0, 100)}" is not <organizationId>=<engine> with an engine among ${TRANSLATION_ENGINES.join(', ')}`,
      );
    out[m[1]!] = m[2] as TranslationEngineName;
  }
  return out;
}

/** `docs.example.com=handbook,api.example.com=api-docs`: host names (lowercase) → site basenames. */
function siteHostnames(raw: string | undefined): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of (raw ?? '')
    .split(',')
    .map((e) => e.trim())
    .filter((e) => e !== '')) {
    const m = /^([a-z0-9.-]+(?::\d+)?)=([a-z0-9][a-z0-9-]{0,99})$/i.exec(entry);
    if (!m) throw new Error(`FOLIO_SITE_HOSTNAMES: "${entry}" is not host=basename`);
    out[m[1]!.toLowerCase()] = m[2]!.toLowerCase();
  }
  return out;
}
