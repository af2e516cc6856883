/**
 * Website import benchmark: a generated documentation site of N pages (default 1,000: 20 sections of 50 pages, a
 * sitemap, links between neighbours, one image per section) served on loopback, imported by Folio's content import
 * activities (crawl → blobs and checkpoints in the store → conversion in the parse pool → `importTree` → revision),
 * beside the baseline of the same run: `wget --mirror --no-parent --page-requisites` of the same site (which only
 * downloads). `--wait <ms>` gives both the same politeness: Folio's WEBIMPORT_DELAY_MS and wget's `--wait` (default 0:
 * neither waits). Time and peak memory (Folio: the growth of this process's resident set over its level before the
 * import, sampled every 20 ms; wget: its max RSS) as medians over `--runs` runs (default 3). Prints one JSON object.
 * Run: npx tsx bench/website-import.ts [pages] [--runs 3] [--wait 100]
 */
import { spawn, spawnSync } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createContentImportActivities } from '../activities/content-import.js';
import { loadConfig } from '../src/config/config.js';
import { createLogger } from '../src/log.js';
import { ParsePool } from '../src/parse-threads/pool.js';
import { openStore } from '../src/store/index.js';
import { LOOPBACK_ALLOW_HOSTS } from '../test/helpers/loopback-policy.js';
import { arg, median } from './_helpers.js';

const PAGES = Math.max(10, Number(process.argv.slice(2).find((a, i, all) => /^\d+$/.test(a) && all[i - 1] !== '--runs' && all[i - 1] !== '--wait') ?? 1000));
const RUNS = Math.max(1, Number(arg('runs', '3')));
const WAIT_MS = Math.max(0, Number(arg('wait', '0')));
const SECTION = 50;
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
  'hex',
);

function pageHtml(i: number): string {
  const section = Math.floor(i / SECTION);
  const prev = i > 0 ? `<a href="../s${Math.floor((i - 1) / SECTION)}/p${i - 1}.html">Previous</a>` : '';
  const next = i < PAGES - 1 ? `<a href="../s${Math.floor((i + 1) / SECTION)}/p${i + 1}.html">Next</a>` : '';
  const para = `Page ${i} of section ${section} explains one feature of the product in enough words to look like documentation. `.repeat(6);
  return `<!doctype html><html><head><title>Page ${i}</title><meta name="description" content="Page ${i}"></head><body>
<nav><a href="/docs/">Home</a></nav><main><h1>Page ${i}</h1><p>${para}</p><h2>Example</h2>
<pre><code class="language-js">const page = ${i};\nconsole.log(page);\n</code></pre>
<table><tr><th>Option</th><th>Value</th></tr><tr><td>a</td><td>${i}</td></tr></table>
<p><img src="../img/s${section}.png" alt="Section ${section}"> ${prev} ${next} <a href="../index.html">Index</a></p></main></body></html>`;
}

async function startSite(): Promise<{ base: string; stop(): Promise<void> }> {
  let base = '';
  const server = http.createServer((req, res) => {
    const p = new URL(req.url ?? '/', 'http://x').pathname;
    let m: RegExpExecArray | null;
    if (p === '/robots.txt') return res.writeHead(200, { 'content-type': 'text/plain' }).end(`User-agent: *\nAllow: /\nSitemap: ${base}/sitemap.xml\n`);
    if (p === '/sitemap.xml') {
      const urls = Array.from({ length: PAGES }, (_, i) => `<url><loc>${base}/docs/s${Math.floor(i / SECTION)}/p${i}.html</loc></url>`).join('');
      return res
        .writeHead(200, { 'content-type': 'application/xml' })
        .end(`<?xml version="1.0"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">${urls}</urlset>`);
    }
    if (p === '/docs/' || p === '/docs/index.html') {
      const links = Array.from({ length: Math.ceil(PAGES / SECTION) }, (_, s) => `<li><a href="s${s}/p${s * SECTION}.html">Section ${s}</a></li>`).join('');
      return res
        .writeHead(200, { 'content-type': 'text/html' })
        .end(`<!doctype html><html><head><title>Docs</title></head><body><main><h1>Docs</h1><ul>${links}</ul></main></body></html>`);
    }
    if ((m = /^\/docs\/img\/s(\d+)\.png$/.exec(p))) return res.writeHead(200, { 'content-type': 'image/png' }).end(Buffer.concat([PNG, Buffer.from(m[1]!)]));
    if ((m = /^\/docs\/s\d+\/p(\d+)\.html$/.exec(p)) && Number(m[1]) < PAGES)
      return res.writeHead(200, { 'content-type': 'text/html' }).end(pageHtml(Number(m[1])));
    res.writeHead(404).end('not found');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { base, stop: () => new Promise<void>((r) => server.close(() => r())) };
}

/** Runs `fn` while sampling this process's RSS; returns the time, the peak RSS and its growth over the level before. */
async function measured(fn: () => Promise<unknown>): Promise<{ ms: number; peakMb: number; growthMb: number }> {
  (globalThis as { gc?: () => void }).gc?.();
  const before = process.memoryUsage().rss;
  let peak = before;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20);
  const t = performance.now();
  await fn();
  const ms = performance.now() - t;
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage().rss);
  return { ms, peakMb: peak / 1048576, growthMb: (peak - before) / 1048576 };
}

