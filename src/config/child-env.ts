import type { Config } from './config.js';
import { CONFIG_VARIABLES, type ConfigVariable } from './variables.js';

type ConfigEnv = Record<ConfigVariable, string | undefined>;

/** The server, database, Temporal, logging, bootstrap, storage, webhooks and site serving. */
function serviceEnv(config: Config) {
  return {
    PORT: String(config.port),
    HOST: config.host,
    DATA_DIR: config.dataDir,
    DATABASE_URL: config.databaseUrl,
    FOLIO_DB_PORT: String(config.dbPort),
    TEMPORAL_ADDRESS: config.temporalAddress,
    TEMPORAL_PORT: String(config.temporalPort),
    TEMPORAL_UI_PORT: String(config.temporalUiPort),
    TEMPORAL_NAMESPACE: config.temporalNamespace,
    TEMPORAL_CLI_PATH: config.tools.temporalCliPath,
    TEMPORAL_TEST_SERVER_PATH: config.tools.temporalTestServerPath,
    FOLIO_TOOLS_DIR: config.tools.dir,
    FOLIO_TASK_QUEUE: config.taskQueue,
    LOG_LEVEL: config.logLevel,
    FOLIO_LOG_PRETTY: config.logPretty === undefined ? undefined : config.logPretty ? '1' : '0',
    FOLIO_BOOTSTRAP_ORG: config.bootstrapOrg,
    FOLIO_BOOTSTRAP_TOKEN: config.bootstrapToken,
    FOLIO_VAULT_KEY: config.vaultKey,
    FOLIO_BLOB_STORE: config.blobStore,
    FOLIO_S3_ENDPOINT: config.s3?.endpoint,
    FOLIO_S3_REGION: config.s3?.region,
    FOLIO_S3_BUCKET: config.s3?.bucket,
    FOLIO_S3_PREFIX: config.s3?.prefix || undefined,
    FOLIO_S3_FORCE_PATH_STYLE: config.s3 ? String(config.s3.forcePathStyle) : undefined,
    FOLIO_S3_CREATE_BUCKET: config.s3 ? String(config.s3.createBucket) : undefined,
    FOLIO_S3_ACCESS_KEY_ID: config.s3?.accessKeyId,
    FOLIO_S3_SECRET_ACCESS_KEY: config.s3?.secretAccessKey,
    FOLIO_PUBLIC_URL: config.publicUrl,
    FOLIO_PURGE_AFTER_MS: String(config.purgeAfterMs),
    FOLIO_WEBHOOK_POLL_MS: String(config.webhookPollMs),
    FOLIO_WEBHOOK_MAX_INTERVAL_MS: String(config.webhookMaxIntervalMs),
    FOLIO_WEBHOOK_GIVE_UP_MS: String(config.webhookGiveUpMs),
    FOLIO_SUPERVISED: config.supervised ? '1' : undefined,
    TEMPLATES_DIR: config.templatesDir,
    FOLIO_SITE_HOSTNAMES:
      Object.keys(config.siteHostnames).length > 0
        ? Object.entries(config.siteHostnames)
            .map(([h, b]) => `${h}=${b}`)
            .join(',')
        : undefined,
    FOLIO_WORKER_METRICS_PORT: config.workerMetricsPort ? String(config.workerMetricsPort) : undefined,
    FOLIO_TEMPORAL_METRICS_PORT: config.temporalMetricsPort ? String(config.temporalMetricsPort) : undefined,
  } satisfies Partial<ConfigEnv>;
}

