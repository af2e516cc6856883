/**
 * Git sync benchmark: Folio's import and export activities (isomorphic-git fetch → converter → store, and
 * store → converter → commit → push) on the largest corpus repository from the loopback http-backend server,
 * beside the baselines of the same run: native `git clone --depth 1` plus a bare remark parse (remark-parse +
 * remark-gfm + remark-frontmatter) of the same markdown files for the cold import, and a native edit + commit +
 * push of the same one-page change for the export. Also an incremental import of a one-file change pushed
 * with the git CLI, beside its native side (`pullParseNative`): `git pull` into a clone that had the previous commit
 * plus the bare remark parse of the markdown file the pull changed. Medians over BENCH_RUNS (default 3). Goals of
 * the issue: cold import < 3× baseline, incremental import < 2 s, one-page export < 2 s. Prints one JSON object (with the import's phase timings).
 * Run: npx tsx bench/git-sync.ts [FlowiseAI+FlowiseDocs]
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createGitSyncActivities } from '../activities/git-sync.js';
import { loadConfig } from '../src/config/config.js';
import { createLogger } from '../src/log.js';
import { openStore } from '../src/store/index.js';
import type { DocumentPage } from '../src/format/index.js';
import { loadRevisionModel, modelToRevisionInput, flattenPages } from '../src/revision/records.js';
import type { GitSyncRequest } from '../src/temporal/contract/index.js';
import { runGit, startGitServer } from '../test/helpers/git-server.js';
import { LOOPBACK_ALLOW_HOSTS } from '../test/helpers/loopback-policy.js';
import { unified } from 'unified';
import remarkParse from 'remark-parse';
import remarkGfm from 'remark-gfm';
import remarkFrontmatter from 'remark-frontmatter';
import { corpusDir } from '../src/project-root.js';
import { markdownFiles, median } from './_helpers.js';

/** The bare parse baseline: read and parse every markdown file of a checkout with remark. */
async function remarkParseAll(dir: string): Promise<number> {
  const processor = unified().use(remarkParse).use(remarkGfm).use(remarkFrontmatter, ['yaml']);
  let n = 0;
  for (const f of await markdownFiles(dir)) {
    processor.parse(await readFile(f, 'utf8'));
    n++;
  }
  return n;
}

const REPO = process.argv[2] ?? 'FlowiseAI+FlowiseDocs';
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 3));
const time = async (fn: () => Promise<unknown>) => {
  const t = performance.now();
  await fn();
  return performance.now() - t;
};

type Timings = Record<'importFolio' | 'cloneNative' | 'remarkParse' | 'incrementalImport' | 'pullParseNative' | 'exportFolio' | 'pushNative', number[]>;

interface Bench {
  work: string;
  server: Awaited<ReturnType<typeof startGitServer>>;
  src: string;
  projectDirectory: string;
  logger: ReturnType<typeof createLogger>;
  store: Awaited<ReturnType<typeof openStore>>;
  result: Record<string, unknown>;
  t: Timings;
  phases: Array<Record<string, number>>;
}

