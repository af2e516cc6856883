import { createSpecPool } from '../src/parse-threads/spec-pool.js';
import { ParsePool } from '../src/parse-threads/pool.js';
import { parsePoolOptions } from '../src/parse-pool/from-config.js';
import type { ActivityDeps } from './deps.js';

const created = new WeakMap<ActivityDeps, ParsePool>();

/** The parse pool of these activities: the injected one, or one sized from the config (threads start on first use). */
export function parsePoolOf(deps: ActivityDeps): ParsePool {
  if (deps.parsePool) return deps.parsePool;
  let pool = created.get(deps);
  if (!pool) {
    pool = new ParsePool(parsePoolOptions(deps.config));
    created.set(deps, pool);
  }
  return pool;
}

const createdSpecPools = new WeakMap<ActivityDeps, ParsePool>();

/** The OpenAPI processing pool of these activities: the injected one, or one built from the config. */
export function openapiPoolOf(deps: ActivityDeps): ParsePool {
  if (deps.openapiPool) return deps.openapiPool;
  let pool = createdSpecPools.get(deps);
  if (!pool) {
    pool = createSpecPool(deps.config);
    createdSpecPools.set(deps, pool);
  }
  return pool;
}
