/**
 * Rows of the parse cache made by another converter version are never read again: each process deletes them once,
 * in the background, the first time it uses the cache (a failure is logged and tried again on the next use). A
 * worker does it while it warms up (`pruneParseCacheNow`), so that the first import does not wait behind the delete.
 */
import type { Logger } from '../log.js';
import type { Store } from '../store/index.js';
import { converterVersion } from './converter-version.js';

const pruning = new WeakMap<Store, Promise<void>>();

/** Starts the prune once per store (later calls return the same promise); never rejects. */
export function pruneParseCacheNow(store: Store, logger?: Pick<Logger, 'warn' | 'info'>): Promise<void> {
  let done = pruning.get(store);
  if (done) return done;
  const version = converterVersion();
  done = store.parseCache.pruneOtherVersions(version).then(
    (n) => {
      if (n > 0) logger?.info({ removed: n, converterVersion: version }, 'parse cache: removed the entries of other converter versions');
    },
    (err: unknown) => {
      pruning.delete(store);
      logger?.warn({ err }, 'parse cache: could not remove the entries of other converter versions');
    },
  );
  pruning.set(store, done);
  return done;
}

export function pruneParseCache(store: Store, logger?: Pick<Logger, 'warn' | 'info'>): void {
  void pruneParseCacheNow(store, logger);
}
