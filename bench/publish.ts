/**
 * Publish time of the largest corpus space (pgsql-tw/gitbook-docs, ~1,068 pages; `--repo <name>` for another):
 * a cold publish (no earlier publication) and a re-publish after one page's body changed, beside rendering the
 * same markdown with bare remark-parse + remark-rehype + rehype-stringify in one thread and `mkdocs build` of the
 * same project directory (a copy; left out when mkdocs is not installed or `--no-mkdocs`), alternating in each run.
 * The process tree is the service's: the embedded database is a `folio db-server` child (PGlite in a temporary
 * data directory, with the flags `folio start` gives it) and the publish runs in a child of its own, as a worker
 * runs it: the activity's core (`publishSite`) with the parse pool configured as the worker configures it (the
 * Temporal round trip is left out). This process imports the corpus and drives the runs; it is not counted.
 * Prints one JSON object (medians of BENCH_RUNS runs, default 3): wall and CPU time (`cpuMs`: the publishing
 * process with its threads plus the database process; mkdocs's process), and the peak resident memory
 * (`peakRssMb`, sampled every 50 ms during each publish) of each process and of the tree (their sum at one instant).
 * `firstRun` is the first run's cold publish on its own (threads that have highlighted nothing yet).
 *   npm run build && node dist/bench/publish.js [--repo <name>] [--no-mkdocs]
 */
