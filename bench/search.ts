/**
 * Benchmark of full-text search (src/search/, src/store/search.ts) at 1,000 and 10,000 pages of real markdown.
 *
 *   npm run build && node dist/bench/search.js [--pages 1000,10000] [--runs 15] [--database-url postgres://…]
 *
 * Pages are the English corpus repositories' markdown files (../shared/corpus), reused round-robin until the count
 * is reached (each copy its own page; one page in 500 gets the rare word "zeppelin"), 1,000 pages per space. Their
 * sections are extracted with the parser the indexing activity uses (in this thread, once per file) and indexed on the embedded
 * PGlite (or the server given) through `store.search.apply`, which refreshes the statistics as indexing does.
 * Then each query (a frequent word, rarer words, two words, a phrase, the rare word, a miss) runs `runs` times on
 * the space route (one space) and the organization route (every space) through the ranked search (first page of
 * 10, sections and snippets), and, in the same run, through an in-process scan of the same sections' text held
 * in memory (the baseline: lower-cased substring search, pages holding every word, unranked, no snippets).
 * Prints one JSON object per size: p50/p95 and median of both, their ratio, and whether the plan uses the index.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { corpusDir } from '../src/project-root.js';
import { searchPages } from '../src/search/query.js';
import { searchSections } from '../src/search/sections.js';
import { storedPage } from '../src/search/stored-page.js';
import { openStore, type SearchPageInput } from '../src/store/index.js';
import { arg, markdownFiles, median } from './_helpers.js';

const round = (x: number, d = 2) => Math.round(x * 10 ** d) / 10 ** d;
const ENGLISH = ['GitbookIO+public-docs', 'FlowiseAI+FlowiseDocs', 'aimlapi+api-docs', 'NSO-developer+nso-gitbook', 'wandb+gitbook', 'BlockRazorinc+docs_en'];
const QUERIES = ['api', 'webhook', 'authentication token', '"rate limit"', 'kubernetes deployment', 'zeppelin', 'nothingmatchesthis'];
const PAGES_PER_SPACE = 1000;

type Store = Awaited<ReturnType<typeof openStore>>;
interface ScanPage {
  spaceId: string;
  pageId: string;
  text: string;
}

function percentile(xs: number[], p: number): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))]!;
}

async function corpusPages(): Promise<string[]> {
  const out: string[] = [];
  for (const repo of ENGLISH) for (const file of await markdownFiles(path.join(corpusDir(), repo))) out.push(await readFile(file, 'utf8'));
  return out;
}

/** The baseline: pages of the scope whose text holds every word of the query (phrase quotes dropped). */
function scan(pages: ScanPage[], spaceIds: Set<string> | null, query: string): number {
  const words = query.toLowerCase().replace(/"/g, '').split(/\s+/).filter(Boolean);
  let n = 0;
  for (const p of pages) if ((!spaceIds || spaceIds.has(p.spaceId)) && words.every((w) => p.text.includes(w))) n++;
  return n;
}

async function index(store: Store, org: string, count: number, sources: string[]): Promise<{ spaceIds: string[]; scanPages: ScanPage[]; ms: number }> {
  const spaceIds: string[] = [];
  const scanPages: ScanPage[] = [];
  // Each corpus file is extracted once (its copies share its sections): at 10,000 pages the parse would dwarf the rest.
  const extracted = new Map<number, ReturnType<typeof searchSections>>();
  const t0 = performance.now();
  for (let s = 0; s * PAGES_PER_SPACE < count; s++) {
    const space = await store.spaces.create(org, { title: `space ${s}`, language: 'en' });
    const { id: revisionId } = await store.revisions.create({ spaceId: space.id, parents: [], type: 'edits', pages: [], files: [] });
    await store.spaces.setPrimaryRevision(space.id, revisionId);
    spaceIds.push(space.id);
    const upsert: SearchPageInput[] = [];
    for (let i = 0; i < Math.min(PAGES_PER_SPACE, count - s * PAGES_PER_SPACE); i++) {
      const n = s * PAGES_PER_SPACE + i;
      const rare = n % 500 === 7;
      const key = rare ? -1 - n : n % sources.length;
      const found = extracted.get(key) ?? searchSections(sources[n % sources.length]! + (rare ? '\n\nThe zeppelin hangar is rare.\n' : ''));
      extracted.set(key, found);
      const sections = found.sections[0]?.anchor === '' ? found.sections : [{ anchor: '', title: '', body: '' }, ...found.sections];
      upsert.push(storedPage({ pageId: `p${i}`, contentKey: `k${i}`, ord: i, title: `Page ${n}`, description: '', path: `p${i}`, ancestors: [], sections }));
      scanPages.push({
        spaceId: space.id,
        pageId: `p${i}`,
        text: sections
          .map((x) => `${x.title}\n${x.body}`)
          .join('\n')
          .toLowerCase(),
      });
    }
    await store.search.apply({ spaceId: space.id, organizationId: org, revisionId, config: await store.search.configFor('english'), keep: [], upsert });
  }
  return { spaceIds, scanPages, ms: performance.now() - t0 };
}

async function route(store: Store, org: string, spaceIds: string[] | undefined, pages: ScanPage[], runs: number) {
  const fts: number[] = [];
  const base: number[] = [];
  const perQuery: Record<string, { ftsMs: number; scanMs: number; found: number; scanned: number; usesIndex: boolean }> = {};
  const scope = spaceIds ? new Set(spaceIds) : null;
  for (const query of QUERIES) {
    const f: number[] = [];
    const b: number[] = [];
    let found = 0;
    let scanned = 0;
    for (let r = 0; r < runs; r++) {
      let t = performance.now();
      found = (await searchPages(store, { organizationId: org, ...(spaceIds ? { spaceIds } : {}), query, limit: 10 })).total;
      f.push(performance.now() - t);
      t = performance.now();
      scanned = scan(pages, scope, query);
      b.push(performance.now() - t);
    }
    fts.push(...f);
    base.push(...b);
    const plan = (await store.search.explain({ organizationId: org, ...(spaceIds ? { spaceIds } : {}), query, limit: 10 })) ?? '';
    perQuery[query] = { ftsMs: round(median(f)), scanMs: round(median(b)), found, scanned, usesIndex: plan.includes('search_sections_document') };
  }
  return {
    fts: { p50Ms: round(percentile(fts, 50)), p95Ms: round(percentile(fts, 95)), medianMs: round(median(fts)) },
    inProcessScan: { p50Ms: round(percentile(base, 50)), p95Ms: round(percentile(base, 95)), medianMs: round(median(base)) },
    ratio: round(median(fts) / Math.max(median(base), 0.001), 1),
    perQuery,
  };
}

async function measure(count: number, runs: number, databaseUrl: string, sources: string[]) {
  const store = await openStore(databaseUrl ? { databaseUrl, poolSize: 4 } : { dataDir: 'memory://' });
  try {
    const org = (await store.orgs.create({ title: 'bench' })).id;
    const { spaceIds, scanPages, ms } = await index(store, org, count, sources);
    const spaceRoute = await route(store, org, [spaceIds[0]!], scanPages, runs);
    const orgRoute = await route(store, org, undefined, scanPages, runs);
    return { pages: count, spaces: spaceIds.length, indexingPerPageMs: round(ms / count, 3), spaceRoute, orgRoute };
  } finally {
    await store.close();
  }
}

async function main(): Promise<void> {
  const sizes = arg('pages', '1000,10000').split(',').map(Number);
  const runs = Number(arg('runs', '15'));
  const databaseUrl = arg('database-url', '');
  const sources = await corpusPages();
  const results = [];
  for (const size of sizes) results.push(await measure(size, runs, databaseUrl, sources));
  console.log(JSON.stringify({ benchmark: 'search', backend: databaseUrl ? 'pg' : 'pglite', runs, corpusFiles: sources.length, results }));
}

await main();
