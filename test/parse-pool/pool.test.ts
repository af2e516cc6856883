/**
 * The parse pool: results equal the in-thread codec's; a task over its time budget, its memory budget or the
 * parser's stack fails typed and its thread is replaced; the queue is bounded; close() fails what waits. And the
 * converter: a page too deep for the parser's stack is kept untouched with FORMAT_PAGE_TOO_COMPLEX, even in-thread.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { importTree } from '../../src/format/index.js';
import { inlinePageCodec } from '../../src/format/page-codec-runner.js';
import { treeFromFiles } from '../../src/format/source-tree.js';
import { ParsePool } from '../../src/parse-threads/pool.js';
import { poolPageCodec } from '../../src/parse-threads/page-codec.js';

const pools: ParsePool[] = [];
const pool = (options: ConstructorParameters<typeof ParsePool>[0]) => {
  const p = new ParsePool(options);
  pools.push(p);
  return p;
};
afterAll(async () => {
  await Promise.all(pools.map((p) => p.close()));
});

const PAGE = '---\ndescription: A page\n---\n\n# Hello\n\nSee [other](other.md) and ![img](.gitbook/assets/a.png).\n';
const SLOW = `# Slow\n\n${'**_'.repeat(25_000)}\n`;
// Deep enough to overflow a parse thread's stack (10,000 levels now fit since the style detection walks with fewer
// frames per level); the limit is set by stack frames, not by the machine's speed, and it overflows in about a second.
const DEEP = `# Deep\n\n${'>'.repeat(20_000)} x\n`;

async function failure(p: Promise<unknown>): Promise<any> {
  return p.then(
    () => {
      throw new Error('expected a failure');
    },
    (err: unknown) => err,
  );
}

describe('parse pool', () => {
  it('decodes a page in a thread exactly as in this thread', async () => {
    const p = pool({ threads: 1, timeBudgetMs: 20_000 });
    expect(await p.run('page.decode', PAGE)).toEqual(await inlinePageCodec.decode(PAGE));
    const rewrites = new Map([['other.md', 'guide/other.md']]);
    expect(await p.run('page.encode', PAGE, null, rewrites)).toEqual(await inlinePageCodec.encode(PAGE, null, rewrites));
  });

  it("many tasks under one caller's signal add one listener to it (no MaxListenersExceededWarning), and it still cancels them", async () => {
    const p = pool({ threads: 1, timeBudgetMs: 20_000 });
    const warnings: Error[] = [];
    const onWarning = (w: Error) => warnings.push(w);
    process.on('warning', onWarning);
    try {
      const run = new AbortController();
      const pages = await Promise.all(Array.from({ length: 16 }, (_, i) => p.runWith({ signal: run.signal }, 'page.decode', `# Page ${i}\n`)));
      expect(pages.map((d) => d.fields.title)).toEqual(Array.from({ length: 16 }, (_, i) => `Page ${i}`));
      await new Promise((r) => setImmediate(r));
      expect(warnings.filter((w) => w.name === 'MaxListenersExceededWarning').map((w) => w.message)).toEqual([]);
      const queued = Array.from({ length: 4 }, () => p.runWith({ signal: run.signal }, 'page.decode', SLOW).catch((err: unknown) => err));
      run.abort(new Error('caller stopped'));
      for (const err of await Promise.all(queued)) expect(String((err as Error).message ?? err)).toMatch(/stopped|cancel|abort/i);
    } finally {
      process.off('warning', onWarning);
    }
  });

  it('time budget: the task fails typed, the thread is terminated and replaced, the next task runs', async () => {
    const p = pool({ threads: 1, timeBudgetMs: 1000 });
    await p.run('page.decode', '# warm\n'); // the thread is started (loading the parsers is not part of a task's budget)
    const err = await failure(p.run('page.decode', SLOW));
    expect(err).toMatchObject({ code: 'PARSE_BUDGET_EXCEEDED', budget: 'time', limit: 1000, retryable: false });
    expect(p.replaced).toBe(1);
    expect((await p.run('page.decode', PAGE)).fields.title).toBe('Hello');
  });

  it('memory budget: a thread that runs out of heap is replaced, the task fails typed', async () => {
    // Twice what a thread takes to load its parsers from the TypeScript sources (about 17 MB; at 16 MB most threads
    // failed to start); the thread is started before the task, so the budget the task overruns is the task's.
    const p = pool({ threads: 1, timeBudgetMs: 60_000, memoryBudgetMb: 32 });
    await p.run('page.decode', '# warm\n');
    const err = await failure(p.run('page.decode', '[a](b.md) '.repeat(150_000)));
    expect(err).toMatchObject({ code: 'PARSE_BUDGET_EXCEEDED', budget: 'memory', limit: 32 });
    expect(p.replaced).toBe(1);
    expect((await p.run('page.decode', PAGE)).urls).toEqual(['other.md', '.gitbook/assets/a.png']);
  });

  it('stack: nesting too deep for the parser fails typed; the thread goes on', async () => {
    const p = pool({ threads: 1, timeBudgetMs: 60_000 });
    expect(await failure(p.run('page.decode', DEEP))).toMatchObject({ code: 'PARSE_BUDGET_EXCEEDED', budget: 'stack' });
    expect((await p.run('page.decode', PAGE)).fields.title).toBe('Hello');
    expect(p.replaced).toBe(0);
  });

  it('startAll starts every thread and resolves once each is ready; a thread that cannot start rejects it', async () => {
    const p = pool({ threads: 3, timeBudgetMs: 60_000 });
    await p.startAll();
    expect(p.readyThreads).toBe(3);
    await p.startAll(); // already started: nothing more
    expect(p.readyThreads).toBe(3);
    // Far less heap than loading the parsers takes: the threads die while starting.
    const tiny = pool({ threads: 1, timeBudgetMs: 60_000, memoryBudgetMb: 4 });
    expect(await failure(tiny.startAll())).toMatchObject({ code: 'PARSE_TASK_FAILED' });
  });

  it('bounded queue and clean close', async () => {
    const p = pool({ threads: 1, timeBudgetMs: 1000, maxQueue: 1 });
    await p.run('page.decode', '# warm\n'); // the thread is ready: the next task runs at once, the one after waits
    const running = p.run('page.decode', SLOW);
    const waiting = p.run('page.decode', PAGE);
    expect(await failure(p.run('page.decode', PAGE))).toMatchObject({ code: 'PARSE_POOL_BUSY', retryable: true });
    const [a, b] = await Promise.allSettled([running, waiting]);
    expect(a.status).toBe('rejected');
    expect(b.status === 'fulfilled' ? b.value.fields.title : String(b.reason)).toBe('Hello');
    // Its rejection is observed before close() rejects it (a rejection nobody handles yet is an unhandled one).
    const pending = failure(p.run('page.decode', SLOW));
    await p.close();
    expect(await pending).toMatchObject({ code: 'PARSE_POOL_CLOSED', retryable: true });
    expect(await failure(p.run('page.decode', PAGE))).toMatchObject({ code: 'PARSE_POOL_CLOSED' });
  });
});

describe('import with budgets', () => {
  const tree = () =>
    treeFromFiles({
      'README.md': '# Home\n\n[deep](deep.md)\n',
      'deep.md': DEEP,
      'slow.md': SLOW,
      'SUMMARY.md': '# Summary\n\n* [Home](README.md)\n* [Deep](deep.md)\n* [Slow](slow.md)\n',
    });

  it('through the pool: the pages over budget are imported without content with FORMAT_PAGE_TOO_COMPLEX, the others normally', async () => {
    // A budget well above what the deep page takes to overflow the stack (about 2 s of CPU), far below what the slow
    // one would take; in CPU time (`busy`), so that a loaded machine, which keeps the deep page's thread off the CPU,
    // cannot spend it first. The slow page spends all of it: every second here is a second of the unit project.
    const codec = poolPageCodec(pool({ threads: 2, timeBudgetMs: 5_000, budgetClock: 'busy' }));
    const { revision, warnings } = await importTree(tree(), { codec });
    const [home, deep, slow] = revision.pages as any[];
    expect(home).toMatchObject({ title: 'Home', titleSource: 'heading' });
    expect(home.references[0].target).toEqual({ kind: 'page', pageId: deep.id });
    expect(deep.markdown).toBeNull();
    expect(slow.markdown).toBeNull();
    const complex = warnings.filter((w) => w.code === 'FORMAT_PAGE_TOO_COMPLEX');
    expect(complex.map((w) => [w.path, w.data?.budget])).toEqual([
      ['deep.md', 'stack'],
      ['slow.md', 'time'],
    ]);
    expect(complex.every((w) => w.severity === 'error')).toBe(true);
  });

  it('.gitbook.yaml is parsed in the pool too: within its budget its redirects apply, over it the defaults (FORMAT_CONFIG_TOO_COMPLEX) and the import goes on', async () => {
    // 40,000 redirects (about 0.8 MB): within the file-size cap, and some hundreds of ms of YAML parsing.
    const redirects = Array.from({ length: 40_000 }, (_, i) => `  old/p${i}: README.md`).join('\n');
    const files = {
      '.gitbook.yaml': `root: ./docs/\nredirects:\n${redirects}\n`,
      'docs/README.md': '# Home\n',
      'docs/SUMMARY.md': '# Summary\n\n* [Home](README.md)\n',
    };
    const within = await importTree(treeFromFiles(files), { codec: poolPageCodec(pool({ threads: 1, timeBudgetMs: 60_000 })) });
    expect(within.revision.config.root).toBe('docs');
    expect(within.revision.config.redirects).toHaveLength(40_000);
    const over = await importTree(treeFromFiles({ ...files, 'README.md': '# Top\n' }), { codec: poolPageCodec(pool({ threads: 1, timeBudgetMs: 5 })) });
    expect(over.warnings.find((w) => w.code === 'FORMAT_CONFIG_TOO_COMPLEX')).toMatchObject({ path: '.gitbook.yaml', severity: 'error' });
    expect(over.revision.config.root).toBe('');
    expect(over.revision.config.redirects).toEqual([]);
  });

  it('in this thread: a stack overflow of the parser no longer fails the whole import', async () => {
    const t = treeFromFiles({ 'README.md': '# Home\n', 'deep.md': DEEP, 'SUMMARY.md': '# Summary\n\n* [Home](README.md)\n* [Deep](deep.md)\n' });
    const { revision, warnings } = await importTree(t);
    expect((revision.pages[1] as any).markdown).toBeNull();
    expect(warnings.find((w) => w.code === 'FORMAT_PAGE_TOO_COMPLEX')).toMatchObject({ path: 'deep.md', data: { budget: 'stack' } });
  });
});

describe('SUMMARY.md in the parse pool', () => {
  const SUMMARY = '# Table of contents\n\n* [Intro](README.md)\n* [Guide](guide.md)\n  * [Deep](guide/deep.md)\n\n## Part two\n\n* [Other](other.md)\n';

  it('is parsed in a thread exactly as in this thread', async () => {
    const p = pool({ threads: 1, timeBudgetMs: 20_000 });
    expect(await p.run('summary.parse', SUMMARY, 'SUMMARY.md')).toEqual(await inlinePageCodec.parseSummary(SUMMARY, 'SUMMARY.md'));
  });

  it('over a budget, the import stops with FORMAT_SUMMARY_TOO_COMPLEX (no table of contents is guessed)', async () => {
    const p = pool({ threads: 1, timeBudgetMs: 60_000, memoryBudgetMb: 32 });
    await p.run('page.decode', '# warm\n'); // started: the budget overrun below is the parse's, not the thread's start
    const huge = `# Summary\n\n${'* [Page with a long enough title](folder/page.md)\n'.repeat(100_000)}`;
    const tree = treeFromFiles({ 'SUMMARY.md': huge, 'README.md': '# Intro\n' });
    const err = await failure(importTree(tree, { codec: poolPageCodec(p), limits: { maxPageBytes: 50_000_000 } }));
    expect(err).toMatchObject({ code: 'FORMAT_SUMMARY_TOO_COMPLEX', retryable: false });
    expect(err.message).toContain('SUMMARY.md is too complex to parse (over the memory budget)');
    // Larger than a page may be: refused before any parse.
    const big = await failure(importTree(tree, { codec: poolPageCodec(p), limits: { maxPageBytes: 1_000_000 } }));
    expect(big).toMatchObject({ code: 'FORMAT_SUMMARY_TOO_COMPLEX' });
    expect(big.message).toContain('bytes, above the 1000000-byte limit of a page');
    // The same table of contents, small enough, imports through the pool.
    const ok = await importTree(treeFromFiles({ 'SUMMARY.md': SUMMARY, 'README.md': '# Intro\n' }), { codec: poolPageCodec(p) });
    expect(ok.revision.pages.map((page) => page.title)).toContain('Intro');
  });
});
