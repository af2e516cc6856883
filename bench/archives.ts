/**
 * What hostile archives and compressed responses cost the worker's process (src/fileimport/zip.ts, src/net/body.ts).
 *
 *   npm run build && node dist/bench/archives.js [--case <name>]
 *
 * Each case runs in a child process of its own, so its peak resident memory is its own: the process's peak RSS
 * (`process.resourceUsage().maxRSS`) is read once the archive is made and the pool thread started, and again after
 * the operation; the difference is what the operation added at its peak. Also the operation's duration, its
 * outcome (the typed code) and the largest event-loop delay of the worker's main thread meanwhile. Cases:
 *   - zip-bomb: a 518 KB zip of 500 MiB of zeros, through the parse pool's `file.convert` (refused from its directory);
 *   - zip-liar: the same, its headers claiming 1 MiB (stopped when inflating passes 1 MiB);
 *   - zip-at-limit: a zip of 250 MiB of zeros declared honestly, under FILE_IMPORT_MAX_UNPACKED_BYTES (read);
 *   - docx-bomb: a `.docx` whose document.xml is 500 MiB of zeros (refused before mammoth sees it);
 *   - gzip-bomb: a 1 GiB gzip body (1 MiB on the wire) from a loopback server, through the website import's fetcher
 *     (per-response limit 256 MiB: read until the limit, then WEBIMPORT_TOO_LARGE).
 * Prints one JSON object.
 */
import { spawnSync } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { DEFAULT_FILE_IMPORT_LIMITS } from '../src/fileimport/index.js';
import { ParsePool } from '../src/parse-threads/pool.js';
import { PoliteFetcher } from '../src/webimport/polite-fetcher.js';
import { WEBIMPORT_MAX_RESPONSE_BYTES } from '../src/webimport/errors.js';
import { docxParts, gzipZeros, storedEntry, zerosEntry, zerosZip, zipOf } from '../test/helpers/hostile-archives.js';
import { loopbackPolicy } from '../test/helpers/loopback-policy.js';
import { arg } from './_helpers.js';

const MiB = 1024 * 1024;
const CASES = ['zip-bomb', 'zip-liar', 'zip-at-limit', 'docx-bomb', 'gzip-bomb'] as const;
type Case = (typeof CASES)[number];

const maxRssMiB = () => Math.round(process.resourceUsage().maxRSS / 1024);

async function archive(which: Case): Promise<{ name: string; bytes: Uint8Array }> {
  if (which === 'zip-bomb') return { name: 'bomb.zip', bytes: zerosZip('zeros.md', 500 * MiB) };
  if (which === 'zip-liar') return { name: 'liar.zip', bytes: zerosZip('zeros.md', 500 * MiB, MiB) };
  if (which === 'zip-at-limit') return { name: 'big.zip', bytes: zerosZip('zeros.bin', 250 * MiB) };
  const parts = await docxParts();
  const entries = Object.entries(parts)
    .filter(([name]) => name !== 'word/document.xml')
    .map(([name, bytes]) => storedEntry(name, bytes));
  return { name: 'bomb.docx', bytes: zipOf([...entries, zerosEntry('word/document.xml', 500 * MiB)]) };
}

/** Runs `op` with the main thread's event-loop delay and the process's peak RSS before and after. */
async function measured(op: () => Promise<string>): Promise<Record<string, unknown>> {
  const delay = monitorEventLoopDelay({ resolution: 5 });
  const before = maxRssMiB();
  delay.enable();
  const t0 = performance.now();
  const outcome = await op().catch((err: unknown) => `${(err as { code?: string }).code ?? 'ERROR'}: ${(err as Error).message}`);
  const ms = Math.round(performance.now() - t0);
  delay.disable();
  const after = maxRssMiB();
  return { outcome, ms, peakRssBeforeMiB: before, peakRssAfterMiB: after, peakRssAddedMiB: after - before, maxEventLoopDelayMs: Math.round(delay.max / 1e6) };
}

async function runArchiveCase(which: Case): Promise<Record<string, unknown>> {
  const { name, bytes } = await archive(which);
  const pool = new ParsePool({ threads: 1, timeBudgetMs: 120_000, memoryBudgetMb: 256 });
  await pool.startAll();
  const result = await measured(async () => {
    const converted = await pool.runWith({}, 'file.convert', { name, bytes }, DEFAULT_FILE_IMPORT_LIMITS);
    const size = converted.kind === 'zip' ? [...converted.entries.values()].reduce((n, b) => n + b.byteLength, 0) : 0;
    return `read: ${converted.kind}, ${Math.round(size / MiB)} MiB unpacked`;
  });
  await pool.close();
  return { archiveKiB: Math.round(bytes.byteLength / 1024), ...result };
}

async function runGzipCase(): Promise<Record<string, unknown>> {
  const bomb = gzipZeros(1024 * MiB);
  const server = http.createServer((_req, res) => {
    res.writeHead(200, { 'content-encoding': 'gzip', 'content-type': 'text/html' });
    res.end(bomb);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/page.html`;
  const fetcher = new PoliteFetcher({
    policy: loopbackPolicy,
    concurrency: 1,
    delayMs: 0,
    timeoutMs: 120_000,
    retries: 0,
    maxResponseBytes: WEBIMPORT_MAX_RESPONSE_BYTES,
  });
  const result = await measured(async () => {
    const r = await fetcher.get(url);
    return `read: ${r.bytes.byteLength} bytes`;
  });
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return { bodyOnTheWireKiB: Math.round(bomb.byteLength / 1024), decodedLimitMiB: WEBIMPORT_MAX_RESPONSE_BYTES / MiB, ...result };
}

async function main(): Promise<void> {
  const which = arg('case', '');
  if ((CASES as readonly string[]).includes(which)) {
    const result = which === 'gzip-bomb' ? await runGzipCase() : await runArchiveCase(which as Case);
    console.log(JSON.stringify(result));
    return;
  }
  const results: Record<string, unknown> = {};
  for (const c of CASES) {
    const r = spawnSync(process.execPath, [fileURLToPath(import.meta.url), '--case', c], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
    const line = r.stdout.trim().split('\n').pop() ?? '';
    try {
      results[c] = JSON.parse(line) as unknown;
    } catch {
      results[c] = { error: `exit ${r.status}`, output: r.stdout.slice(-2000) };
    }
  }
  console.log(JSON.stringify({ benchmark: 'archives', limits: { ...DEFAULT_FILE_IMPORT_LIMITS }, results }));
}

await main();
