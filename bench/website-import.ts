/**
 * Website import benchmark: a generated documentation site of N pages (default 1,000: 20 sections of 50 pages, a
 * sitemap, links between neighbours, one image per section) served on loopback, imported by Folio's content import
 * activities (crawl → blobs and checkpoints in the store → conversion in the parse pool → `importTree` → revision),
 * beside the baseline of the same run: `wget --mirror --no-parent --page-requisites` of the same site (which only
 * downloads). `--wait <ms>` gives both the same politeness: Folio's WEBIMPORT_DELAY_MS and wget's `--wait` (default 0:
 * neither waits). Time and peak memory (Folio: the growth of this process's resident set over its level before the
 * import, sampled every 20 ms; wget: its max RSS) as medians over `--runs` runs (default 3). Prints one JSON object.
 * `--corpus <repo>`: instead of the generated site, a site built from a real corpus repository (`mkdocs build` of
 * its project directory, bench/_corpus-site.ts) whose robots.txt asks for `Crawl-delay: --wait`; Folio then gets no
 * WEBIMPORT_DELAY_MS of its own (its pacing comes from robots.txt, which the benchmark checks: the shortest gap
 * between two of its requests), wget gets `--wait` (it does not read Crawl-delay) and leaves out the theme's
 * scripts, styles and fonts (Folio fetches none). Folio and wget alternate in each run; the requests each made are
 * counted from the server's log.
 * Run: npx tsx bench/website-import.ts [pages] [--runs 3] [--wait 100] [--corpus BlockRazorinc+docs_en]
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
import { pacing, startCorpusSite, type SiteRequest } from './_corpus-site.js';

const PAGES = Math.max(10, Number(process.argv.slice(2).find((a, i, all) => /^\d+$/.test(a) && !all[i - 1]?.startsWith('--')) ?? 1000));
const RUNS = Math.max(1, Number(arg('runs', '3')));
const WAIT_MS = Math.max(0, Number(arg('wait', '0')));
const CORPUS = arg('corpus', '');
const SECTION = 50;
const PNG = Buffer.from(
  '89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c6360000002000154a24f5d0000000049454e44ae426082',
  'hex',
);

/** The site both sides import: the generated one, or a corpus repository's (with its request log). */
interface Site {
  base: string;
  startUrl: string;
  pages: number;
  requests: SiteRequest[] | null;
  stop(): Promise<void>;
}

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

async function startSite(): Promise<Site> {
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
  return { base, startUrl: `${base}/docs/`, pages: PAGES, requests: null, stop: () => new Promise<void>((r) => server.close(() => r())) };
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
async function wgetMirror(site: Site, dir: string): Promise<{ ms: number; peakMb: number; files: number }> {
  // python's RUSAGE_CHILDREN gives wget's max RSS (kB on Linux).
  const script =
    'import resource,subprocess,sys,time;t=time.time();subprocess.run(sys.argv[1:]);print(time.time()-t, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)';
  const wait = WAIT_MS > 0 ? [`--wait=${WAIT_MS / 1000}`] : [];
  // On a corpus site, the theme's scripts, styles and fonts are left out: Folio fetches pages and images only.
  const reject = CORPUS ? ['--reject', '*.js,*.css,*.woff,*.woff2,*.ttf,*.eot,*.map'] : [];
  const args = ['wget', '--mirror', '--no-parent', '--page-requisites', ...reject, ...wait, '-q', '-P', dir, site.startUrl];
  const child = spawn('python3', ['-c', script, ...args], { stdio: ['ignore', 'pipe', 'inherit'] });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += String(c)));
  await new Promise((r) => child.once('exit', r));
  const [seconds, maxRssKb] = out.trim().split(/\s+/).map(Number);
  const files = spawnSync('find', [dir, '-type', 'f'], { encoding: 'utf8' }).stdout.trim().split('\n').length;
  return { ms: seconds! * 1000, peakMb: maxRssKb! / 1024, files };
}

interface Deps {
  store: Awaited<ReturnType<typeof openStore>>;
  activities: ReturnType<typeof createContentImportActivities>;
  parsePool: ParsePool;
}

async function openDeps(site: Site): Promise<Deps> {
  const logger = createLogger('bench', { level: 'error', pretty: false });
  const delay = CORPUS ? '0' : String(WAIT_MS);
  const config = { ...loadConfig({ FETCH_ALLOW_HOSTS: LOOPBACK_ALLOW_HOSTS, WEBIMPORT_DELAY_MS: delay, WEBIMPORT_MAX_PAGES: String(site.pages + 10) }) };
  const store = await openStore({ dataDir: 'memory://', migrate: true, logger });
  const parsePool = new ParsePool({ threads: config.parseThreads, timeBudgetMs: config.parseTimeBudgetMs, memoryBudgetMb: config.parseMemoryBudgetMb });
  await store.orgs.ensure({ id: 'bench', title: 'bench' });
  return { store, parsePool, activities: createContentImportActivities({ store, config, logger, parsePool }) };
}

