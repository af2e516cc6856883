/**
 * Publish time of the largest corpus space (pgsql-tw/gitbook-docs, ~1,068 pages; `--repo <name>` for another):
 * a cold publish (no earlier publication) and a re-publish after one page's body changed, beside rendering the
 * same markdown with bare remark-parse + remark-rehype + rehype-stringify in one thread and `mkdocs build` of the
 * same project directory (a copy; left out when mkdocs is not installed or `--no-mkdocs`), alternating in each run.
 * Publishing here is the activity's core (`publishSite`) on an in-memory store with the parse pool: the
 * Temporal round trip is left out. Prints one JSON object (medians of BENCH_RUNS runs, default 3), with the peak
 * resident memory of this process (its threads and the embedded database included) after the import and at the end.
 * On a loaded machine wall times follow the load; the CPU time each side used (this process's threads, mkdocs's
 * process) is printed too (`cpuMs`), as the figure least moved by the other processes, and the first run's cold
 * publish on its own (`firstRun`: threads that have highlighted nothing yet; later runs reuse highlighted blocks).
 *   npx tsx bench/publish.ts [--repo <name>]
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import rehypeStringify from 'rehype-stringify';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified } from 'unified';
import { documents, importTree, memoryEntry, readWorkingTree, type RevisionModel, type SourceTree } from '../src/format/index.js';
import { modelToRevisionInput } from '../src/revision/records.js';
import { createLogger } from '../src/log.js';
import { ParsePool } from '../src/parse-threads/pool.js';
import { corpusDir } from '../src/project-root.js';
import { publishSite } from '../src/publish/build.js';
import { openStore, type Store } from '../src/store/index.js';
import { arg, median, projectDirectoryOf } from './_helpers.js';

const repo = arg('repo', 'pgsql-tw+gitbook-docs');
const runs = Number(process.env.BENCH_RUNS ?? 3);
const dir = join(corpusDir(), repo);
if (!existsSync(dir)) throw new Error(`corpus repository not found: ${dir}`);

async function importInto(store: Store, spaceId: string, tree: SourceTree, projectDirectory: string, previous?: { revision: RevisionModel; tree: SourceTree }) {
  const imported = await importTree(tree, { projectDirectory, ...(previous ? { previous } : {}) });
  const fileBytes = new Map<string, Uint8Array>();
  for (const f of imported.revision.files) {
    const entry = f.git ? tree.get(f.git.path) : undefined;
    if (entry) fileBytes.set(f.id, await entry.read());
  }
  const { id } = await store.revisions.create(modelToRevisionInput(imported.revision, { spaceId, parents: [], type: 'git-import', fileBytes }));
  await store.spaces.setPrimaryRevision(spaceId, id);
  return imported.revision;
}

/** A copy of the project directory with a bare mkdocs.yml; null when mkdocs is not installed or not wanted. */
function mkdocsWork(projectDirectory: string): string | null {
  if (process.argv.includes('--no-mkdocs') || spawnSync('mkdocs', ['--version']).status !== 0) return null;
  const work = mkdtempSync(join(tmpdir(), 'folio-bench-mkdocs-'));
  cpSync(join(dir, projectDirectory), join(work, 'docs'), { recursive: true });
  writeFileSync(join(work, 'mkdocs.yml'), `site_name: bench\ndocs_dir: docs\nsite_dir: site\n`);
  return work;
}

/** CPU time (user + system, ms) of this process's ended children (Linux `/proc/self/stat`, 100 ticks a second); 0 elsewhere. */
function childrenCpuMs(): number {
  if (!existsSync('/proc/self/stat')) return 0;
  const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[13]) + Number(fields[14])) * 10;
}

/** One `mkdocs build` of the copy: wall and CPU time, in ms. */
function mkdocsBuild(work: string): { wall: number; cpu: number } {
  const t = performance.now();
  const cpu = childrenCpuMs();
  const r = spawnSync('mkdocs', ['build', '-q', '--clean'], { cwd: work, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`mkdocs build failed: ${(r.stderr ?? '').trim().split('\n').slice(-1)[0]}`);
  return { wall: performance.now() - t, cpu: childrenCpuMs() - cpu };
}

const cpuMs = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1000;
};

const ms = (t: bigint) => Number(process.hrtime.bigint() - t) / 1e6;

const logger = createLogger('bench', { level: 'error', pretty: false });
const store = await openStore({ logger });
const pool = new ParsePool({ timeBudgetMs: 60_000 });
await store.orgs.ensure({ id: 'bench', title: 'Bench' });
const projectDirectory = projectDirectoryOf(repo);
const tree = await readWorkingTree(dir);
const space = await store.spaces.create('bench', { title: repo });
const revision = await importInto(store, space.id, tree, projectDirectory);
const pages = [...documents(revision.pages)].filter((p) => p.markdown !== null);
const markdowns = pages.map((p) => p.markdown!);
const rssAfterImportMb = Math.round(process.resourceUsage().maxRSS / 1024);
const changedPage = pages.find((p) => p.git?.path && p.path !== '')!;
const changedPath = changedPage.git!.path;
const changedText = new TextDecoder().decode(await tree.get(changedPath)!.read());

