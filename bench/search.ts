/**
 * Benchmark of full-text search (src/search/, src/store/search.ts) at 5,000 pages.
 *
 *   npm run build && node dist/bench/search.js [--pages 5000] [--runs 20] [--database-url postgres://…]
 *
 * Generates pages of markdown (a title, 4 heading sections of prose from a fixed vocabulary, seeded), extracts
 * their sections with the parser the indexing activity uses (in this thread) and indexes them on the embedded
 * PGlite (or the server given); then runs a set of queries (frequent and rare words, two-word queries, a phrase,
 * a prefix-free miss) `runs` times each through the ranked search (first page of 10, sections and snippets) and,
 * in the same run, through a plain `ILIKE` scan of the same indexed text (the baseline: unranked, no snippets).
 * Prints one JSON object: indexing time per page, query latency p50/p95 of both and the ratio of medians.
 */
import { performance } from 'node:perf_hooks';
import { searchPages } from '../src/search/query.js';
import { searchSections } from '../src/search/sections.js';
import { storedPage } from '../src/search/stored-page.js';
import { openStore, type SearchPageInput } from '../src/store/index.js';
import { median, arg } from './_helpers.js';

const round = (x: number, d = 2) => Math.round(x * 10 ** d) / 10 ** d;
const WORDS = (
  'server client deploy install configure token database index query cache branch commit merge revision page space ' +
  'organization publish render markdown heading section table hint tabs import export network proxy certificate ' +
  'timeout retry backoff worker thread memory budget schema migration backup restore replica cluster storage bucket ' +
  'running monitoring alerting logging tracing metric dashboard webhook integration plugin theme layout navigation'
).split(' ');

function rng(seed: number) {
  let s = seed >>> 0;
  return () => (s = (s * 1664525 + 1013904223) >>> 0) / 2 ** 32;
}

function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}

function markdown(i: number, random: () => number): string {
  const word = () => WORDS[Math.floor(random() ** 2 * WORDS.length)]!;
  const sentence = () => Array.from({ length: 8 + Math.floor(random() * 10) }, word).join(' ') + '.';
  const lines = [`# Page ${i}`, '', Array.from({ length: 3 }, sentence).join(' '), ''];
  for (let h = 0; h < 4; h++) lines.push(`## ${word()} ${word()} ${h}`, '', Array.from({ length: 6 }, sentence).join(' '), '');
  if (i % 500 === 7) lines.push('The zeppelin hangar is rare.', '');
  return lines.join('\n');
}

type Store = Awaited<ReturnType<typeof openStore>>;
const QUERIES = ['server', 'zeppelin', 'deploy certificate', 'run', '"backup restore"', 'migration replica cluster', 'nothingmatchesthis'];

/** Each query `runs` times through the ranked search and through the `ILIKE` baseline: every latency, and medians per query. */
async function timeQueries(store: Store, org: string, runs: number) {
  const fts: number[] = [];
  const scan: number[] = [];
  const perQuery: Record<string, { ftsMs: number; scanMs: number; found: number; scanned: number }> = {};
  for (const query of QUERIES) {
    const f: number[] = [];
    const b: number[] = [];
    let found = 0;
    let scanned = 0;
    for (let r = 0; r < runs; r++) {
      let t = performance.now();
      const res = await searchPages(store, { organizationId: org, query, limit: 10 });
      f.push(performance.now() - t);
      found = res.items.length;
      t = performance.now();
      scanned = (await store.search.scanPages({ organizationId: org, query: query.replace(/"/g, ''), limit: 10 })).length;
      b.push(performance.now() - t);
    }
    fts.push(...f);
    scan.push(...b);
    perQuery[query] = { ftsMs: round(median(f)), scanMs: round(median(b)), found, scanned };
  }
  return { fts, scan, perQuery };
}

async function main(): Promise<void> {
  const pages = Number(arg('pages', '5000'));
  const runs = Number(arg('runs', '20'));
  const databaseUrl = arg('database-url', '');
  const store = await openStore(databaseUrl ? { databaseUrl, poolSize: 4 } : { dataDir: 'memory://' });
  try {
    const org = (await store.orgs.create({ title: 'bench' })).id;
    const spaces = Math.max(1, Math.round(pages / 1000));
    const random = rng(42);
    let extractMs = 0;
    let writeMs = 0;
    const spaceIds: string[] = [];
    for (let s = 0; s < spaces; s++) {
      const space = await store.spaces.create(org, { title: `space ${s}`, language: 'en' });
      const { id: revisionId } = await store.revisions.create({ spaceId: space.id, parents: [], type: 'edits', pages: [], files: [] });
      await store.spaces.setPrimaryRevision(space.id, revisionId);
      spaceIds.push(space.id);
      const upsert: SearchPageInput[] = [];
      const count = Math.floor(pages / spaces) + (s < pages % spaces ? 1 : 0);
      const t0 = performance.now();
      for (let i = 0; i < count; i++) {
        const found = searchSections(markdown(s * 1000 + i, random));
        const sections = found.sections[0]?.anchor === '' ? found.sections : [{ anchor: '', title: '', body: '' }, ...found.sections];
        upsert.push(
          storedPage({ pageId: `p${i}`, contentKey: `k${i}`, ord: i, title: `Page ${s * 1000 + i}`, description: '', path: `p${i}`, ancestors: [], sections }),
        );
      }
      const t1 = performance.now();
      await store.search.apply({ spaceId: space.id, organizationId: org, revisionId, config: await store.search.configFor('english'), keep: [], upsert });
      extractMs += t1 - t0;
      writeMs += performance.now() - t1;
    }
    const { fts, scan, perQuery } = await timeQueries(store, org, runs);
    const total = extractMs + writeMs;
    console.log(
      JSON.stringify(
        {
          benchmark: 'search',
          backend: databaseUrl ? 'pg' : 'pglite',
          pages,
          spaces,
          runs,
          indexing: {
            totalMs: round(total, 0),
            perPageMs: round(total / pages, 3),
            extractPerPageMs: round(extractMs / pages, 3),
            writePerPageMs: round(writeMs / pages, 3),
          },
          query: {
            fts: { p50Ms: round(percentile(fts, 50)), p95Ms: round(percentile(fts, 95)), medianMs: round(median(fts)) },
            ilikeBaseline: { p50Ms: round(percentile(scan, 50)), p95Ms: round(percentile(scan, 95)), medianMs: round(median(scan)) },
            ratio: round(median(fts) / median(scan), 3),
          },
          perQuery,
        },
        null,
        2,
      ),
    );
  } finally {
    await store.close();
  }
}

await main();
