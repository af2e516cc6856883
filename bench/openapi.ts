/**
 * OpenAPI processing benchmark: Folio's processSpec (safe fetch + custom resolver + validation + filesystem
 * + content hash) against swagger-parser's own `bundle` + `validate` (its built-in HTTP resolver), on the
 * same document served by the same loopback HTTP server, in the same run. `folioPool` is what the worker runs:
 * processSpec in a thread of the OpenAPI pool (`processSpecInPool`; its thread started and warmed on a small spec
 * before the measurement, as a worker's threads are reused), so `ratio.poolVsInline` is the thread hop's cost.
 *
 * Each measurement runs in a fresh child process, so its peak RSS (`maxRSS`) belongs to that side only;
 * the heap-used delta is sampled around the operation too (for `folioPool` that is the main thread's only: the
 * thread's heap shows in `maxRSS`). Sides alternate; medians over BENCH_RUNS
 * (default 5) runs; ratio = folio / swagger-parser. Prints one JSON object.
 *
 *   npm run build && node dist/bench/openapi.js [path/to/spec]   (default: the GitBook API spec, 1.2 MB YAML)
 */
import { spawn } from 'node:child_process';
import { readFileSync, statSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import SwaggerParser from '@apidevtools/swagger-parser';
import { processSpec } from '../src/openapi/process.js';
import { processSpecInPool } from '../src/parse-threads/openapi.js';
import { createSpecPool } from '../src/parse-threads/spec-pool.js';
import { projectRoot } from '../src/project-root.js';
import { loopbackPolicy } from '../test/helpers/loopback-policy.js';
import { median } from './_helpers.js';

const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 5));
const self = fileURLToPath(import.meta.url);

interface Sample {
  side: 'folio' | 'folio-pool' | 'swagger-parser';
  ms: number;
  maxRssMb: number;
  rssBeforeMb: number;
  heapPeakDeltaMb: number;
  ok: boolean;
  detail: string;
}

const mb = (bytes: number) => Number((bytes / 1024 / 1024).toFixed(1));

/** Child: one measured operation, result as one JSON line on stdout. */
async function child(side: Sample['side'], url: string): Promise<void> {
  const pool = side === 'folio-pool' ? createSpecPool({ parseThreads: 1, openapiTimeBudgetMs: 600_000, openapiMemoryBudgetMb: 2048 }) : null;
  if (pool) await processSpecInPool(pool, { text: 'openapi: 3.1.0\ninfo: { title: Warm-up, version: "1" }\npaths: {}\n' }, { fetch: { timeoutMs: 60_000 } });
  const rssBefore = process.memoryUsage().rss;
  const heapBefore = process.memoryUsage().heapUsed;
  let heapPeak = heapBefore;
  const sampler = setInterval(() => {
    heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
  }, 5);
  const t = performance.now();
  let ok = false;
  let detail = '';
  if (side === 'folio' || pool) {
    const options = { fetch: { timeoutMs: 60_000, policy: loopbackPolicy } };
    const result = pool ? await processSpecInPool(pool, { url }, options) : await processSpec({ url }, options);
    ok = result.ok;
    detail = result.ok
      ? `${Object.keys(result.filesystem).length} file(s), ${result.warningCount} warning(s), ${result.hash.slice(0, 19)}`
      : `${result.code}: ${result.message}`;
  } else {
    const options = { resolve: { http: { safeUrlResolver: false } }, dereference: { circular: 'ignore' } } as never;
    const bundled = await (SwaggerParser.bundle(url, options) as unknown as Promise<object>);
    await (SwaggerParser.validate(bundled as never, options) as unknown as Promise<unknown>).then(
      () => {
        ok = true;
        detail = 'valid';
      },
      (err: Error) => {
        ok = true; // swagger-parser did the same work; it only reports the schema deviations
        detail = `validate: ${err.message.split('\n')[0]}`;
      },
    );
  }
  const ms = performance.now() - t;
  clearInterval(sampler);
  heapPeak = Math.max(heapPeak, process.memoryUsage().heapUsed);
  const sample: Sample = {
    side,
    ms,
    maxRssMb: mb(process.resourceUsage().maxRSS * 1024),
    rssBeforeMb: mb(rssBefore),
    heapPeakDeltaMb: mb(heapPeak - heapBefore),
    ok,
    detail,
  };
  await pool?.close();
  process.stdout.write(`${JSON.stringify(sample)}\n`);
}

