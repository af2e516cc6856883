import { readFileSync } from 'node:fs';
import { inject } from 'vitest';
import { openStore, type Store } from '../../src/store/index.js';
import { testLogger } from './logger.js';

let template: Blob | undefined;

/** The PGlite data directory dumped once by the global setup (saves an initdb per test store). */
export function pgliteTemplate(): Blob | undefined {
  if (!template) {
    const file = inject('pgliteTemplatePath');
    if (file) template = new Blob([readFileSync(file)]);
  }
  return template;
}

/** A fresh in-memory PGlite content store with migrations applied; one per test file. */
export async function createTestStore(): Promise<Store> {
  return openStore({ dataDir: 'memory://', migrate: true, logger: testLogger('store'), pgliteTemplate: pgliteTemplate() });
}
