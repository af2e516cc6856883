/**
 * Benchmark of the tree → revision import (src/format).
 *
 *   npm run build && node dist/bench/format-import.js [--runs 5] [--repo pgsql-tw+gitbook-docs]
 *
 * Measures, on the largest corpus repository (most pages):
 *   - full import (time, peak RSS, peak heap) beside bare remark-parse of the same page files
 *     (baseline measured in the same run; ratio = import / remark-parse);
 *   - incremental import of pgsql-tw+gitbook-docs with one page changed (must parse only that
 *     page; its cost as a ratio of the full import);
 *   - peak memory of one full import of the largest repository in a child process that loads only
 *     that repository (RSS and heap deltas against just before the import);
 *   - whether the goals hold (`incremental.parsed === 1`, `ratioVsFull < 0.05`).
 * Prints one JSON object with medians over the runs.
 */
import { spawnSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { unified } from 'unified';
import remarkParse from 'remark-parse';
import { documents, importTree, memoryEntry, readWorkingTree, type SourceTree } from '../src/format/index.js';
import { corpusDir } from '../src/project-root.js';
import { median, arg, projectDirectoryOf } from './_helpers.js';

const CORPUS = corpusDir();

/** Samples heap and RSS while `fn` runs. */
async function measure<T>(fn: () => Promise<T> | T): Promise<{ ms: number; peakRss: number; peakHeap: number; value: T }> {
  global.gc?.();
  let peakRss = process.memoryUsage.rss();
  let peakHeap = process.memoryUsage().heapUsed;
  const timer = setInterval(() => {
    peakRss = Math.max(peakRss, process.memoryUsage.rss());
    peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
  }, 5);
  const t0 = performance.now();
  const value = await fn();
  const ms = performance.now() - t0;
  clearInterval(timer);
  peakRss = Math.max(peakRss, process.memoryUsage.rss());
  peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
  return { ms, peakRss, peakHeap, value };
}

const MB = 1024 * 1024;
const round = (x: number, d = 1) => Math.round(x * 10 ** d) / 10 ** d;

/**
 * Child mode (`--memory-child --repo <name>`): load only that repository, then measure one full
 * import against the process's footprint just before it.
 */
async function memoryChild(repo: string): Promise<void> {
  const tree = await readWorkingTree(join(CORPUS, repo));
  const projectDirectory = projectDirectoryOf(repo);
  global.gc?.();
  const rssBefore = process.memoryUsage.rss();
  const heapBefore = process.memoryUsage().heapUsed;
  const r = await measure(() => importTree(tree, { projectDirectory }));
  process.stdout.write(
    JSON.stringify({
      repo,
      pages: r.value.stats.pages,
      gcExposed: typeof global.gc === 'function',
      importMs: round(r.ms),
      rssBeforeMB: round(rssBefore / MB),
      peakRssMB: round(r.peakRss / MB),
      peakRssDeltaMB: round((r.peakRss - rssBefore) / MB),
      peakHeapDeltaMB: round((r.peakHeap - heapBefore) / MB),
    }) + '\n',
  );
}

/** Runs memoryChild in a fresh process (so no other repository or earlier run weighs on it). */
function isolatedMemory(repo: string): Record<string, unknown> {
  const r = spawnSync(process.execPath, ['--expose-gc', fileURLToPath(import.meta.url), '--memory-child', '--repo', repo], {
    encoding: 'utf8',
    maxBuffer: 16 * 1024 * 1024,
  });
  const line = r.stdout
    .trim()
    .split('\n')
    .reverse()
    .find((l) => l.startsWith('{'));
  if (r.status !== 0 || !line) return { error: `exit ${r.status}`, stderr: r.stderr.slice(-2000) };
  return JSON.parse(line) as Record<string, unknown>;
}

/**
 * Incremental import of pgsql-tw+gitbook-docs with one page changed, `runs` times, against its full import (the
 * measurements in `full` when it is also the largest repository); null when it is not in the corpus.
 */
async function measureIncremental(
  trees: Map<string, SourceTree>,
  largest: string,
  warm: Awaited<ReturnType<typeof importTree>>,
  full: Array<{ ms: number }>,
  runs: number,
): Promise<Record<string, unknown> | null> {
  const incRepo = 'pgsql-tw+gitbook-docs';
  const incTree = trees.get(incRepo);
  if (!incTree) return null;
  const incProject = projectDirectoryOf(incRepo);
  const fullInc: number[] = [];
  const incr: number[] = [];
  let parsed = -1;
  let reused = -1;
  const base = incRepo === largest ? warm : await importTree(incTree, { projectDirectory: incProject });
  const victim = [...documents(base.revision.pages)].find((p) => p.markdown !== null && p.git)!;
  for (let i = 0; i < runs; i++) {
    // Same repository as the full-import measurement: reuse it instead of importing again.
    fullInc.push(incRepo === largest ? full[i]!.ms : (await measure(() => importTree(incTree, { projectDirectory: incProject }))).ms);
    const next: SourceTree = new Map(incTree);
    next.set(victim.git!.path, memoryEntry(new TextEncoder().encode(`${victim.markdown}\nEdited in run ${i}.\n`)));
    const r = await measure(() => importTree(next, { projectDirectory: incProject, previous: { revision: base.revision, tree: incTree } }));
    incr.push(r.ms);
    parsed = r.value.stats.parsed;
    reused = r.value.stats.reused;
  }
  return {
    repo: incRepo,
    changedPage: victim.git!.path,
    parsed,
    reused,
    fullMedianMs: round(median(fullInc)),
    incrementalMedianMs: round(median(incr)),
    ratioVsFull: round(median(incr) / median(fullInc), 4),
  };
}

async function main(): Promise<void> {
  if (process.argv.includes('--memory-child')) return memoryChild(arg('repo', 'pgsql-tw+gitbook-docs'));
  const runs = Number(arg('runs', '3'));
  const repos = readdirSync(CORPUS)
    .filter((n) => n.endsWith('.source'))
    .map((n) => n.slice(0, -'.source'.length));
  // Largest repository = most page files listed as GitBook-written + others: count .md files.
  const countMd = (t: SourceTree) => [...t.keys()].filter((p) => p.endsWith('.md')).length;
  const trees = new Map<string, SourceTree>();
  for (const r of repos) trees.set(r, await readWorkingTree(join(CORPUS, r)));
  const largest = arg('repo', [...trees].sort((a, b) => countMd(b[1]) - countMd(a[1]))[0]![0]);
  const tree = trees.get(largest)!;
  const projectDirectory = projectDirectoryOf(largest);

  // Warm up (JIT, module init) once, outside the measurements.
  const warm = await importTree(tree, { projectDirectory });
  const pageTexts: string[] = [];
  for (const p of documents(warm.revision.pages)) if (p.markdown !== null) pageTexts.push(p.markdown);
  const processor = unified().use(remarkParse);
  for (const t of pageTexts.slice(0, 20)) processor.parse(t);

  const full: Array<{ ms: number; peakRss: number; peakHeap: number }> = [];
  const bare: Array<{ ms: number; peakRss: number; peakHeap: number }> = [];
  for (let i = 0; i < runs; i++) {
    full.push(await measure(() => importTree(tree, { projectDirectory })));
    bare.push(
      await measure(() => {
        for (const t of pageTexts) processor.parse(t);
        return null;
      }),
    );
  }

  const incremental = await measureIncremental(trees, largest, warm, full, runs);

  const result = {
    bench: 'format-import',
    node: process.version,
    runs,
    repo: largest,
    pages: warm.stats.pages,
    files: warm.stats.files,
    fullImport: {
      medianMs: round(median(full.map((r) => r.ms))),
      peakRssMB: round(Math.max(...full.map((r) => r.peakRss)) / MB),
      peakHeapMB: round(Math.max(...full.map((r) => r.peakHeap)) / MB),
    },
    bareRemarkParse: {
      medianMs: round(median(bare.map((r) => r.ms))),
      peakHeapMB: round(Math.max(...bare.map((r) => r.peakHeap)) / MB),
    },
    ratioImportVsRemarkParse: round(median(full.map((r) => r.ms)) / median(bare.map((r) => r.ms)), 2),
    incremental,
    /** One full import of the largest repository in a process that loaded only that repository. */
    isolatedFullImportMemory: isolatedMemory(largest),
    goals: incremental
      ? {
          incrementalParsesOnlyTheChangedPage: incremental.parsed === 1,
          incrementalUnder5PercentOfFull: (incremental.ratioVsFull as number) < 0.05,
          allHold: incremental.parsed === 1 && (incremental.ratioVsFull as number) < 0.05,
        }
      : { skipped: 'pgsql-tw+gitbook-docs not in the corpus' },
  };
  process.stdout.write(JSON.stringify(result) + '\n');
}

main().catch((err: unknown) => {
  process.stderr.write(`format-import bench failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exitCode = 1;
});