import { fork, spawnSync, type ChildProcess } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os, { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import rehypeStringify from 'rehype-stringify';
import remarkParse from 'remark-parse';
import remarkRehype from 'remark-rehype';
import { unified } from 'unified';
import { loadConfig } from '../src/config/config.js';
import { documents, importTree, memoryEntry, readWorkingTree, type RevisionModel, type SourceTree } from '../src/format/index.js';
import { modelToRevisionInput } from '../src/revision/records.js';
import { createLogger } from '../src/log.js';
import { parsePoolOptions } from '../src/parse-pool/from-config.js';
import { ParsePool } from '../src/parse-threads/pool.js';
import { corpusDir } from '../src/project-root.js';
import { publishSite, type PublishOutcome } from '../src/publish/build.js';
import { openStore, type Store } from '../src/store/index.js';
import { arg, median, projectDirectoryOf } from './_helpers.js';
import { rssOf, startDbServer } from './_db-server.js';

const logger = createLogger('bench', { level: 'error', pretty: false });

/** CPU time (user + system, ms) of a process (Linux `/proc/<pid>/stat`, 100 ticks a second); `children` counts its ended children instead. */
function procCpuMs(pid: number | 'self', children = false): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (children ? Number(fields[13]) + Number(fields[14]) : Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

type PublishRequest = { organizationId: string; siteId: string; requestKey: string };
type PublishReply = { outcome: PublishOutcome; cpuMs: number; heapMb: number };

/** The publishing process (`--publisher <database url>`): publishes on each request of its parent, as a worker's activity does. */
async function publisher(databaseUrl: string): Promise<void> {
  const store = await openStore({ databaseUrl, logger });
  const pool = new ParsePool({ ...parsePoolOptions(loadConfig()), timeBudgetMs: 60_000 });
  process.on('message', (m: PublishRequest | 'close') => {
    void (async () => {
      if (m === 'close') {
        await pool.close();
        await store.close();
        process.disconnect();
        return;
      }
      const before = process.cpuUsage();
      const outcome = (await publishSite({ store, render: (input) => pool.run('publish.render', input), logger, concurrency: pool.threads * 2 }, m))!;
      const u = process.cpuUsage(before);
      const reply: PublishReply = { outcome, cpuMs: (u.user + u.system) / 1000, heapMb: Math.round(process.memoryUsage().heapUsed / 2 ** 20) };
      process.send!(reply);
    })();
  });
  process.send!('ready');
}

const repo = arg('repo', 'pgsql-tw+gitbook-docs');
const dir = join(corpusDir(), repo);
const ms = (t: bigint) => Number(process.hrtime.bigint() - t) / 1e6;

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

/** One `mkdocs build` of the copy: wall and CPU time, in ms. */
function mkdocsBuild(work: string): { wall: number; cpu: number } {
  const t = performance.now();
  const cpu = procCpuMs('self', true);
  const r = spawnSync('mkdocs', ['build', '-q', '--clean'], { cwd: work, encoding: 'utf8' });
  if (r.status !== 0) throw new Error(`mkdocs build failed: ${(r.stderr ?? '').trim().split('\n').slice(-1)[0]}`);
  return { wall: performance.now() - t, cpu: procCpuMs('self', true) - cpu };
}

/** The database process, the publishing process, and how to ask the latter for a publish. */
interface Processes {
  db: { child: ChildProcess; url: string };
  publisher: ChildProcess;
  dataDir: string;
  replies: Array<(r: PublishReply) => void>;
}

async function startProcesses(): Promise<Processes> {
  const dataDir = mkdtempSync(join(tmpdir(), 'folio-bench-publish-'));
  const db = await startDbServer(dataDir);
  const publisher = fork(fileURLToPath(import.meta.url), ['--publisher', db.url], { stdio: 'inherit' });
  const replies: Array<(r: PublishReply) => void> = [];
  await new Promise<void>((resolve) => publisher.once('message', () => resolve()));
  publisher.on('message', (m: PublishReply) => replies.shift()?.(m));
  return { db, publisher, dataDir, replies };
}

async function stopProcesses(p: Processes): Promise<void> {
  p.publisher.send('close');
  await new Promise((resolve) => p.publisher.once('exit', resolve));
  p.db.child.kill('SIGTERM');
  await new Promise((resolve) => p.db.child.once('exit', resolve));
  rmSync(p.dataDir, { recursive: true, force: true });
}

type Peak = { publisher: number; database: number; tree: number };

/** Peak RSS of the publishing process, of the database process and of their sum, sampled every 50 ms while `work` runs. */
async function sampled<T>(p: Processes, work: () => Promise<T>): Promise<{ value: T; peak: Peak }> {
  const peak = { publisher: 0, database: 0, tree: 0 };
  const sample = () => {
    const a = rssOf(p.publisher.pid!);
    const d = rssOf(p.db.child.pid!);
    peak.publisher = Math.max(peak.publisher, a);
    peak.database = Math.max(peak.database, d);
    peak.tree = Math.max(peak.tree, a + d);
  };
  const timer = setInterval(sample, 50);
  try {
    const value = await work();
    sample();
    return { value, peak };
  } finally {
    clearInterval(timer);
  }
}

/** One publish in the publishing process: wall time, CPU time (publisher with its threads + database), peaks. */
async function publish(p: Processes, request: PublishRequest) {
  const dbCpu = procCpuMs(p.db.child.pid!);
  const t = process.hrtime.bigint();
  const { value, peak } = await sampled(
    p,
    () =>
      new Promise<PublishReply>((resolve) => {
        p.replies.push(resolve);
        p.publisher.send(request);
      }),
  );
  return { wall: ms(t), cpu: value.cpuMs + procCpuMs(p.db.child.pid!) - dbCpu, publisherCpu: value.cpuMs, outcome: value.outcome, heapMb: value.heapMb, peak };
}
type Published = Awaited<ReturnType<typeof publish>>;

interface Runs {
  pages: number;
  baseline: number[];
  mkdocs: Array<{ wall: number; cpu: number }>;
  cold: Published[];
  oneChanged: Published[];
  frameBytes: number;
  idle: { publisher: number; database: number };
}

/** Each run: bare remark, mkdocs, a cold publish of a fresh site, a re-publish after one page changed. */
async function measure(p: Processes, store: Store, runs: number): Promise<Runs> {
  await store.orgs.ensure({ id: 'bench', title: 'Bench' });
  const projectDirectory = projectDirectoryOf(repo);
  const tree = await readWorkingTree(dir);
  const space = await store.spaces.create('bench', { title: repo });
  const revision = await importInto(store, space.id, tree, projectDirectory);
  const pages = [...documents(revision.pages)].filter((pg) => pg.markdown !== null);
  const changedPath = pages.find((pg) => pg.git?.path && pg.path !== '')!.git!.path;
  const changedText = new TextDecoder().decode(await tree.get(changedPath)!.read());
  const out: Runs = {
    pages: pages.length,
    baseline: [],
    mkdocs: [],
    cold: [],
    oneChanged: [],
    frameBytes: 0,
    idle: { publisher: rssOf(p.publisher.pid!), database: rssOf(p.db.child.pid!) },
  };
  const bare = unified().use(remarkParse).use(remarkRehype).use(rehypeStringify);
  const mkdocs = mkdocsWork(projectDirectory);
  for (let run = 0; run < runs; run++) {
    const t = process.hrtime.bigint();
    for (const pg of pages) bare.processSync(pg.markdown!);
    out.baseline.push(ms(t));
    if (mkdocs !== null) out.mkdocs.push(mkdocsBuild(mkdocs));
    // A fresh site each run: nothing to reuse. The content is reset to the corpus (page ids kept, as a git import keeps them).
    await importInto(store, space.id, tree, projectDirectory, { revision, tree });
    const site = await store.sites.create('bench', { title: `Bench ${run}`, spaces: [space.id] });
    out.cold.push(await publish(p, { organizationId: 'bench', siteId: site.id, requestKey: `cold-${run}` }));
    const edited: SourceTree = new Map(tree);
    edited.set(changedPath, memoryEntry(new TextEncoder().encode(`${changedText}\nEdited in run ${run}.\n`)));
    await importInto(store, space.id, edited, projectDirectory, { revision, tree });
    out.oneChanged.push(await publish(p, { organizationId: 'bench', siteId: site.id, requestKey: `edit-${run}` }));
    if (run === 0) out.frameBytes = await largestFrame(store, site.id);
  }
  if (mkdocs !== null) rmSync(mkdocs, { recursive: true, force: true });
  return out;
}

function report(r: Runs, runs: number) {
  const perPage = (xs: number[]) => Number((median(xs) / r.pages).toFixed(2));
  const mb = (b: number) => Math.round(b / 2 ** 20);
  const coldMs = r.cold.map((c) => c.wall);
  const coldCpu = r.cold.map((c) => c.cpu);
  const oneMs = r.oneChanged.map((c) => c.wall);
  const mkMs = r.mkdocs.map((m) => m.wall);
  const mkCpu = r.mkdocs.map((m) => m.cpu);
  const withMk = mkMs.length > 0;
  return {
    benchmark: 'publish',
    repo,
    pages: r.pages,
    runs,
    medianMs: {
      bareRemarkRehype: Math.round(median(r.baseline)),
      coldPublish: Math.round(median(coldMs)),
      publishAfterOnePageChanged: Math.round(median(oneMs)),
      ...(withMk ? { mkdocsBuild: Math.round(median(mkMs)) } : {}),
    },
    cpuMs: {
      coldPublish: Math.round(median(coldCpu)),
      coldPublishPublisherOnly: Math.round(median(r.cold.map((c) => c.publisherCpu))),
      publishAfterOnePageChanged: Math.round(median(r.oneChanged.map((c) => c.cpu))),
      ...(withMk ? { mkdocsBuild: Math.round(median(mkCpu)) } : {}),
    },
    // The first run's cold publish: its render threads have highlighted nothing yet (the later runs' threads keep the
    // blocks they highlighted, as a running worker does between publishes).
    firstRun: {
      coldPublishMs: Math.round(coldMs[0]!),
      coldPublishCpuMs: Math.round(coldCpu[0]!),
      ...(withMk ? { mkdocsBuildCpuMs: Math.round(mkCpu[0]!), coldVsMkdocsCpu: Number((coldCpu[0]! / mkCpu[0]!).toFixed(2)) } : {}),
    },
    loadAverage: os.loadavg().map((l) => Number(l.toFixed(1))),
    perPageMs: { coldPublish: perPage(coldMs), ...(withMk ? { mkdocsBuild: perPage(mkMs) } : {}) },
    ratio: {
      coldPublishVsBare: Number((median(coldMs) / median(r.baseline)).toFixed(2)),
      onePageChangedVsCold: Number((median(oneMs) / median(coldMs)).toFixed(3)),
      ...(withMk ? { coldPublishVsMkdocs: Number((median(coldMs) / median(mkMs)).toFixed(2)) } : {}),
      ...(withMk ? { coldPublishVsMkdocsCpu: Number((median(coldCpu) / median(mkCpu)).toFixed(2)) } : {}),
    },
    counts: {
      cold: { rendered: r.cold.at(-1)!.outcome.rendered, reused: r.cold.at(-1)!.outcome.reused, files: r.cold.at(-1)!.outcome.files },
      oneChanged: { rendered: r.oneChanged.at(-1)!.outcome.rendered, reused: r.oneChanged.at(-1)!.outcome.reused },
    },
    largestPageFrameBytes: r.frameBytes,
    // Resident memory in MB: before the first publish, and the peak of each process and of their sum during the publishes.
    peakRssMb: {
      idle: { publisher: mb(r.idle.publisher), database: mb(r.idle.database) },
      coldPublish: {
        publisher: mb(Math.max(...r.cold.map((c) => c.peak.publisher))),
        database: mb(Math.max(...r.cold.map((c) => c.peak.database))),
        tree: mb(Math.max(...r.cold.map((c) => c.peak.tree))),
      },
      firstColdPublishTree: mb(r.cold[0]!.peak.tree),
      republishTree: mb(Math.max(...r.oneChanged.map((c) => c.peak.tree))),
    },
    publisherHeapUsedMbAfterCold: Math.max(...r.cold.map((c) => c.heapMb)),
  };
}

async function main(): Promise<void> {
  const runs = Number(process.env.BENCH_RUNS ?? 3);
  if (!existsSync(dir)) throw new Error(`corpus repository not found: ${dir}`);
  const p = await startProcesses();
  const store = await openStore({ databaseUrl: p.db.url, logger, migrate: false });
  const measured = await measure(p, store, runs);
  await store.close();
  await stopProcesses(p);
  process.stdout.write(`${JSON.stringify(report(measured, runs))}\n`);
}

if (process.argv.includes('--publisher')) await publisher(arg('publisher', ''));
else await main();

/** The frame of a page (everything but its article): what every page carries, navigation included; the largest of 50 pages. */
async function largestFrame(store: Store, siteId: string): Promise<number> {
  let frameBytes = 0;
  const live = (await store.sites.get('bench', siteId))!.livePublicationId!;
  const html = (await store.sites.publicationFiles(live)).filter((f) => f.path.endsWith('.html') && f.path !== '404.html').slice(0, 50);
  const bytes = await store.blobs.getMany(html.map((f) => f.hash));
  for (const f of html) {
    const text = new TextDecoder().decode(bytes.get(f.hash)!);
    const article = /<article>[\s\S]*<\/article>/.exec(text)?.[0] ?? '';
    frameBytes = Math.max(frameBytes, Buffer.byteLength(text) - Buffer.byteLength(article));
  }
  return frameBytes;
}
