/**
 * `npm run bench -- goals`: every goal of issue 31 with Folio's figure and the peer's, measured in this run on real
 * corpus repositories (../shared/corpus, copied to a temporary directory before any git repository is made), medians.
 * It runs the benchmarks of bench/ that measure each part (each in its own process, with a time limit) and measures
 * the peers they do not run itself (`mkdocs build` of the same markdown); then it prints one table: measure, Folio,
 * peer, ratio, goal, holds. A measure that could not run prints "not measured" with the reason, never a number.
 *   npm run build && node dist/bench/goals.js [--repo BlockRazorinc+docs_en] [--limit-s 900] [--search-pages 1000,10000] [--runs 3]
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
}
function notMeasured(measure: string, goal: string, reason: string): void {
  rows.push({ measure, folio: 'not measured', peer: '—', ratio: '—', goal, holds: `not measured: ${reason}` });
}

/** What another benchmark printed (its own JSON shape, read field by field below). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Printed = any;

/** A benchmark of bench/ in its own process: its last JSON object, or the reason there is none. */
function bench(name: string, args: string[], env: Record<string, string> = {}): { json: Printed } | { error: string } {
  const r = spawnSync(process.execPath, [path.join(here, `${name}.js`), ...args], {
    encoding: 'utf8',
    timeout: limitS * 1000,
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, BENCH_RUNS: runs, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  if (r.error) return { error: `${name}: ${r.error.message.includes('ETIMEDOUT') ? `over the ${limitS} s limit` : r.error.message}` };
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
  const goals = ['cold git import ≤ 3× git clone', 'incremental import ≤ 3% of cold', 'one-page export ≤ 2× pull+edit+commit+push'];
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
  notMeasured('incremental import vs native', '≤ 3× git pull + parse', 'bench/git-sync.ts times no native pull of the same change');
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
  // The publish benchmark's tree: the publishing process (the activity's core, its parse threads) and `folio db-server`.
  const tree = p.json.peakRssMb?.coldPublish?.tree as number | undefined;
  if (typeof tree === 'number')
    measured(`process tree publishing ${pages} pages (publisher + db-server)`, tree, null, '≤ 600 MB', tree <= 600, (mb) => `${Math.round(mb)} MB`);
  else notMeasured('process tree publishing 1,000 pages', '≤ 600 MB', 'the publish benchmark printed no process-tree peak');
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

const load = loadavg()[0]!;
gitGoals();
publishGoals();
searchGoals();
translationGoals();
notMeasured(
  'website import',
  '≤ 1.2× wget --mirror --wait',
  'bench/website-import.ts crawls a generated site without pacing; not run against a corpus site here',
);
parseGoal();
notMeasured('embedded database over 30 minutes', 'flat ± 10%', 'a 30-minute run does not fit this command');

const widths = (Object.keys(rows[0]!) as Array<keyof Row>).map((k) => Math.max(k.length, ...rows.map((r) => r[k].length)));
const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
const text = [line(Object.keys(rows[0]!)), line(widths.map((w) => '-'.repeat(w))), ...rows.map((r) => line(Object.values(r)))].join('\n');
process.stderr.write(`${text}\n(repository ${repo}, medians of ${runs} runs, load average ${load.toFixed(1)} at start)\n`);
console.log(JSON.stringify({ benchmark: 'goals', repo, runs: Number(runs), loadAverageAtStart: load, rows }));
