/**
 * `npm run bench -- goals`: every goal of issue 31 with Folio's figure and the peer's, measured in this run on real
 * corpus repositories (../shared/corpus, copied to a temporary directory before any git repository is made), medians.
 * It runs the benchmarks of bench/ that measure each part (each in its own process, with a time limit) and measures
 * the peers they do not run itself (`mkdocs build` of the same markdown); then it prints one table: measure, Folio,
 * peer, ratio, goal, holds. A measure that could not run prints "not measured" with the reason, never a number.
 * The process tree is measured publishing `--tree-repo` (default pgsql-tw+gitbook-docs, ~1,000 pages, one run),
 * beside mkdocs's peak resident memory on the same markdown; the website import crawls a site built from `--repo`
 * (bench/_corpus-site.ts) with `--web-wait-ms` pacing (default 100) on both sides; the embedded database runs
 * `--db-minutes` (default 30, the goal; a shorter run says so in its row) of repeated imports and publishes.
 *   npm run build && node dist/bench/goals.js [--repo BlockRazorinc+docs_en] [--limit-s 900] [--search-pages 1000,10000] [--runs 3]
 *     [--tree-repo pgsql-tw+gitbook-docs] [--web-wait-ms 100] [--db-minutes 30]
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { corpusDir } from '../src/project-root.js';
import { arg, median, projectDirectoryOf } from './_helpers.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = arg('repo', 'BlockRazorinc+docs_en');
const limitS = Number(arg('limit-s', '900'));
const runs = arg('runs', '3');

interface Row {
  measure: string;
  folio: string;
  peer: string;
  ratio: string;
  goal: string;
  holds: string;
}
const rows: Row[] = [];
const fmt = (ms: number) => (ms >= 1000 ? `${(ms / 1000).toFixed(2)} s` : `${ms.toFixed(ms < 10 ? 2 : 0)} ms`);
function measured(measure: string, folio: number, peer: number | null, goal: string, holds: boolean, unit = fmt, peerLabel = ''): void {
  rows.push({
    measure,
    folio: unit(folio),
    peer: peer === null ? '—' : `${peerLabel}${unit(peer)}`,
    ratio: peer === null ? '—' : `${(folio / peer).toFixed(2)}×`,
    goal,
    holds: holds ? 'yes' : 'NO',
  });
  progress();
}
function notMeasured(measure: string, goal: string, reason: string): void {
  rows.push({ measure, folio: 'not measured', peer: '—', ratio: '—', goal, holds: `not measured: ${reason}` });
  progress();
}
/** Each row as soon as it is measured (stderr), so that a long run shows where it is. */
function progress(): void {
  process.stderr.write(`goals [${new Date().toISOString().slice(11, 19)}, load ${loadavg()[0]!.toFixed(1)}]: ${Object.values(rows.at(-1)!).join(' | ')}\n`);
}

