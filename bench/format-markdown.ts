/**
 * Parse/serialize throughput of Folio's page-file model over every `.md` file of the corpus,
 * beside bare remark-parse + remark-stringify on the same files in the same run.
 * Prints one JSON object (median of BENCH_RUNS runs, default 5).
 *   npm run build && node dist/bench/format-markdown.js
 * Corpus: $FOLIO_CORPUS, else shared/corpus beside the checkout.
 */
import fs from 'node:fs';
import path from 'node:path';
import { unified } from 'unified';
import remarkParse from 'remark-parse';
import remarkStringify from 'remark-stringify';
import type { Root } from 'mdast';
import { parsePageFile, serializePageFile, type PageFile } from '../src/format/index.js';
import { corpusDir } from '../src/project-root.js';
import { median } from './_helpers.js';

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
const files = fs
  .readdirSync(corpus, { withFileTypes: true })
  .filter((e) => e.isDirectory())
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
    byteIdenticalAllPages: Number(((100 * identical) / files.length).toFixed(1)),
  }),
);
