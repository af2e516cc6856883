/**
 * Translation throughput with Apertium (eng → spa) on a corpus repository: Folio's path (segments of every page,
 * translation-memory lookups in a store, the engine for what is missing, memory writes, reassembly of every page),
 * cold (empty memory) and warm (a second run: nothing sent), beside calling Apertium directly on the same text
 * (the plain text of the same segments, one `apertium -u eng-spa` over a file) in the same run. Segments/s and
 * words/s, medians of BENCH_RUNS runs (default 3); `ratio` is Folio cold / direct Apertium.
 *   npm run build && node dist/bench/translation.js [--repo GitbookIO+git-sync-normalization]
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { importTree, readWorkingTree, type PageModel } from '../src/format/index.js';
import { corpusDir } from '../src/project-root.js';
import { memoryKeyString, openStore, type MemoryKey } from '../src/store/index.js';
import { ApertiumEngine } from '../src/translate/engines/index.js';
import { plainText } from '../src/translate/markup.js';
import { assemblePage, extractSegments, type Segment } from '../src/translate/segments.js';
import { arg, median } from './_helpers.js';

const repo = arg('repo', 'GitbookIO+git-sync-normalization');
const runs = Number(process.env.BENCH_RUNS ?? 3);

function documents(pages: PageModel[]): string[] {
  const out: string[] = [];
  const walk = (list: PageModel[]) => {
    for (const p of list) {
      if (p.kind === 'document' && p.markdown !== null) out.push(p.markdown);
      walk(p.children);
    }
  };
  walk(pages);
  return out;
}

const imported = await importTree(await readWorkingTree(path.join(corpusDir(), repo)));
const pages = documents(imported.revision.pages);
const engine = new ApertiumEngine();
const request = { source: 'en', target: 'es', glossary: [] };
const pair = 'en:es';
const keyOf = (s: Segment): MemoryKey => ({ segmentHash: s.hash, languagePair: pair, glossaryVersion: s.glossaryVersion });

/** One run of Folio's path over every page; returns the time and what went to the engine. */
async function folioRun(store: Awaited<ReturnType<typeof openStore>>, org: string): Promise<{ ms: number; sent: number; segments: number; words: number }> {
  const t = process.hrtime.bigint();
  const perPage = pages.map((md) => extractSegments(md, []).segments);
  const all = perPage.flat().filter((s) => s.translatable);
  const known = await store.translations.memory.lookup(org, all.map(keyOf));
  const missing = new Map<string, Segment>();
  for (const s of all) if (!known.has(memoryKeyString(keyOf(s)))) missing.set(memoryKeyString(keyOf(s)), s);
  const todo = [...missing.values()];
  let words = 0;
  for (let i = 0; i < todo.length; i += 500) {
    const chunk = todo.slice(i, i + 500);
    const out = await engine.translate(
      chunk.map((s) => s.markup),
      request,
    );
    await store.translations.memory.put(
      org,
      chunk.map((s, j) => ({ ...keyOf(s), target: out[j]!, engine: 'apertium' })),
    );
    for (const [j, s] of chunk.entries()) {
      known.set(memoryKeyString(keyOf(s)), out[j]!);
      words += s.words;
    }
  }
  pages.forEach((md, i) =>
    assemblePage(
      md,
      [],
      perPage[i]!.map((s) => (s.translatable ? (known.get(memoryKeyString(keyOf(s))) ?? null) : null)),
    ),
  );
  return { ms: Number(process.hrtime.bigint() - t) / 1e6, sent: todo.length, segments: all.length, words };
}

/** Apertium alone on the plain text of the same distinct segments, one per line, in one call. */
function directRun(texts: string[]): number {
  const dir = mkdtempSync(path.join(tmpdir(), 'folio-bench-apertium-'));
  try {
    const file = path.join(dir, 'input.txt');
    writeFileSync(file, texts.join('\n\n') + '\n');
    const t = process.hrtime.bigint();
    const r = spawnSync('apertium', ['-u', 'eng-spa', file], { encoding: 'utf8', maxBuffer: 256 * 1024 * 1024 });
    const ms = Number(process.hrtime.bigint() - t) / 1e6;
    if (r.status !== 0) throw new Error(`apertium failed: ${r.stderr}`);
    return ms;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const store = await openStore({ dataDir: 'memory://' });
const cold: number[] = [];
const warm: number[] = [];
const direct: number[] = [];
let figures = { sent: 0, segments: 0, words: 0, warmSent: 0 };
for (let r = 0; r < runs; r++) {
  const org = `bench-${r}`;
  await store.orgs.ensure({ id: org, title: org });
  const c = await folioRun(store, org);
  const w = await folioRun(store, org);
  cold.push(c.ms);
  warm.push(w.ms);
  figures = { sent: c.sent, segments: c.segments, words: c.words, warmSent: w.sent };
  const distinct = new Map<string, string>();
  for (const md of pages) for (const s of extractSegments(md, []).segments) if (s.translatable) distinct.set(s.hash, plainText(s.markup));
  direct.push(directRun([...distinct.values()]));
}
await store.close();

const rate = (ms: number) => ({
  ms: Math.round(ms),
  segmentsPerS: Number((figures.sent / (ms / 1000)).toFixed(1)),
  wordsPerS: Math.round(figures.words / (ms / 1000)),
});
const c = median(cold);
const w = median(warm);
const d = median(direct);
console.log(
  JSON.stringify({
    bench: 'translation',
    repo,
    runs,
    pages: pages.length,
    segments: figures.segments,
    distinctSegmentsSent: figures.sent,
    words: figures.words,
    folio: { cold: rate(c), warm: { ms: Math.round(w), segmentsSent: figures.warmSent } },
    baseline: { name: 'apertium -u eng-spa on the plain text of the same segments (one call)', ...rate(d) },
    ratio: Number((c / d).toFixed(2)),
  }),
);