/** What another benchmark printed (its own JSON shape, read field by field below). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Printed = any;

/** A benchmark of bench/ in its own process: its last JSON object, or the reason there is none. */
function bench(name: string, args: string[], env: Record<string, string> = {}, limitSeconds = limitS): { json: Printed } | { error: string } {
  const r = spawnSync(process.execPath, [path.join(here, `${name}.js`), ...args], {
    encoding: 'utf8',
    timeout: limitSeconds * 1000,
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, BENCH_RUNS: runs, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (r.error) return { error: `${name}: ${r.error.message.includes('ETIMEDOUT') ? `over the ${limitSeconds} s limit` : r.error.message}` };
  if (r.status !== 0) return { error: `${name} exited ${r.status}: ${(r.stderr || r.stdout).trim().split('\n').slice(-1)[0] ?? ''}` };
  const line = r.stdout
    .trim()
    .split('\n')
    .reverse()
    .find((l) => l.startsWith('{'));
  try {
    return { json: JSON.parse(line ?? '') };
  } catch {
    return { error: `${name}: no JSON output` };
  }
}

/** `mkdocs build` of the repository's markdown (a copy), median of `runs` runs. */
function mkdocsBuild(): number | string {
  const work = mkdtempSync(path.join(tmpdir(), 'folio-goals-mkdocs-'));
  try {
    const docs = path.join(work, 'docs');
    cpSync(path.join(corpusDir(), repo, projectDirectoryOf(repo)), docs, { recursive: true });
    writeFileSync(path.join(work, 'mkdocs.yml'), `site_name: bench\ndocs_dir: docs\nsite_dir: site\n`);
    const times: number[] = [];
    for (let i = 0; i < Number(runs); i++) {
      const t = performance.now();
      const r = spawnSync('mkdocs', ['build', '-q', '--clean'], { cwd: work, encoding: 'utf8', timeout: limitS * 1000 });
      if (r.status !== 0) return `mkdocs build failed: ${(r.stderr ?? '').trim().split('\n').slice(-1)[0]}`;
      times.push(performance.now() - t);
    }
    return median(times);
  } catch (err) {
    return `mkdocs: ${(err as Error).message}`;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

function gitGoals(): void {
  const g = bench('git-sync', [repo]);
  const goals = [
    'cold git import ≤ 3× git clone',
    'incremental import ≤ 3% of cold',
    'incremental import vs native ≤ 3× git pull + parse',
    'one-page export ≤ 2× pull+edit+commit+push',
  ];
  if ('error' in g) return goals.forEach((goal) => notMeasured(goal.split(' ≤')[0]!, goal, g.error));
  const m = g.json.medianMs as Record<string, number>;
  measured(`cold git import (${repo})`, m.importFolio!, m.cloneNative!, '≤ 3× git clone', m.importFolio! <= 3 * m.cloneNative!, fmt, 'git clone ');
  measured(
    'incremental import, 1 page',
    m.incrementalImport!,
    m.importFolio!,
    '≤ 3% of cold import',
    m.incrementalImport! <= 0.03 * m.importFolio!,
    fmt,
    'cold ',
  );
  measured(
    'incremental import vs native, 1 page',
    m.incrementalImport!,
    m.pullParseNative!,
    '≤ 3× native pull + parse',
    m.incrementalImport! <= 3 * m.pullParseNative!,
    fmt,
    'git pull + remark ',
  );
  measured('one-page export', m.exportFolio!, m.pushNative!, '≤ 2× native pull+edit+commit+push', m.exportFolio! <= 2 * m.pushNative!, fmt, 'git ');
}

function publishGoals(): void {
  const p = bench('publish', ['--repo', repo]);
  if ('error' in p) {
    notMeasured('cold publish per page', '≤ 0.5× mkdocs build per page', p.error);
    notMeasured('one-page re-publish', '≤ 300 ms', p.error);
    return;
  }
  const pages = p.json.pages as number;
  const cold = p.json.medianMs.coldPublish as number;
  // mkdocs as the publish benchmark ran it, alternating with Folio in the same run; else a run of its own here.
  const mk = typeof p.json.medianMs.mkdocsBuild === 'number' ? (p.json.medianMs.mkdocsBuild as number) : mkdocsBuild();
  if (typeof mk === 'number')
    measured(`cold publish per page (${pages} pages)`, cold / pages, mk / pages, '≤ 0.5× mkdocs build', cold <= 0.5 * mk, fmt, 'mkdocs ');
  else notMeasured('cold publish per page', '≤ 0.5× mkdocs build per page', mk);
  const one = p.json.medianMs.publishAfterOnePageChanged as number;
  measured('one-page re-publish (activity core)', one, typeof mk === 'number' ? mk : null, '≤ 300 ms', one <= 300, fmt, 'mkdocs full ');
}

/** Peak resident memory of `mkdocs build` of a repository's markdown (a copy), in MB: python's RUSAGE_CHILDREN. */
function mkdocsPeakMb(name: string): number | string {
  const work = mkdtempSync(path.join(tmpdir(), 'folio-goals-mkdocs-'));
  try {
    cpSync(path.join(corpusDir(), name, projectDirectoryOf(name)), path.join(work, 'docs'), { recursive: true });
    writeFileSync(path.join(work, 'mkdocs.yml'), `site_name: bench\ndocs_dir: docs\nsite_dir: site\n`);
    const script = 'import resource,subprocess,sys;r=subprocess.run(sys.argv[1:]);print(r.returncode, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)';
    const r = spawnSync('python3', ['-c', script, 'mkdocs', 'build', '-q', '--clean'], { cwd: work, encoding: 'utf8', timeout: limitS * 1000 });
    const [code, kb] = (r.stdout ?? '').trim().split(/\s+/).map(Number);
    return code === 0 ? kb! / 1024 : `mkdocs build failed: ${(r.stderr ?? '').trim().split('\n').slice(-1)[0]}`;
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

/** The process tree publishing the largest corpus repository (~1,000 pages; one run), beside mkdocs's peak on the same markdown. */
function treeGoal(): void {
  const treeRepo = arg('tree-repo', 'pgsql-tw+gitbook-docs');
  const p = bench('publish', ['--repo', treeRepo, '--no-mkdocs'], { BENCH_RUNS: '1' });
  if ('error' in p) return notMeasured('process tree publishing 1,000 pages', '≤ 600 MB', p.error);
  // The publish benchmark's tree: the publishing process (the activity's core, its parse threads) and `folio db-server`.
  const tree = p.json.peakRssMb?.coldPublish?.tree as number | undefined;
  if (typeof tree !== 'number') return notMeasured('process tree publishing 1,000 pages', '≤ 600 MB', 'the publish benchmark printed no process-tree peak');
  const mk = mkdocsPeakMb(treeRepo);
  const mb = (x: number) => `${Math.round(x)} MB`;
  measured(
    `process tree publishing ${p.json.pages} pages (publisher + db-server)`,
    tree,
    typeof mk === 'number' ? mk : null,
    '≤ 600 MB',
    tree <= 600,
    mb,
    'mkdocs ',
  );
}

function searchGoals(): void {
  const s = bench('search', ['--pages', arg('search-pages', '1000,10000'), '--runs', '10']);
  if ('error' in s) return notMeasured('search p95', '≤ 15 ms at 1,000, ≤ 30 ms at 10,000', s.error);
  for (const r of s.json.results as Printed[]) {
    const limit = r.pages <= 1000 ? 15 : 30;
    for (const routeName of ['spaceRoute', 'orgRoute'] as const) {
      const route = r[routeName];
      const index = Object.values(route.perQuery as Record<string, { usesIndex: boolean }>).every((q) => q.usesIndex);
      measured(
        `search p95, ${r.pages} pages, ${routeName === 'spaceRoute' ? 'space' : 'organization'} route (index: ${index ? 'yes' : 'no'})`,
        route.fts.p95Ms,
        route.inProcessScan.p95Ms,
        `≤ ${limit} ms`,
        route.fts.p95Ms <= limit,
        fmt,
        'scan ',
      );
    }
  }
}

function translationGoals(): void {
  const t = bench('translation', ['--repo', repo]);
  if ('error' in t) return notMeasured('translation, full run', '≤ 1.1× apertium alone', t.error);
  measured(
    'translation en→es, full run',
    t.json.folio.cold.ms,
    t.json.baseline.ms,
    '≤ 1.1× apertium alone',
    t.json.folio.cold.ms <= 1.1 * t.json.baseline.ms,
    fmt,
    'apertium ',
  );
  const noop = bench('translation-noop', ['--repo', repo]);
  if ('error' in noop) return notMeasured('translation run that sends nothing', '≤ 300 ms', noop.error);
  measured('translation run that sends nothing', noop.json.medianMs.noop, null, '≤ 300 ms', noop.json.medianMs.noop <= 300);
}

/** Parse per page (CPU ms, median over the repository's pages), phase by phase, beside bare remark-parse of the same pages. */
function parseGoal(): void {
  const p = bench('format-markdown', ['--repos', repo]);
  if ('error' in p) return notMeasured('parse per page', '≤ 8 ms median per page', p.error);
  const m = p.json.perPage.medians;
  measured('parse per page (CPU, median)', m.total, m.bare, '≤ 8 ms median per page', m.total <= 8, fmt, 'remark-parse ');
}

/** Website import of the corpus repository's site (mkdocs build, served on loopback) beside `wget --mirror --wait`, same pacing. */
function websiteGoal(): void {
  const waitMs = arg('web-wait-ms', '100');
  const w = bench('website-import', ['--corpus', repo, '--wait', waitMs, '--runs', runs]);
  if ('error' in w) return notMeasured('website import', '≤ 1.2× wget --mirror --wait', w.error);
  const folio = w.json.folio.medianMs as number;
  const wget = w.json.wgetMirror.medianMs as number;
  measured(
    `website import, ${w.json.importedPages} pages, ${waitMs} ms pacing (Crawl-delay honoured: ${w.json.crawlDelayHonoured ? 'yes' : 'NO'})`,
    folio,
    wget,
    '≤ 1.2× wget --mirror --wait',
    folio <= 1.2 * wget && w.json.crawlDelayHonoured === true,
    fmt,
    'wget ',
  );
}

/** The embedded database process's RSS over `--db-minutes` of repeated imports and publishes: last window's median against the first's. */
function dbGoal(): void {
  const minutes = arg('db-minutes', '30');
  const d = bench('db-growth', ['--repo', repo, '--minutes', minutes], {}, Number(minutes) * 60 + limitS);
  if ('error' in d) return notMeasured(`embedded database over ${minutes} minutes`, 'flat ± 10%', d.error);
  const { firstWindowMedian, lastWindowMedian, peak } = d.json.rssMb as Record<string, number>;
  measured(
    `embedded database RSS over ${minutes} min, ${d.json.cycles} cycles (last ${+(d.json.windowS / 60).toFixed(1)}-min median; peak ${peak} MB; data dir ${d.json.dataDirMb.firstWindowMedian}→${d.json.dataDirMb.end} MB)`,
    lastWindowMedian!,
    firstWindowMedian!,
    '≤ ±10% of the first window',
    d.json.flat === true,
    (mb) => `${Math.round(mb)} MB`,
    'first window ',
  );
}

const load = loadavg()[0]!;
gitGoals();
publishGoals();
treeGoal();
searchGoals();
translationGoals();
websiteGoal();
parseGoal();
dbGoal();

const widths = (Object.keys(rows[0]!) as Array<keyof Row>).map((k) => Math.max(k.length, ...rows.map((r) => r[k].length)));
const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
const text = [line(Object.keys(rows[0]!)), line(widths.map((w) => '-'.repeat(w))), ...rows.map((r) => line(Object.values(r)))].join('\n');
process.stderr.write(`${text}\n(repository ${repo}, medians of ${runs} runs, load average ${load.toFixed(1)} at start)\n`);
console.log(JSON.stringify({ benchmark: 'goals', repo, runs: Number(runs), loadAverageAtStart: load, rows }));
