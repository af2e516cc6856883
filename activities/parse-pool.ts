import { ParsePool } from '../src/parse-pool/pool.js';
import type { ActivityDeps } from './deps.js';

const created = new WeakMap<ActivityDeps, ParsePool>();

/** The parse pool of these activities: the injected one, or one sized from the config (threads start on first use). */
export function parsePoolOf(deps: ActivityDeps): ParsePool {
  if (deps.parsePool) return deps.parsePool;
  let pool = created.get(deps);
  if (!pool) {
    pool = new ParsePool({ threads: deps.config.parseThreads, timeBudgetMs: deps.config.parseTimeBudgetMs, memoryBudgetMb: deps.config.parseMemoryBudgetMb });
    created.set(deps, pool);
  }
  return pool;
}