function runChild(side: Sample['side'], url: string): Promise<Sample> {
  return new Promise((resolve, reject) => {
    const p = spawn(process.execPath, [self, '--child', side, url], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    p.stdout.on('data', (d: Buffer) => (out += d.toString()));
    p.once('error', reject);
    p.once('exit', (code) => {
      if (code !== 0) return reject(new Error(`${side} child exited with ${code}`));
      try {
        resolve(JSON.parse(out.trim().split('\n').pop()!) as Sample);
      } catch (err) {
        reject(err);
      }
    });
  });
}

async function main(): Promise<void> {
  const file = process.argv[2] ?? path.join(projectRoot(), 'node_modules/@gitbook/api/spec/openapi.yaml');
  const body = readFileSync(file);
  const name = path.basename(file);
  const server = http.createServer((req, res) => {
    if (req.url === `/${name}`) res.writeHead(200, { 'content-type': name.endsWith('.json') ? 'application/json' : 'application/yaml' }).end(body);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/${name}`;
  try {
    // Warm-up (module loading from disk into the page cache), not measured.
    await runChild('folio', url);
    await runChild('folio-pool', url);
    await runChild('swagger-parser', url);
    const samples: Record<Sample['side'], Sample[]> = { folio: [], 'folio-pool': [], 'swagger-parser': [] };
    for (let i = 0; i < RUNS; i++) {
      const order: Sample['side'][] = i % 2 === 0 ? ['folio', 'folio-pool', 'swagger-parser'] : ['swagger-parser', 'folio-pool', 'folio'];
      for (const side of order) samples[side].push(await runChild(side, url));
    }
    const side = (s: Sample[]) => ({
      ms: s.map((x) => Math.round(x.ms)),
      medianMs: Math.round(median(s.map((x) => x.ms))),
      medianMaxRssMb: median(s.map((x) => x.maxRssMb)),
      medianRssBeforeMb: median(s.map((x) => x.rssBeforeMb)),
      medianHeapPeakDeltaMb: median(s.map((x) => x.heapPeakDeltaMb)),
      ok: s.every((x) => x.ok),
      detail: s[0]!.detail,
    });
    const folio = side(samples.folio);
    const folioPool = side(samples['folio-pool']);
    const baseline = side(samples['swagger-parser']);
    process.stdout.write(
      `${JSON.stringify(
        {
          benchmark: 'openapi-process',
          spec: { file: path.relative(projectRoot(), file), bytes: statSync(file).size },
          runs: RUNS,
          node: process.version,
          folio,
          folioPool,
          swaggerParserBundleValidate: baseline,
          ratio: {
            time: Number((folio.medianMs / baseline.medianMs).toFixed(2)),
            maxRss: Number((folio.medianMaxRssMb / baseline.medianMaxRssMb).toFixed(2)),
            heapPeakDelta: Number((folio.medianHeapPeakDeltaMb / baseline.medianHeapPeakDeltaMb).toFixed(2)),
            poolTime: Number((folioPool.medianMs / baseline.medianMs).toFixed(2)),
            poolMaxRss: Number((folioPool.medianMaxRssMb / baseline.medianMaxRssMb).toFixed(2)),
            poolVsInline: Number((folioPool.medianMs / folio.medianMs).toFixed(2)),
          },
        },
        null,
        2,
      )}\n`,
    );
  } finally {
    server.close();
  }
}

if (process.argv[2] === '--child') {
  await child(process.argv[3] as Sample['side'], process.argv[4]!);
} else {
  await main();
}
