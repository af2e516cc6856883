import { openStore, type Store } from '../../src/store/index.js';
import { testLogger } from './logger.js';

/** A fresh in-memory PGlite content store with migrations applied; one per test file. */
export async function createTestStore(): Promise<Store> {
  return openStore({ dataDir: 'memory://', migrate: true, logger: testLogger('store') });
}
