/**
 * Issue 25, item 1, in the converter: the nine-page hostile repository imported through the parse pool with an
 * operation budget ends within about that budget: the README parsed, the hostile pages kept as raw bytes with a
 * typed warning (over its own budget, FORMAT_PAGE_TOO_COMPLEX, or not parsed once the import's CPU budget was used up,
 * FORMAT_PARSE_BUDGET_EXHAUSTED), and the importer told of every page as it is done (the activity's heartbeats).
 */
import { afterAll, describe, expect, it } from 'vitest';
import { documents, importTree, treeFromFiles } from '../../src/format/index.js';
import { OperationBudget } from '../../src/parse-pool/operation-budget.js';
import { poolPageCodec } from '../../src/parse-threads/page-codec.js';
import { ParsePool } from '../../src/parse-threads/pool.js';
import { HOSTILE_PAGES, hostileRepository } from '../helpers/hostile-pages.js';

// Pages have a long budget of their own (20 s): the import's budget of 3 s of CPU time is what ends this import.
const pool = new ParsePool({ threads: 2, timeBudgetMs: 20_000 });
afterAll(() => pool.close());

describe('a hostile repository within an operation budget', () => {
  it('ends with the README parsed and every hostile page kept raw with a typed warning, within about the budget', async () => {
    await pool.startAll();
    const budget = new OperationBudget({ cpuMs: 3000, operation: 'git import' });
    const loaded: number[] = [];
    const result = await importTree(treeFromFiles(hostileRepository()), {
      codec: poolPageCodec(pool, { key: 'org-hostile', budget }),
      onPageLoaded: (done, total) => loaded.push(done * 100 + total),
    });
    // Within the budget and what was running when it ran out (two threads, checked every 75 ms).
    expect(budget.exhausted).toBe(true);
    expect(budget.usedMs()).toBeLessThan(3000 + 2 * 1000);
    const pages = new Map([...documents(result.revision.pages)].map((p) => [p.git!.path, p]));
    expect(pages.get('README.md')).toMatchObject({ title: 'Hostile', titleSource: 'heading' });
    expect(pages.get('README.md')!.raw).toBeUndefined();
    const codes = new Map(result.warnings.filter((w) => w.severity === 'error').map((w) => [w.path, w.code]));
    // Each hostile page parsed whole (100k `[` parses in about a second on an idle core) or kept raw with its warning.
    let raw = 0;
    for (const [path, text] of Object.entries(HOSTILE_PAGES)) {
      const page = pages.get(path)!;
      if (page.raw === undefined) {
        expect(page.markdown === text, path).toBe(true);
        continue;
      }
      raw++;
      expect(page.markdown, path).toBeNull();
      expect(['FORMAT_PAGE_TOO_COMPLEX', 'FORMAT_PARSE_BUDGET_EXHAUSTED'], path).toContain(page.raw.reason);
      expect(codes.get(path), path).toBe(page.raw.reason);
    }
    expect(raw).toBeGreaterThanOrEqual(7);
    // The import's budget ran out long before the hostile pages had their own 20 s: some were not parsed at all.
    const exhausted = result.warnings.filter((w) => w.code === 'FORMAT_PARSE_BUDGET_EXHAUSTED');
    expect(exhausted.length).toBeGreaterThan(0);
    expect(exhausted[0]!.message).toMatch(/was not parsed: the import reached its parse budget \(3000 ms of CPU time\)/);
    // Told of each of the nine pages, in order.
    expect(loaded).toEqual(Array.from({ length: 9 }, (_, i) => (i + 1) * 100 + 9));
  }, 120_000);
});