const bare = unified().use(remarkParse).use(remarkRehype).use(rehypeStringify);
const mkdocs = mkdocsWork(projectDirectory);
const mkdocsRuns: number[] = [];
const mkdocsCpu: number[] = [];
const coldCpu: number[] = [];
const baseline: number[] = [];
const cold: number[] = [];
const oneChanged: number[] = [];
const oneChangedCpu: number[] = [];
/** Peak resident memory of this process (sampled every 100 ms) during each cold publish, MB. */
const coldRss: number[] = [];
let frameBytes = 0;
let counts = { cold: { rendered: 0, reused: 0, files: 0 }, oneChanged: { rendered: 0, reused: 0 } };
for (let run = 0; run < runs; run++) {
  let t = process.hrtime.bigint();
  for (const md of markdowns) bare.processSync(md);
  baseline.push(ms(t));
  if (mkdocs !== null) {
    const m = mkdocsBuild(mkdocs);
    mkdocsRuns.push(m.wall);
    mkdocsCpu.push(m.cpu);
  }

  // A fresh site each run: nothing to reuse. The content is reset to the corpus (page ids kept, as a git import keeps them).
  await importInto(store, space.id, tree, projectDirectory, { revision, tree });
  const site = await store.sites.create('bench', { title: `Bench ${run}`, spaces: [space.id] });
  let rssPeak = 0;
  const sampler = setInterval(() => (rssPeak = Math.max(rssPeak, process.memoryUsage.rss())), 100);
  const cpuBefore = cpuMs();
  t = process.hrtime.bigint();
  const first = (await publishSite(
    { store, render: (input) => pool.run('publish.render', input), logger, concurrency: pool.threads * 2 },
    { organizationId: 'bench', siteId: site.id, requestKey: `cold-${run}` },
  ))!;
  cold.push(ms(t));
  coldCpu.push(cpuMs() - cpuBefore);
  clearInterval(sampler);
  coldRss.push(rssPeak / 2 ** 20);

  const edited: SourceTree = new Map(tree);
  edited.set(changedPath, memoryEntry(new TextEncoder().encode(`${changedText}\nEdited in run ${run}.\n`)));
  await importInto(store, space.id, edited, projectDirectory, { revision, tree });
  const cpuBeforeSecond = cpuMs();
  t = process.hrtime.bigint();
  const second = (await publishSite(
    { store, render: (input) => pool.run('publish.render', input), logger, concurrency: pool.threads * 2 },
    { organizationId: 'bench', siteId: site.id, requestKey: `edit-${run}` },
  ))!;
  oneChanged.push(ms(t));
  oneChangedCpu.push(cpuMs() - cpuBeforeSecond);
  if (run === 0) {
    // The frame of a page (everything but its article): what every page carries, navigation included.
    const live = (await store.sites.get('bench', site.id))!.livePublicationId!;
    const html = (await store.sites.publicationFiles(live)).filter((f) => f.path.endsWith('.html') && f.path !== '404.html').slice(0, 50);
    const bytes = await store.blobs.getMany(html.map((f) => f.hash));
    for (const f of html) {
      const text = new TextDecoder().decode(bytes.get(f.hash)!);
      const article = /<article>[\s\S]*<\/article>/.exec(text)?.[0] ?? '';
      frameBytes = Math.max(frameBytes, Buffer.byteLength(text) - Buffer.byteLength(article));
    }
  }
  counts = { cold: { rendered: first.rendered, reused: first.reused, files: first.files }, oneChanged: { rendered: second.rendered, reused: second.reused } };
}
await pool.close();
await store.close();
if (mkdocs !== null) rmSync(mkdocs, { recursive: true, force: true });
const perPage = (xs: number[]) => Number((median(xs) / markdowns.length).toFixed(2));

const result = {
  benchmark: 'publish',
  repo,
  pages: markdowns.length,
  runs,
  threads: pool.threads,
  medianMs: {
    bareRemarkRehype: Math.round(median(baseline)),
    coldPublish: Math.round(median(cold)),
    publishAfterOnePageChanged: Math.round(median(oneChanged)),
    ...(mkdocsRuns.length > 0 ? { mkdocsBuild: Math.round(median(mkdocsRuns)) } : {}),
  },
  cpuMs: {
    coldPublish: Math.round(median(coldCpu)),
    publishAfterOnePageChanged: Math.round(median(oneChangedCpu)),
    ...(mkdocsCpu.length > 0 ? { mkdocsBuild: Math.round(median(mkdocsCpu)) } : {}),
  },
  // The first run's cold publish: its render threads have highlighted nothing yet (the later runs' threads keep the
  // blocks they highlighted, as a running worker does between publishes).
  firstRun: {
    coldPublishMs: Math.round(cold[0]!),
    coldPublishCpuMs: Math.round(coldCpu[0]!),
    ...(mkdocsCpu.length > 0 ? { mkdocsBuildCpuMs: Math.round(mkdocsCpu[0]!), coldVsMkdocsCpu: Number((coldCpu[0]! / mkdocsCpu[0]!).toFixed(2)) } : {}),
  },
  loadAverage: os.loadavg().map((l) => Number(l.toFixed(1))),
  perPageMs: { coldPublish: perPage(cold), ...(mkdocsRuns.length > 0 ? { mkdocsBuild: perPage(mkdocsRuns) } : {}) },
  ratio: {
    coldPublishVsBare: Number((median(cold) / median(baseline)).toFixed(2)),
    onePageChangedVsBare: Number((median(oneChanged) / median(baseline)).toFixed(2)),
    onePageChangedVsCold: Number((median(oneChanged) / median(cold)).toFixed(3)),
    ...(mkdocsRuns.length > 0 ? { coldPublishVsMkdocs: Number((median(cold) / median(mkdocsRuns)).toFixed(2)) } : {}),
    ...(mkdocsCpu.length > 0 ? { coldPublishVsMkdocsCpu: Number((median(coldCpu) / median(mkdocsCpu)).toFixed(2)) } : {}),
  },
  counts,
  largestPageFrameBytes: frameBytes,
  peakRssMb: { duringColdPublish: Math.round(Math.max(...coldRss)), afterImport: rssAfterImportMb, end: Math.round(process.resourceUsage().maxRSS / 1024) },
};
process.stdout.write(`${JSON.stringify(result)}\n`);