/** wget in a child process (asynchronously: the site is served by this process's event loop). */
async function wgetMirror(base: string, dir: string): Promise<{ ms: number; peakMb: number; files: number }> {
  // python's RUSAGE_CHILDREN gives wget's max RSS (kB on Linux).
  const script =
    'import resource,subprocess,sys,time;t=time.time();subprocess.run(sys.argv[1:]);print(time.time()-t, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)';
  const wait = WAIT_MS > 0 ? [`--wait=${WAIT_MS / 1000}`] : [];
  const child = spawn('python3', ['-c', script, 'wget', '--mirror', '--no-parent', '--page-requisites', ...wait, '-q', '-P', dir, `${base}/docs/`], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += String(c)));
  await new Promise((r) => child.once('exit', r));
  const [seconds, maxRssKb] = out.trim().split(/\s+/).map(Number);
  const files = spawnSync('find', [dir, '-type', 'f'], { encoding: 'utf8' }).stdout.trim().split('\n').length;
  return { ms: seconds! * 1000, peakMb: maxRssKb! / 1024, files };
}

async function main() {
  if (spawnSync('wget', ['--version']).status !== 0) throw new Error('wget is required (apt-get install wget)');
  const site = await startSite();
  const work = await mkdtemp(path.join(tmpdir(), 'folio-bench-webimport-'));
  const logger = createLogger('bench', { level: 'error', pretty: false });
  const config = { ...loadConfig({ FETCH_ALLOW_HOSTS: LOOPBACK_ALLOW_HOSTS, WEBIMPORT_DELAY_MS: String(WAIT_MS), WEBIMPORT_MAX_PAGES: String(PAGES + 10) }) };
  const store = await openStore({ dataDir: 'memory://', migrate: true, logger });
  const parsePool = new ParsePool({ threads: config.parseThreads, timeBudgetMs: config.parseTimeBudgetMs, memoryBudgetMb: config.parseMemoryBudgetMb });
  const activities = createContentImportActivities({ store, config, logger, parsePool });
  await store.orgs.ensure({ id: 'bench', title: 'bench' });
  const folio = { ms: [] as number[], peakMb: [] as number[], growthMb: [] as number[] };
  const wget = { ms: [] as number[], peakMb: [] as number[] };
  const phases = { crawlMs: [] as number[], buildMs: [] as number[] };
  let pages = 0;
  let files = 0;
  let wgetFiles = 0;
  try {
    for (let i = 0; i < RUNS; i++) {
      const space = await store.spaces.create('bench', { title: `bench ${i}` });
      const run = await store.imports.create({ organizationId: 'bench', spaceId: space.id, source: { type: 'website', url: `${site.base}/docs/` } });
      const ref = { runId: run.id, organizationId: 'bench' };
      const m = await measured(async () => {
        await activities.importMarkStarted(ref);
        const t0 = performance.now();
        await activities.importCrawl(ref);
        const t1 = performance.now();
        const built = await activities.importBuild(ref);
        phases.crawlMs.push(t1 - t0);
        phases.buildMs.push(performance.now() - t1);
        pages = built.pages;
        files = built.files;
      });
      folio.ms.push(m.ms);
      folio.peakMb.push(m.peakMb);
      folio.growthMb.push(m.growthMb);
      const dir = path.join(work, `wget-${i}`);
      const w = await wgetMirror(site.base, dir);
      wget.ms.push(w.ms);
      wget.peakMb.push(w.peakMb);
      wgetFiles = w.files;
    }
  } finally {
    await parsePool.close();
    await store.close();
    await site.stop();
    await rm(work, { recursive: true, force: true });
  }
  const r = (x: number) => Math.round(x * 10) / 10;
  process.stdout.write(
    JSON.stringify({
      benchmark: 'website-import',
      sitePages: PAGES,
      runs: RUNS,
      waitMs: WAIT_MS,
      importedPages: pages,
      importedFiles: files,
      wgetFiles,
      folio: { medianMs: r(median(folio.ms)), medianPeakMb: r(median(folio.peakMb)), ms: folio.ms.map(r), firstRunGrowthMb: r(folio.growthMb[0]!) },
      wgetMirror: { medianMs: r(median(wget.ms)), medianPeakMb: r(median(wget.peakMb)), ms: wget.ms.map(r) },
      folioPhases: { crawlMedianMs: r(median(phases.crawlMs)), buildMedianMs: r(median(phases.buildMs)) },
      timeRatio: r(median(folio.ms) / median(wget.ms)),
      memoryRatio: r(median(folio.peakMb) / median(wget.peakMb)),
      note: 'folio: crawl + conversion + revision, in-memory store, parse pool of FOLIO_PARSE_THREADS threads; memory = peak RSS of the whole process (Node, the site server, the in-memory database holding every run, the parse threads). wget: download only.',
    }) + '\n',
  );
}

await main();
