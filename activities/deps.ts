import type { Config } from '../src/config/config.js';
import type { Logger } from '../src/log.js';
import type { FolioMetrics } from '../src/metrics/index.js';
import type { ParsePool } from '../src/parse-threads/pool.js';
import type { Store } from '../src/store/index.js';
import type { TranslationEngineName } from '../src/config/config.js';
import type { TranslationEngine } from '../src/translate/engines/index.js';

/** What activities are built from: everything with I/O is injected, so tests can use their own store. */
export interface ActivityDeps {
  store: Store;
  config: Config;
  /** The process logger; built by `createActivities`, activities get one writing through their child logger. */
  logger: Logger;
  /** Where untrusted documents are parsed (default: a pool sized from `config`, started on first use). */
  parsePool?: ParsePool;
  /** Where OpenAPI specs are processed (default: `createSpecPool(config)`, started on first use). */
  openapiPool?: ParsePool;
  /** The translation engine of a name (default: built from `config`); tests wrap engines to count their calls. */
  translationEngine?: (name: TranslationEngineName) => TranslationEngine;
  /** Segments per engine call, stored in the translation memory after each call (default 500). */
  translationChunk?: number;
  /** The worker's metrics (src/metrics/): every activity records its attempts, operations and pages through it. */
  metrics?: FolioMetrics;
}
