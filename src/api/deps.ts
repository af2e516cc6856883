import type { Config } from '../config/config.js';
import type { Logger } from '../log.js';
import type { FolioMetrics } from '../metrics/index.js';
import type { ParsePool } from '../parse-threads/pool.js';
import type { Store } from '../store/index.js';
import type { TemporalClient } from '../temporal/client/client.js';
import type { WorkflowStarter } from '../temporal/client/start.js';

export interface ApiDeps {
  store: Store;
  temporal: TemporalClient;
  config: Config;
  logger: Logger;
  /** The public base URL used in `urls.location` (defaults to http://host:port). */
  baseUrl?: string;
  /** Where page markdown from the store or from requests is parsed (default: a pool sized from `config`, closed with the server). */
  parsePool?: ParsePool;
  /** The API's metrics, served at `GET /metrics` (default: a registry of the server's own). */
  metrics?: FolioMetrics;
}

/** Where the API starts workflows: its client and the workers' task queue. */
export function workflowStarter(deps: ApiDeps): WorkflowStarter {
  return {
    client: deps.temporal,
    taskQueue: deps.config.taskQueue,
    ...(deps.config.gitRetryInitialMs !== undefined ? { gitRetryInitialMs: deps.config.gitRetryInitialMs } : {}),
    ...(deps.config.gitHeartbeatTimeoutMs !== undefined ? { gitHeartbeatTimeoutMs: deps.config.gitHeartbeatTimeoutMs } : {}),
  };
}
