/**
 * Every environment variable Folio's configuration reads (`loadConfig` and `loadToolsConfig`, nowhere else).
 * README.md's configuration table lists exactly these (test/config/readme-table.test.ts checks both directions);
 * a name missing here cannot be read, as `loadConfig` only reads names of this type.
 */
export const CONFIG_VARIABLES = [
  'PORT',
  'HOST',
  'DATA_DIR',
  'DATABASE_URL',
  'FOLIO_DB_PORT',
  'TEMPORAL_ADDRESS',
  'TEMPORAL_PORT',
  'TEMPORAL_UI_PORT',
  'TEMPORAL_NAMESPACE',
  'TEMPORAL_CLI_PATH',
  'TEMPORAL_TEST_SERVER_PATH',
  'FOLIO_TOOLS_DIR',
  'FOLIO_TASK_QUEUE',
  'LOG_LEVEL',
  'FOLIO_LOG_PRETTY',
  'FOLIO_BOOTSTRAP_ORG',
  'FOLIO_BOOTSTRAP_TOKEN',
  'FOLIO_VAULT_KEY',
  'FOLIO_BLOB_STORE',
  'FOLIO_PUBLIC_URL',
  'FOLIO_PURGE_AFTER_MS',
  'FOLIO_GIT_MAX_PAGES',
  'FOLIO_GIT_MAX_FILE_BYTES',
  'FOLIO_GIT_AUTHOR_NAME',
  'FOLIO_GIT_AUTHOR_EMAIL',
  'FOLIO_PARSE_THREADS',
  'FOLIO_PARSE_TIME_BUDGET_MS',
  'FOLIO_PARSE_MEMORY_BUDGET_MB',
  'FOLIO_PARSE_OPERATION_BUDGET_MS',
  'FOLIO_PARSE_QUEUE_PER_ORG',
  'FOLIO_PARSE_NICE',
  'FOLIO_OPENAPI_TIME_BUDGET_MS',
  'FOLIO_OPENAPI_MEMORY_BUDGET_MB',
  'OPENAPI_FETCH_TIMEOUT_MS',
  'OPENAPI_REFRESH_INTERVAL',
  'FETCH_DENY_PRIVATE_NETWORKS',
  'FETCH_ALLOW_HOSTS',
  'FOLIO_SUPERVISED',
  'FOLIO_TRANSLATION_ENGINE',
  'FOLIO_TRANSLATION_ORG_ENGINES',
  'FOLIO_TRANSLATION_TASK_QUEUE',
  'FOLIO_TRANSLATION_RATE_LIMIT',
  'FOLIO_APERTIUM_URL',
  'FOLIO_LIBRETRANSLATE_URL',
  'FOLIO_LIBRETRANSLATE_API_KEY',
  'FOLIO_DEEPL_URL',
  'FOLIO_DEEPL_API_KEY',
  'FOLIO_OPENAI_URL',
  'FOLIO_OPENAI_API_KEY',
  'FOLIO_OPENAI_MODEL',
  'TEMPLATES_DIR',
  'WEBIMPORT_MAX_PAGES',
  'WEBIMPORT_MAX_BYTES',
  'WEBIMPORT_MAX_DEPTH',
  'WEBIMPORT_CONCURRENCY',
  'WEBIMPORT_DELAY_MS',
  'WEBIMPORT_TIMEOUT_MS',
  'WEBIMPORT_RETRIES',
  'FOLIO_SITE_HOSTNAMES',
] as const;

export type ConfigVariable = (typeof CONFIG_VARIABLES)[number];

/**
 * `FOLIO_*` variables read only by the tests, the benchmarks and the corpus lookup (documented where they are read
 * and in README.md's *Tests and benchmarks*). They are no setting of a running Folio, and not warned about.
 */
export const TEST_VARIABLES = ['FOLIO_TEST_DATABASE_URL', 'FOLIO_TEST_GIT_HOME', 'FOLIO_CORPUS'] as const;
