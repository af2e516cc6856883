/**
 * Parse/serialize throughput of Folio's page-file model over every `.md` file of the corpus,
 * beside bare remark-parse + remark-stringify on the same files in the same run.
 * Then the parse per page and per phase (`perPage`): for each page, the CPU time of bare remark-parse and of each
 * phase of a page decode as a parse thread runs it (micromark, Liquid pairing, style detection, style records,
 * assembly, the summary the importer keeps, and its structured clone: what moves out of the thread), the median
 * over the runs; then the median over the pages of each, the total's ratio to bare remark-parse and the goal
 * (issue 31: ≤ 8 ms per page median). CPU time (process.cpuUsage), not wall time: the figures hold on a loaded machine.
 * Prints one JSON object (median of BENCH_RUNS runs, default 5).
 *   npm run build && node dist/bench/format-markdown.js [--repos a,b] (default: every corpus repository)
 * Corpus: $FOLIO_CORPUS, else shared/corpus beside the checkout.
 */
import fs from 'node:fs';
import path from 'node:path';
import { unified } from 'unified';
import remarkParse from 'remark-parse';
import remarkStringify from 'remark-stringify';
import type { Root } from 'mdast';
import { decodePage, parsePageFile, serializePageFile, type PageFile, type ParsePhase } from '../src/format/index.js';
import { corpusDir } from '../src/project-root.js';
import { arg, median } from './_helpers.js';

function listMd(dir: string): string[] {
  const out: string[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...listMd(p));
    else if (e.name.endsWith('.md')) out.push(p);
  }
  return out;
}

function time(fn: () => void): number {
  const t = process.hrtime.bigint();
  fn();
  return Number(process.hrtime.bigint() - t) / 1e6;
}

const corpus = corpusDir();
const runs = Number(process.env.BENCH_RUNS ?? 5);
const only = arg('repos', '').split(',').filter(Boolean);
const files = fs
  .readdirSync(corpus, { withFileTypes: true })
  .filter((e) => e.isDirectory() && (only.length === 0 || only.includes(e.name)))
  .flatMap((e) => listMd(path.join(corpus, e.name)));
const texts = files.map((f) => fs.readFileSync(f, 'utf8'));
const bytes = texts.reduce((n, t) => n + Buffer.byteLength(t), 0);

const bareParser = unified().use(remarkParse);
const bareStringifier = unified().use(remarkStringify);

const folioParse: number[] = [];
const folioSerialize: number[] = [];
const bareParse: number[] = [];
const bareSerialize: number[] = [];
let identical = 0;
for (let r = 0; r < runs; r++) {
  let pages: PageFile[] = [];
  folioParse.push(time(() => (pages = texts.map((t) => parsePageFile(t)))));
  let outs: string[] = [];
  folioSerialize.push(time(() => (outs = pages.map((p) => serializePageFile(p)))));
  if (r === 0) identical = outs.filter((o, i) => o === texts[i]).length;
  let trees: Root[] = [];
  bareParse.push(time(() => (trees = texts.map((t) => bareParser.parse(t) as Root))));
  bareSerialize.push(time(() => trees.forEach((t) => bareStringifier.stringify(t))));
}

type Phase = ParsePhase | 'summary' | 'transfer' | 'total' | 'bare';
const PHASES: Phase[] = ['prepare', 'micromark', 'liquid', 'styleDetect', 'styleRecord', 'assemble', 'summary', 'transfer', 'total', 'bare'];
const cpuMs = (): number => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

/** One decode of `text` as a parse thread runs it, and bare remark-parse of it: CPU ms by phase. */
function phasesOf(text: string): Record<Phase, number> {
  const out = Object.fromEntries(PHASES.map((p) => [p, 0])) as Record<Phase, number>;
  let last = cpuMs();
  const start = last;
  const d = decodePage(text, undefined, (phase) => {
    const now = cpuMs();
    out[phase] = now - last;
    last = now;
  });
  structuredClone({ fields: d.fields, urls: d.urls, warnings: d.warnings });
  const end = cpuMs();
  out.transfer = end - last;
  out.total = end - start;
  bareParser.parse(text);
  out.bare = cpuMs() - end;
  return out;
}

const perPhase = texts.map(() => Object.fromEntries(PHASES.map((p) => [p, [] as number[]])) as Record<Phase, number[]>);
for (let r = 0; r < runs; r++) texts.forEach((t, i) => Object.entries(phasesOf(t)).forEach(([p, ms]) => perPhase[i]![p as Phase].push(ms)));
const pageMedians = Object.fromEntries(PHASES.map((p) => [p, Number(median(perPhase.map((pg) => median(pg[p]))).toFixed(3))])) as Record<Phase, number>;

const rate = (ms: number) => ({
  ms: Math.round(ms),
  mbPerS: Number((bytes / 1e6 / (ms / 1000)).toFixed(2)),
  pagesPerS: Math.round(files.length / (ms / 1000)),
});
const fp = median(folioParse);
const fs_ = median(folioSerialize);
const bp = median(bareParse);
const bs = median(bareSerialize);
console.log(
  JSON.stringify({
    bench: 'format-markdown',
    runs,
    pages: files.length,
    megabytes: Number((bytes / 1e6).toFixed(2)),
    folio: { parse: rate(fp), serialize: rate(fs_) },
    baseline: { name: 'remark-parse + remark-stringify (no plugins)', parse: rate(bp), serialize: rate(bs) },
    ratio: { parse: Number((fp / bp).toFixed(2)), serialize: Number((fs_ / bs).toFixed(2)) },
    perPage: {
      unit: "CPU ms, median over the pages of each page's median over the runs",
      medians: pageMedians,
      ratioToBareRemarkParse: Number((pageMedians.total / pageMedians.bare).toFixed(2)),
      goal: '≤ 8 ms per page median',
      holds: pageMedians.total <= 8,
    },
    byteIdenticalAllPages: Number(((100 * identical) / files.length).toFixed(1)),
  }),
);
