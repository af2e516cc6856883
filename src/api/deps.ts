import type { Client } from '@temporalio/client';
import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import type { ParsePool } from '../parse-pool/pool.js';
import type { Store } from '../store/index.js';

export interface ApiDeps {
  store: Store;
  temporal: Client;
  config: Config;
  logger: Logger;
  /** The public base URL used in `urls.location` (defaults to http://host:port). */
  baseUrl?: string;
  /** Where page markdown from the store or from requests is parsed (default: a pool sized from `config`, closed with the server). */
  parsePool?: ParsePool;
}
