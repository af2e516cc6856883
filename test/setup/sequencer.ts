/**
 * The order in which test files start (test/vitest.config.ts, `sequence.sequencer`): the longest first, so that on two
 * workers no file of a minute or more starts last while the other worker idles.
 *
 * Vitest's own order takes each file's duration from its cache of the last run (node_modules/.vite), and without one
 * (a fresh clone, CI) the largest file first, which puts e.g. the 3-minute corpus fidelity test behind dozens of
 * short ones. Here a file the cache does not know takes its time from HINTS (ms of test time on a quiet 2-core
 * machine; only an order, never a limit: a wrong or stale figure only changes when a file starts), else 0; files of
 * equal time keep Vitest's size order. A file that failed last time still goes first.
 */
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const HINTS: Record<string, number> = {
  'test/format/markdown/fidelity.test.ts': 180_000,
  'test/e2e/production-shape.test.ts': 116_000,
  'test/webimport-html/generators.test.ts': 106_000,
  'test/e2e/production-shape-embedded.test.ts': 103_000,
  'test/gitsync/git-sync-crash.e2e.test.ts': 99_000,
  'test/format/tree/corpus-fidelity.test.ts': 80_000,
  'test/events/webhook-delivery.e2e.test.ts': 70_000,
  'test/gitsync/tenant-cache.e2e.test.ts': 68_000,
  'test/gitsync/concurrency.e2e.test.ts': 54_000,
  'test/publish/reader.e2e.test.ts': 46_000,
  'test/webimport/website-import-limits.e2e.test.ts': 38_000,
  'test/gitsync/git-sync.e2e.test.ts': 37_000,
  'test/templates/templates.e2e.test.ts': 35_000,
  'test/pdf/pdf-api.e2e.test.ts': 34_000,
  'test/webimport/website-import-crash.e2e.test.ts': 31_000,
  'test/e2e/db-server-killed.test.ts': 30_000,
  'test/api/contract-coverage.test.ts': 27_000,
  'test/format/tree/corpus-pgsql.test.ts': 25_000,
  'test/store/store-s3.test.ts': 25_000,
  'test/translations/translation-crash.e2e.test.ts': 25_000,
  'test/api/space-lifecycle.test.ts': 24_000,
  'test/e2e/start.test.ts': 22_000,
  'test/parse-pool/pool.test.ts': 22_000,
  'test/cli/config-startup.test.ts': 22_000,
  'test/format/tree/export-edits.test.ts': 21_000,
  'test/openapi-e2e/openapi-api.test.ts': 21_000,
  'test/api/change-requests.test.ts': 21_000,
  'test/gitsync/queue.test.ts': 20_000,
};

export default class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const bySize = await super.sort(files);
    const { cache, config } = this.ctx;
    const key = (f: TestSpecification) => {
      const file = relative(config.root, f.moduleId);
      const last = cache.getFileTestResults(`${f.project.name}:${file}`);
      return { failed: last?.failed ? 1 : 0, ms: last?.duration ?? HINTS[file] ?? 0 };
    };
    const keys = new Map(bySize.map((f, i) => [f, { ...key(f), i }]));
    return [...bySize].sort((a, b) => {
      const ka = keys.get(a)!;
      const kb = keys.get(b)!;
      return kb.failed - ka.failed || kb.ms - ka.ms || ka.i - kb.i;
    });
  }
}