/** Git sync, the parse threads, OpenAPI processing and the outbound fetch. */
function contentEnv(config: Config) {
  return {
    FOLIO_GIT_MAX_PAGES: String(config.gitMaxPages),
    FOLIO_GIT_MAX_FILE_BYTES: String(config.gitMaxFileBytes),
    FOLIO_GIT_RETRY_INITIAL_MS: config.gitRetryInitialMs === undefined ? undefined : String(config.gitRetryInitialMs),
    FOLIO_GIT_HEARTBEAT_TIMEOUT_MS: config.gitHeartbeatTimeoutMs === undefined ? undefined : String(config.gitHeartbeatTimeoutMs),
    FOLIO_GIT_AUTHOR_NAME: config.gitAuthor.name,
    FOLIO_GIT_AUTHOR_EMAIL: config.gitAuthor.email,
    FOLIO_PARSE_THREADS: String(config.parseThreads),
    FOLIO_PARSE_TIME_BUDGET_MS: String(config.parseTimeBudgetMs),
    FOLIO_PARSE_MEMORY_BUDGET_MB: String(config.parseMemoryBudgetMb),
    FOLIO_PARSE_OPERATION_BUDGET_MS: String(config.parseOperationBudgetMs),
    FOLIO_PARSE_OPERATION_DEADLINE_MS: String(config.parseOperationDeadlineMs),
    FOLIO_PARSE_QUEUE_PER_ORG: String(config.parseQueuePerOrg),
    FOLIO_PARSE_NICE: String(config.parseNice),
    FOLIO_OPENAPI_TIME_BUDGET_MS: String(config.openapiTimeBudgetMs),
    FOLIO_OPENAPI_MEMORY_BUDGET_MB: String(config.openapiMemoryBudgetMb),
    OPENAPI_FETCH_TIMEOUT_MS: String(config.openapiFetchTimeoutMs),
    OPENAPI_REFRESH_INTERVAL: config.openapiRefreshInterval,
    FETCH_DENY_PRIVATE_NETWORKS: String(config.fetchDenyPrivateNetworks),
    FETCH_ALLOW_HOSTS: config.fetchAllowHosts.length ? config.fetchAllowHosts.join(',') : undefined,
    FOLIO_CHROMIUM_PATH: config.chromiumPath,
    FOLIO_PDF_BUDGET_MS: String(config.pdfBudgetMs),
  } satisfies Partial<ConfigEnv>;
}

/** Translation engines. */
function translationEnv(config: Config) {
  return {
    FOLIO_TRANSLATION_ENGINE: config.translationEngine,
    FOLIO_TRANSLATION_ORG_ENGINES:
      Object.entries(config.translationOrgEngines)
        .map(([org, engine]) => `${org}=${engine}`)
        .join(',') || undefined,
    FOLIO_TRANSLATION_TASK_QUEUE: config.translationTaskQueue,
    FOLIO_TRANSLATION_RATE_LIMIT: String(config.translationRateLimit),
    FOLIO_APERTIUM_URL: config.apertiumUrl,
    FOLIO_LIBRETRANSLATE_URL: config.libretranslateUrl,
    FOLIO_LIBRETRANSLATE_API_KEY: config.libretranslateApiKey,
    FOLIO_DEEPL_URL: config.deeplUrl,
    FOLIO_DEEPL_API_KEY: config.deeplApiKey,
    FOLIO_OPENAI_URL: config.openaiUrl,
    FOLIO_OPENAI_API_KEY: config.openaiApiKey,
    FOLIO_OPENAI_MODEL: config.openaiModel,
  } satisfies Partial<ConfigEnv>;
}

/** Website and file imports. */
function importEnv(config: Config) {
  return {
    WEBIMPORT_MAX_PAGES: String(config.webimportMaxPages),
    WEBIMPORT_MAX_BYTES: String(config.webimportMaxBytes),
    WEBIMPORT_MAX_DEPTH: String(config.webimportMaxDepth),
    WEBIMPORT_CONCURRENCY: String(config.webimportConcurrency),
    WEBIMPORT_DELAY_MS: String(config.webimportDelayMs),
    WEBIMPORT_TIMEOUT_MS: String(config.webimportTimeoutMs),
    WEBIMPORT_RETRIES: String(config.webimportRetries),
    WEBIMPORT_RUN_RETRIES: String(config.webimportRunRetries),
    WEBIMPORT_DEADLINE_MS: String(config.webimportDeadlineMs),
    FILE_IMPORT_MAX_ENTRIES: String(config.fileImportMaxEntries),
    FILE_IMPORT_MAX_UNPACKED_BYTES: String(config.fileImportMaxUnpackedBytes),
  } satisfies Partial<ConfigEnv>;
}

/** The environment variables that make `loadConfig` return `config` (unset ones are left out). */
export function configToEnv(config: Config): Partial<Record<ConfigVariable, string>> {
  const env: ConfigEnv = { ...serviceEnv(config), ...contentEnv(config), ...translationEnv(config), ...importEnv(config) };
  const out: Partial<Record<ConfigVariable, string>> = {};
  for (const name of CONFIG_VARIABLES) if (env[name] !== undefined) out[name] = env[name];
  return out;
}

/**
 * The environment of a child process of `folio start`: the system's variables (PATH, HOME, …) from `base`, and
 * Folio's settings from `config` only. Folio's variables of `base` and unknown `FOLIO_*` ones are dropped (the
 * supervisor has warned about those already), so a child reads exactly the configuration the supervisor read.
 */
export function childEnv(config: Config, base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const known: ReadonlySet<string> = new Set(CONFIG_VARIABLES);
  const env: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(base)) {
    if (!known.has(name) && !name.startsWith('FOLIO_')) env[name] = value;
  }
  return { ...env, ...configToEnv(config) };
}