/** Setup: the corpus copy, the git server and an in-memory store. */
async function setup(): Promise<Bench> {
  const work = await mkdtemp(path.join(tmpdir(), 'folio-bench-gitsync-'));
  const server = await startGitServer();
  const src = path.join(work, 'src');
  await cp(path.join(corpusDir(), REPO), src, { recursive: true });
  const source = (await readFile(path.join(corpusDir(), `${REPO}.source`), 'utf8')).match(/^root:\s*(.*)$/m)?.[1]?.trim() ?? '.';
  const projectDirectory = source === '.' ? '' : source.replace(/^\.\//, '').replace(/\/$/, '');
  const logger = createLogger('bench', { level: 'error', pretty: false });
  const store = await openStore({ dataDir: 'memory://', migrate: true, logger });
  await store.orgs.ensure({ id: 'bench', title: 'bench' });
  const t: Timings = { importFolio: [], cloneNative: [], remarkParse: [], incrementalImport: [], pullParseNative: [], exportFolio: [], pushNative: [] };
  return { work, server, src, projectDirectory, logger, store, result: { repository: REPO, runs: RUNS }, t, phases: [] };
}

interface Run {
  i: number;
  name: string;
  space: { id: string };
  acts: ReturnType<typeof createGitSyncActivities>;
  base: Omit<GitSyncRequest, 'requestId' | 'direction' | 'timestamp'>;
  cloneDir: string;
  /** A second native clone, left at the imported commit: the native side of the incremental import pulls into it. */
  pullDir: string;
}

/** Cold import: Folio's import activity, then the native clone and the remark parse of the same files. */
async function measureCold(b: Bench, i: number): Promise<Run> {
  const name = `r${i}`;
  await b.server.createBareRepo(name, { fromDir: b.src, branch: 'main', message: 'corpus' });
  const config = { ...loadConfig({ DATA_DIR: path.join(b.work, `data-${i}`), FETCH_ALLOW_HOSTS: LOOPBACK_ALLOW_HOSTS }) };
  const acts = createGitSyncActivities({ store: b.store, config, logger: b.logger });
  const space = await b.store.spaces.create('bench', { id: `s${i}` });
  const base = {
    spaceId: space.id,
    organizationId: 'bench',
    url: b.server.url(name),
    ref: 'refs/heads/main',
    force: false,
    standalone: false,
    projectDirectory: b.projectDirectory,
    receivedAt: new Date().toISOString(),
  };
  const imp: GitSyncRequest = { ...base, requestId: `i${i}`, direction: 'import', timestamp: new Date(Date.UTC(2025, 0, 1, 0, i)).toISOString() };
  b.t.importFolio.push(await time(async () => b.phases.push((await acts.gitImportActivity(imp)).timingsMs ?? {})));
  const cloneDir = path.join(b.work, `clone-${i}`);
  b.t.cloneNative.push(await time(() => runGit(['clone', '-q', '--depth', '1', '--branch', 'main', b.server.url(name), cloneDir])));
  let parsed = 0;
  b.t.remarkParse.push(await time(async () => (parsed = await remarkParseAll(path.join(cloneDir, b.projectDirectory)))));
  b.result.markdownFiles = parsed;
  const pullDir = path.join(b.work, `pull-${i}`);
  await runGit(['clone', '-q', '--branch', 'main', b.server.url(name), pullDir]);
  return { i, name, space, acts, base, cloneDir, pullDir };
}

/**
 * The native side of an incremental import: `git pull` (fetch + fast-forward) into a clone that had the previous
 * commit, then the bare remark parse of the markdown files the pull changed (as git names them). Returns the count.
 */
async function pullAndParse(b: Bench, dir: string): Promise<number> {
  const processor = unified().use(remarkParse).use(remarkGfm).use(remarkFrontmatter, ['yaml']);
  await runGit(['pull', '-q', '--ff-only', 'origin', 'main'], { cwd: dir });
  const changed = (await runGit(['diff', '--name-only', '--diff-filter=AM', 'ORIG_HEAD', 'HEAD'], { cwd: dir }))
    .split('\n')
    .filter((f) => /\.mdx?$/i.test(f) && f.startsWith(b.projectDirectory));
  for (const f of changed) processor.parse(await readFile(path.join(dir, f), 'utf8'));
  return changed.length;
}

/** Incremental import: one markdown file changed and pushed with the git CLI; then the native pull + parse of the same change. */
async function measureIncremental(b: Bench, r: Run): Promise<void> {
  const { i, cloneDir } = r;
  const mdFiles = await markdownFiles(path.join(cloneDir, b.projectDirectory));
  const changed = mdFiles[Math.floor(mdFiles.length / 2)]!;
  await writeFile(changed, (await readFile(changed, 'utf8')) + `\nIncremental change ${i}.\n`);
  await runGit(['commit', '-qam', 'incremental'], { cwd: cloneDir });
  await runGit(['push', '-q', 'origin', 'HEAD:main'], { cwd: cloneDir });
  const inc: GitSyncRequest = { ...r.base, requestId: `n${i}`, direction: 'import', timestamp: new Date(Date.UTC(2025, 0, 1, 0, 30 + i)).toISOString() };
  b.t.incrementalImport.push(await time(async () => b.phases.push({ incremental: 1, ...((await r.acts.gitImportActivity(inc)).timingsMs ?? {}) })));
  let parsed = 0;
  b.t.pullParseNative.push(await time(async () => (parsed = await pullAndParse(b, r.pullDir))));
  if (parsed !== 1) throw new Error(`the native pull changed ${parsed} markdown files, expected 1`);
}

/** The same one-page change on both sides, appended to the first document page: Folio's export, then the native push. */
async function measureExport(b: Bench, r: Run): Promise<void> {
  const { i, space, cloneDir } = r;
  const revId = (await b.store.spaces.get(space.id))!.revisionId!;
  const loaded = (await loadRevisionModel(b.store, revId))!;
  const page = flattenPages(loaded.model.pages).find((p) => p.kind === 'document' && p.markdown !== null && p.git) as DocumentPage & {
    git: NonNullable<DocumentPage['git']>;
  };
  page.markdown += `\nBenchmark change ${i}.\n`;
  const fileBytes = new Map([...loaded.fileHashes].map(([id, hash]) => [id, { hash }]));
  const { id: edited } = await b.store.revisions.create(modelToRevisionInput(loaded.model, { spaceId: space.id, parents: [revId], type: 'edits', fileBytes }));
  await b.store.spaces.setPrimaryRevision(space.id, edited, { expected: revId });
  const exp: GitSyncRequest = {
    ...r.base,
    requestId: `e${i}`,
    direction: 'export',
    timestamp: new Date(Date.UTC(2025, 0, 1, 1, i)).toISOString(),
    commitMessage: 'bench',
  };
  b.t.exportFolio.push(await time(async () => b.phases.push({ export: 1, ...((await r.acts.gitExportActivity(exp)).timingsMs ?? {}) })));
  const nativePath = path.join(cloneDir, page.git.path);
  b.t.pushNative.push(
    await time(async () => {
      await runGit(['pull', '-q', '--ff-only', 'origin', 'main'], { cwd: cloneDir }).catch(() => undefined);
      await writeFile(nativePath, (await readFile(nativePath, 'utf8')) + `\nNative change ${i}.\n`);
      await runGit(['commit', '-qam', 'native'], { cwd: cloneDir });
      await runGit(['push', '-q', 'origin', 'HEAD:main'], { cwd: cloneDir });
    }),
  );
}

/** Report: medians, baselines, ratios and the goals into the result object. */
function report(b: Bench): void {
  const { t } = b;
  const m = Object.fromEntries(Object.entries(t).map(([k, v]) => [k, Math.round(median(v))]));
  const coldBaseline = m.cloneNative! + m.remarkParse!;
  Object.assign(b.result, {
    medianMs: m,
    baselinesMs: { coldImport: coldBaseline, incrementalImport: m.pullParseNative, export: m.pushNative },
    ratios: {
      coldImport: +(m.importFolio! / coldBaseline).toFixed(2),
      incrementalImport: +(m.incrementalImport! / m.pullParseNative!).toFixed(2),
      export: +(m.exportFolio! / m.pushNative!).toFixed(2),
    },
    goals: {
      coldImportUnder3x: m.importFolio! < 3 * coldBaseline,
      incrementalImportUnder2s: m.incrementalImport! < 2000,
      exportUnder2s: m.exportFolio! < 2000,
    },
    phasesMs: b.phases,
    samplesMs: t,
  });
}

async function main() {
  const b = await setup();
  try {
    for (let i = 0; i < RUNS; i++) {
      const run = await measureCold(b, i);
      await measureIncremental(b, run);
      await measureExport(b, run);
    }
    report(b);
  } finally {
    await b.store.close();
    await b.server.stop();
    await rm(b.work, { recursive: true, force: true });
  }
  console.log(JSON.stringify(b.result));
}

// The activities' parse pool (worker threads) keeps the process alive: exit once the result is printed.
main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
