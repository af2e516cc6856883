/**
 * Rows of the parse cache made by another converter version are never read again: each process deletes them once,
 * in the background, the first time it uses the cache (a failure is logged and tried again on the next use).
 */
import type { Logger } from '../log.js';
import type { Store } from '../store/index.js';
import { converterVersion } from './converter-version.js';

const pruned = new WeakSet<Store>();

export function pruneParseCache(store: Store, logger?: Pick<Logger, 'warn' | 'info'>): void {
  if (pruned.has(store)) return;
  pruned.add(store);
  const version = converterVersion();
  store.parseCache.pruneOtherVersions(version).then(
    (n) => {
      if (n > 0) logger?.info({ removed: n, converterVersion: version }, 'parse cache: removed the entries of other converter versions');
    },
    (err: unknown) => {
      pruned.delete(store);
      logger?.warn({ err }, 'parse cache: could not remove the entries of other converter versions');
    },
  );
}
