import path from 'node:path';
import type { Config } from '../config/config.js';

/** Where Folio keeps its local git repository caches (per tenant below it: see src/git/cache-layout.ts). */
export function gitCacheRoot(config: Pick<Config, 'dataDir'>): string {
  return path.join(config.dataDir, 'git-cache');
}
