/**
 * Incremental git import, activity level: one cold import of a corpus repository, then BENCH_RUNS (default 7)
 * incremental imports of a one-file change each (pushed with the git CLI), alternated with the native
 * `git pull` of the same change. Prints one JSON object: the medians of the activity's phases and of the whole
 * activity, the native pull, and the load average before and after. For profiling the incremental path
 * (`node --cpu-prof --import tsx bench/git-sync-incremental.ts`) without Temporal or the API.
 * BENCH_CPU_PROF=<file.cpuprofile> profiles the incremental runs only (not the cold import).
 * Run: npx tsx bench/git-sync-incremental.ts [pgsql-tw+gitbook-docs]
 */
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { loadavg, tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createGitSyncActivities } from '../activities/git-sync.js';
import { loadConfig } from '../src/config/config.js';
import { createLogger } from '../src/log.js';
import { openStore } from '../src/store/index.js';
import type { GitSyncRequest } from '../src/temporal/contract/index.js';
import { runGit, startGitServer } from '../test/helpers/git-server.js';
import { LOOPBACK_ALLOW_HOSTS } from '../test/helpers/loopback-policy.js';
import { corpusDir } from '../src/project-root.js';
import { markdownFiles, median, startProfile } from './_helpers.js';

const REPO = process.argv[2] ?? 'pgsql-tw+gitbook-docs';
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 7));
const load = () => loadavg().map((l) => +l.toFixed(2));

interface Bench {
  work: string;
  server: Awaited<ReturnType<typeof startGitServer>>;
  src: string;
  projectDirectory: string;
  logger: ReturnType<typeof createLogger>;
  store: Awaited<ReturnType<typeof openStore>>;
  phases: Record<string, number[]>;
  total: number[];
  pull: number[];
  cold: Record<string, number>;
  coldMs: number;
}

/** Setup: the corpus copy, the git server and an in-memory store. */
async function setup(): Promise<Bench> {
  const work = await mkdtemp(path.join(tmpdir(), 'folio-bench-incr-'));
  const server = await startGitServer();
  const src = path.join(work, 'src');
  await cp(path.join(corpusDir(), REPO), src, { recursive: true });
  const source = (await readFile(path.join(corpusDir(), `${REPO}.source`), 'utf8')).match(/^root:\s*(.*)$/m)?.[1]?.trim() ?? '.';
  const projectDirectory = source === '.' ? '' : source.replace(/^\.\//, '').replace(/\/$/, '');
  const logger = createLogger('bench', { level: 'error', pretty: false });
  const store = await openStore({ dataDir: 'memory://', migrate: true, logger });
  await store.orgs.ensure({ id: 'bench', title: 'bench' });
  return { work, server, src, projectDirectory, logger, store, phases: {}, total: [], pull: [], cold: {}, coldMs: 0 };
}

interface Prepared {
  acts: ReturnType<typeof createGitSyncActivities>;
  base: Omit<GitSyncRequest, 'requestId' | 'direction' | 'timestamp'>;
  editor: string;
  native: string;
  md: string[];
}

/** The cold import (timed), then the editor's and the native side's clones. */
async function coldImport(b: Bench): Promise<Prepared> {
  await b.server.createBareRepo('r', { fromDir: b.src, branch: 'main', message: 'corpus' });
  const config = { ...loadConfig({ DATA_DIR: path.join(b.work, 'data'), FETCH_ALLOW_HOSTS: LOOPBACK_ALLOW_HOSTS }) };
  const acts = createGitSyncActivities({ store: b.store, config, logger: b.logger });
  const space = await b.store.spaces.create('bench', { id: 's' });
  const base = {
    spaceId: space.id,
    organizationId: 'bench',
    url: b.server.url('r'),
    ref: 'refs/heads/main',
    force: false,
    standalone: false,
    projectDirectory: b.projectDirectory,
    receivedAt: new Date().toISOString(),
  };
  const t = performance.now();
  const first = await acts.gitImportActivity({ ...base, requestId: 'cold', direction: 'import', timestamp: new Date(Date.UTC(2025, 0, 1)).toISOString() });
  b.coldMs = performance.now() - t;
  b.cold = first.timingsMs ?? {};
  const editor = path.join(b.work, 'editor');
  const native = path.join(b.work, 'native');
  await runGit(['clone', '-q', '--branch', 'main', b.server.url('r'), editor]);
  await runGit(['clone', '-q', '--branch', 'main', b.server.url('r'), native]);
  const md = (await markdownFiles(path.join(editor, b.projectDirectory), /\.md$/i)).sort();
  return { acts, base, editor, native, md };
}

/** Run i: one file changed and pushed, then Folio's import and the native pull, alternated (Folio first on even runs). */
async function measureRun(b: Bench, p: Prepared, i: number): Promise<void> {
  const changed = p.md[Math.floor(((i + 1) * p.md.length) / (RUNS + 2))]!;
  await writeFile(changed, (await readFile(changed, 'utf8')) + `\nIncremental change ${i}.\n`);
  await runGit(['commit', '-qam', `incremental ${i}`], { cwd: p.editor });
  await runGit(['push', '-q', 'origin', 'HEAD:main'], { cwd: p.editor });
  const request: GitSyncRequest = {
    ...p.base,
    requestId: `n${i}`,
    direction: 'import',
    timestamp: new Date(Date.UTC(2025, 0, 1, 1, i)).toISOString(),
  };
  const folio = async () => {
    const t = performance.now();
    const r = await p.acts.gitImportActivity(request);
    b.total.push(performance.now() - t);
    if (r.outcome !== 'applied') throw new Error(`run ${i}: ${r.outcome} ${r.detail}`);
    for (const [k, v] of Object.entries(r.timingsMs ?? {})) (b.phases[k] ??= []).push(v);
  };
  const nativePull = async () => {
    const t = performance.now();
    await runGit(['pull', '-q', '--ff-only', 'origin', 'main'], { cwd: p.native });
    b.pull.push(performance.now() - t);
  };
  for (const step of i % 2 === 0 ? [folio, nativePull] : [nativePull, folio]) await step();
}

/** Report: one JSON object with the medians. */
function report(b: Bench, loadBefore: number[]): void {
  const round = (x: number) => Math.round(x);
  console.log(
    JSON.stringify({
      repository: REPO,
      runs: RUNS,
      loadBefore,
      loadAfter: load(),
      coldMs: round(b.coldMs),
      coldPhasesMs: b.cold,
      incrementalMedianMs: round(median(b.total)),
      incrementalPhasesMedianMs: Object.fromEntries(Object.entries(b.phases).map(([k, v]) => [k, round(median(v))])),
      nativePullMedianMs: round(median(b.pull)),
      samplesMs: b.total.map(round),
    }),
  );
}

async function main() {
  const loadBefore = load();
  const b = await setup();
  try {
    const prepared = await coldImport(b);
    const stopProfile = await startProfile();
    for (let i = 0; i < RUNS; i++) await measureRun(b, prepared, i);
    await stopProfile();
  } finally {
    await b.store.close();
    await b.server.stop();
    await rm(b.work, { recursive: true, force: true });
  }
  report(b, loadBefore);
}

// The parse pool's threads keep the process alive: exit once the result is printed.
main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
