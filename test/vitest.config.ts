/**
 * The test projects (`npm test` runs them all; `npm run test:<project>` one):
 *
 * - `unit`: what a developer runs on every change (well under 90 s on 2 cores). Nothing is started: no Temporal
 *   (neither the dev server nor the time-skipping test server), no PostgreSQL or PGlite server, no Folio, no git
 *   server, no external program (apertium, chromium, mkdocs, the CLI). Allowed: PGlite in this process (a store from
 *   the migrated template opens in well under a second), loopback HTTP fixtures made with node:http in this
 *   process (a site or spec server, the way the fetch guard is tested), parse-pool threads.
 * - `corpus`: the same rules, over the real repositories of ../shared/corpus (FOLIO_CORPUS): conversion fidelity,
 *   round trips, the real OpenAPI specs.
 * - `workflow`: workflows on the time-skipping test server, with stub activities, and activities in
 *   MockActivityEnvironment.
 * - `e2e`: everything else: Folio started (API, worker, the shared Temporal dev server), real git over
 *   `git http-backend`, PostgreSQL, the compiled CLI, external programs. A new test file lands here unless a
 *   project above lists it.
 * - `e2e-fresh`: the e2e files that measure their own process's event loop (E2E_FRESH), each in a new fork.
 * - `stress`: the tests that load the machine themselves (`stress-ng`), alone, after every other project is done
 *   (`sequence.groupOrder`): a test beside them would run on a machine they starve on purpose.
 *
 * The global setup (./setup/global.ts) starts for each project only what it uses.
 */
import { defineConfig } from 'vitest/config';
import LongestFirst from './setup/sequencer.js';

/** No server, no process, no corpus (see above). */
const UNIT = [
  'test/unit/**/*.test.ts',
  'test/api/{access-matrix,route-schemas,temporal-unavailable}.test.ts',
  'test/config/*.test.ts',
  'test/document/convert.test.ts',
  'test/format/markdown/{bad-input,escapes,exporter-rules,front-matter-aliases,plugins,references}.test.ts',
  'test/format/phases/*.test.ts',
  'test/format/search-sections.test.ts',
  'test/format/tree/{config-export,gitbook-yaml-budget,raw-pages,summary,synthetic}.test.ts',
  'test/git/{cache-layout,units}.test.ts',
  'test/gitsync/{exported-paths,failures,info,revision-records,vault-scope}.test.ts',
  'test/net/*.test.ts',
  'test/openapi/{fetch,input,parse-document,refresh-interval,repository-pglite}.test.ts',
  'test/parse-cache/*.test.ts',
  'test/parse-pool/{pool,warm-up,openapi-pool}.test.ts',
  'test/publish/render.test.ts',
  'test/revision/*.test.ts',
  'test/store/store-pglite-memory.test.ts',
  'test/translate/{segments,engine-config}.test.ts',
  'test/vault/*.test.ts',
  'test/webimport-html/{convert,extract,file-import,hostile-archives,xml-depth}.test.ts',
  'test/webimport/{site-tree,crawl,crawl-limits}.test.ts',
];

/** Over ../shared/corpus, nothing started. */
const CORPUS = [
  'test/cli/{check,roundtrip}.test.ts',
  'test/format/export-input-untouched.test.ts',
  'test/format/markdown/{fidelity,minimal-diff}.test.ts',
  'test/format/tree/{corpus-fidelity,corpus-pgsql,export-edits,revision-roundtrip}.test.ts',
  'test/openapi/{corpus-specs,process}.test.ts',
];

/** They start `stress-ng --cpu 2` (test/helpers/hostile-scenario.ts): run alone, last. */
const STRESS = ['test/e2e/hostile-repository.test.ts'];

/**
 * e2e files that measure this process's event loop while Folio works off it: each starts in a fork of its own (a
 * project's files get new forks), not after other files whose leftovers (a larger heap to collect, a shared Folio
 * still polling) would count in the delay they measure.
 */
const E2E_FRESH = ['test/openapi-e2e/spec-budgets.e2e.test.ts', 'test/parse-pool/pathological-pages.e2e.test.ts'];

/** The time-skipping test server, stub activities, MockActivityEnvironment. */
const WORKFLOW = ['test/workflows/**/*.test.ts', 'test/api/purge-time-skipping.test.ts', 'test/gitsync/replay.test.ts'];

/**
 * Vite's server-side conditions without `development|production`: Vitest passes them to its forks as
 * `--conditions development`, and Node then loads the development builds of dependencies, in the forks and in the
 * parse threads they start (micromark's, with its assertions and `debug` calls, parses about a third slower). The
 * tests run the builds production runs. (Setting `ssr.resolve.conditions` is not enough: Vitest's defaults are merged
 * into it, so the condition is taken out once the configuration is resolved.)
 */
const productionBuilds = {
  name: 'folio:no-development-condition',
  enforce: 'post' as const,
  configResolved(config: { ssr: { resolve?: { conditions?: string[] } } }) {
    const resolve = config.ssr.resolve;
    if (resolve?.conditions) resolve.conditions = resolve.conditions.filter((c) => c !== 'development|production' && c !== 'development');
  },
};

export default defineConfig({
  plugins: [productionBuilds],
  test: {
    root: new URL('..', import.meta.url).pathname,
    pool: 'forks',
    // Forks are reused from one file to the next (Vitest has one forks pool for every project, so this is set here):
    // a project with `isolate: true` still loads its modules anew for each file, one with `isolate: false` keeps
    // them. Native state of a process (the Temporal SDK's runtime) is made once per process: ./helpers/sdk-runtime.ts.
    poolOptions: { forks: { maxForks: 2, minForks: 1, isolate: false } },
    globalSetup: ['test/setup/global.ts'],
    setupFiles: ['test/setup/compiled-thread.ts'],
    testTimeout: 120_000,
    hookTimeout: 180_000,
    teardownTimeout: 30_000,
    // The longest files start first (./setup/sequencer.ts), also on a fresh clone without Vitest's cache.
    sequence: { sequencer: LongestFirst },
    projects: [
      // The unit files share their forks' module cache (isolate: false): each file no longer imports Folio's modules
      // anew, a third less CPU for the project. Its files keep no state between them (nothing mocked or stubbed).
      { extends: true, test: { name: 'unit', include: UNIT, isolate: false } },
      { extends: true, test: { name: 'corpus', include: CORPUS, isolate: true } },
      { extends: true, test: { name: 'workflow', include: WORKFLOW, isolate: true } },
      // The e2e files share their forks' modules too: importing Folio's modules took each file about 4 s of CPU.
      // A file that changes the process (its environment, the SDK's log route) puts it back in its afterAll.
      {
        extends: true,
        test: {
          name: 'e2e',
          include: ['test/**/*.test.ts'],
          exclude: [...UNIT, ...CORPUS, ...WORKFLOW, ...STRESS, ...E2E_FRESH, '**/node_modules/**'],
          isolate: false,
        },
      },
      { extends: true, test: { name: 'e2e-fresh', include: E2E_FRESH, isolate: true } },
      { extends: true, test: { name: 'stress', include: STRESS, isolate: true, sequence: { groupOrder: 1 } } },
    ],
  },
});