const samples = {
  folio: { ms: [] as number[], peakMb: [] as number[], growthMb: [] as number[], crawlMs: [] as number[], buildMs: [] as number[] },
  wget: { ms: [] as number[], peakMb: [] as number[] },
  counts: { pages: 0, files: 0, wgetFiles: 0 },
  pacing: [] as Array<{ folio: ReturnType<typeof pacing>; wget: ReturnType<typeof pacing> }>,
};

/** One run: Folio's whole import (crawl + conversion + revision), then wget's mirror of the same site. */
async function oneRun(site: Site, d: Deps, work: string, i: number): Promise<void> {
  const space = await d.store.spaces.create('bench', { title: `bench ${i}` });
  const run = await d.store.imports.create({ organizationId: 'bench', spaceId: space.id, source: { type: 'website', url: site.startUrl } });
  const ref = { runId: run.id, organizationId: 'bench' };
  const from = site.requests?.length ?? 0;
  const m = await measured(async () => {
    await d.activities.importMarkStarted(ref);
    const t0 = performance.now();
    await d.activities.importCrawl(ref);
    const t1 = performance.now();
    const built = await d.activities.importBuild(ref);
    samples.folio.crawlMs.push(t1 - t0);
    samples.folio.buildMs.push(performance.now() - t1);
    samples.counts.pages = built.pages;
    samples.counts.files = built.files;
  });
  samples.folio.ms.push(m.ms);
  samples.folio.peakMb.push(m.peakMb);
  samples.folio.growthMb.push(m.growthMb);
  const w = await wgetMirror(site, path.join(work, `wget-${i}`));
  samples.wget.ms.push(w.ms);
  samples.wget.peakMb.push(w.peakMb);
  samples.counts.wgetFiles = w.files;
  if (site.requests) samples.pacing.push({ folio: pacing(site.requests, from, /FolioImporter/), wget: pacing(site.requests, from, /wget/i) });
}

function report(site: Site): Record<string, unknown> {
  const r = (x: number) => Math.round(x * 10) / 10;
  const { folio, wget, counts } = samples;
  return {
    benchmark: 'website-import',
    site: CORPUS ? `mkdocs build of ${CORPUS}` : 'generated',
    sitePages: site.pages,
    runs: RUNS,
    waitMs: WAIT_MS,
    importedPages: counts.pages,
    importedFiles: counts.files,
    wgetFiles: counts.wgetFiles,
    folio: { medianMs: r(median(folio.ms)), medianPeakMb: r(median(folio.peakMb)), ms: folio.ms.map(r), firstRunGrowthMb: r(folio.growthMb[0]!) },
    wgetMirror: { medianMs: r(median(wget.ms)), medianPeakMb: r(median(wget.peakMb)), ms: wget.ms.map(r) },
    folioPhases: { crawlMedianMs: r(median(folio.crawlMs)), buildMedianMs: r(median(folio.buildMs)) },
    timeRatio: Math.round((median(folio.ms) / median(wget.ms)) * 100) / 100,
    memoryRatio: r(median(folio.peakMb) / median(wget.peakMb)),
    ...(site.requests ? { requests: samples.pacing, crawlDelayHonoured: samples.pacing.every((p) => (p.folio.minGapMs ?? Infinity) >= WAIT_MS) } : {}),
    note: 'folio: crawl + conversion + revision, in-memory store, parse pool of FOLIO_PARSE_THREADS threads; memory = peak RSS of the whole process (Node, the site server, the in-memory database holding every run, the parse threads). wget: download only.',
  };
}

async function main() {
  if (spawnSync('wget', ['--version']).status !== 0) throw new Error('wget is required (apt-get install wget)');
  const site: Site = CORPUS ? await startCorpusSite(CORPUS, WAIT_MS) : await startSite();
  const work = await mkdtemp(path.join(tmpdir(), 'folio-bench-webimport-'));
  const d = await openDeps(site);
  try {
    for (let i = 0; i < RUNS; i++) await oneRun(site, d, work, i);
  } finally {
    await d.parsePool.close();
    await d.store.close();
    await site.stop();
    await rm(work, { recursive: true, force: true });
  }
  process.stdout.write(JSON.stringify(report(site)) + '\n');
}

await main();
