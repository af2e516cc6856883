/**
 * Benchmark of the parse pool on a cold import (src/parse-pool).
 *
 *   npm run build && node dist/bench/parse-pool.js [--runs 5] [--repo pgsql-tw+gitbook-docs] [--threads N]
 *
 * Measures, on one corpus repository read into memory, medians over the runs of:
 *   - a cold import with every page parsed in this thread (the baseline, measured in the same run);
 *   - the same import with the pages parsed in the parse pool (threads already started: the pool lives as long
 *     as the worker), ratio = pool / in-thread (below 1 when the pool uses more than one core);
 *   - the transfer cost alone: every page's text sent to a thread and its decoded summary sent back by a no-parse
 *     round trip is not measurable apart, so the JSON also gives the bytes of page text and of results moved;
 *   - the max event-loop delay during each import (the in-thread one yields every ~50 ms; the pool's should stay low).
 * Prints one JSON object.
 */
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { importTree, inlinePageCodec, readWorkingTree, type PageCodecRunner } from '../src/format/index.js';
import { corpusDir } from '../src/project-root.js';
import { ParsePool } from '../src/parse-threads/pool.js';
import { poolPageCodec } from '../src/parse-threads/page-codec.js';
import { median, arg, projectDirectoryOf } from './_helpers.js';

const CORPUS = corpusDir();

const round = (x: number, d = 1) => Math.round(x * 10 ** d) / 10 ** d;

async function main(): Promise<void> {
  const runs = Number(arg('runs', '5'));
  const repo = arg('repo', 'pgsql-tw+gitbook-docs');
  const threads = Number(arg('threads', String(availableParallelism())));
  const tree = await readWorkingTree(join(CORPUS, repo));
  const projectDirectory = projectDirectoryOf(repo);
  const pool = new ParsePool({ threads, timeBudgetMs: 60_000 });
  let textBytes = 0;
  let resultBytes = 0;
  const counting = (inner: PageCodecRunner): PageCodecRunner => ({
    ...inner,
    concurrency: inner.concurrency,
    decode: async (text, maxLength) => {
      const r = await inner.decode(text, maxLength);
      textBytes += Buffer.byteLength(text);
      resultBytes += Buffer.byteLength(JSON.stringify(r));
      return r;
    },
  });
  const pooled = poolPageCodec(pool);
  // Start every thread (a worker's pool lives as long as the worker): one import, not measured.
  await importTree(tree, { projectDirectory, codec: pooled });

  const once = async (codec: PageCodecRunner) => {
    const delay = monitorEventLoopDelay({ resolution: 5 });
    delay.enable();
    const t0 = performance.now();
    const r = await importTree(tree, { projectDirectory, codec });
    const ms = performance.now() - t0;
    delay.disable();
    return { ms, maxDelayMs: delay.max / 1e6, pages: r.stats.parsed };
  };
  const inline: Array<Awaited<ReturnType<typeof once>>> = [];
  const inPool: Array<Awaited<ReturnType<typeof once>>> = [];
  for (let i = 0; i < runs; i++) {
    inline.push(await once(inlinePageCodec));
    inPool.push(await once(i === 0 ? counting(pooled) : pooled));
  }
  await pool.close();
  const inlineMs = median(inline.map((r) => r.ms));
  const poolMs = median(inPool.map((r) => r.ms));
  console.log(
    JSON.stringify({
      benchmark: 'parse-pool',
      repo,
      pages: inline[0]!.pages,
      runs,
      threads,
      cores: availableParallelism(),
      coldImportInThreadMs: round(inlineMs),
      coldImportPoolMs: round(poolMs),
      ratio: round(poolMs / inlineMs, 3),
      maxEventLoopDelayInThreadMs: round(median(inline.map((r) => r.maxDelayMs))),
      maxEventLoopDelayPoolMs: round(median(inPool.map((r) => r.maxDelayMs))),
      transfer: { pageTextBytes: textBytes, decodedResultBytes: resultBytes },
    }),
  );
}

await main();
