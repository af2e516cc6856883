import { defineConfig } from 'vitest/config';

/** `record-histories.ts` only (see its header): records fixture histories, not part of `npm test`. */
export default defineConfig({
  test: {
    root: new URL('../..', import.meta.url).pathname,
    include: ['test/gitsync/record-histories.ts'],
    pool: 'forks',
    globalSetup: ['test/setup/global.ts'],
    testTimeout: 120_000,
    hookTimeout: 180_000,
  },
});
