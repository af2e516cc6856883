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
import { Session } from 'node:inspector/promises';
import { createGitSyncActivities } from '../activities/git-sync.js';
import { loadConfig } from '../src/config/config.js';
import { createLogger } from '../src/log.js';
import { openStore } from '../src/store/index.js';
import type { GitSyncRequest } from '../src/temporal/contract/index.js';
import { runGit, startGitServer } from '../test/helpers/git-server.js';
import { LOOPBACK_ALLOW_HOSTS } from '../test/helpers/loopback-policy.js';
import { corpusDir } from '../src/project-root.js';
import { markdownFiles, median } from './_helpers.js';

const REPO = process.argv[2] ?? 'pgsql-tw+gitbook-docs';
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 7));
const load = () => loadavg().map((l) => +l.toFixed(2));

async function main() {
  const loadBefore = load();
  const work = await mkdtemp(path.join(tmpdir(), 'folio-bench-incr-'));
  const server = await startGitServer();
  const src = path.join(work, 'src');
  await cp(path.join(corpusDir(), REPO), src, { recursive: true });
  const source = (await readFile(path.join(corpusDir(), `${REPO}.source`), 'utf8')).match(/^root:\s*(.*)$/m)?.[1]?.trim() ?? '.';
  const projectDirectory = source === '.' ? '' : source.replace(/^\.\//, '').replace(/\/$/, '');
  const logger = createLogger('bench', { level: 'error', pretty: false });
  const store = await openStore({ dataDir: 'memory://', migrate: true, logger });
  await store.orgs.ensure({ id: 'bench', title: 'bench' });
  const phases: Record<string, number[]> = {};
  const total: number[] = [];
  const pull: number[] = [];
  let cold: Record<string, number> = {};
  let coldMs = 0;
  try {
    await server.createBareRepo('r', { fromDir: src, branch: 'main', message: 'corpus' });
    const config = { ...loadConfig({ DATA_DIR: path.join(work, 'data'), FETCH_ALLOW_HOSTS: LOOPBACK_ALLOW_HOSTS }) };
    const acts = createGitSyncActivities({ store, config, logger });
    const space = await store.spaces.create('bench', { id: 's' });
    const base = {
      spaceId: space.id,
      organizationId: 'bench',
      url: server.url('r'),
      ref: 'refs/heads/main',
      force: false,
      standalone: false,
      projectDirectory,
      receivedAt: new Date().toISOString(),
    };
    let t = performance.now();
    const first = await acts.gitImportActivity({ ...base, requestId: 'cold', direction: 'import', timestamp: new Date(Date.UTC(2025, 0, 1)).toISOString() });
    coldMs = performance.now() - t;
    cold = first.timingsMs ?? {};
    const editor = path.join(work, 'editor');
    const native = path.join(work, 'native');
    await runGit(['clone', '-q', '--branch', 'main', server.url('r'), editor]);
    await runGit(['clone', '-q', '--branch', 'main', server.url('r'), native]);
    const md = (await markdownFiles(path.join(editor, projectDirectory), /\.md$/i)).sort();
    const profile = process.env.BENCH_CPU_PROF;
    const inspector = profile ? new Session() : undefined;
    if (inspector) {
      inspector.connect();
      await inspector.post('Profiler.enable');
      await inspector.post('Profiler.setSamplingInterval', { interval: 200 });
      await inspector.post('Profiler.start');
    }
    for (let i = 0; i < RUNS; i++) {
      const changed = md[Math.floor(((i + 1) * md.length) / (RUNS + 2))]!;
      await writeFile(changed, (await readFile(changed, 'utf8')) + `\nIncremental change ${i}.\n`);
      await runGit(['commit', '-qam', `incremental ${i}`], { cwd: editor });
      await runGit(['push', '-q', 'origin', 'HEAD:main'], { cwd: editor });
      const request: GitSyncRequest = {
        ...base,
        requestId: `n${i}`,
        direction: 'import',
        timestamp: new Date(Date.UTC(2025, 0, 1, 1, i)).toISOString(),
      };
      // Alternated: Folio first on even runs, native first on odd ones.
      const folio = async () => {
        t = performance.now();
        const r = await acts.gitImportActivity(request);
        total.push(performance.now() - t);
        if (r.outcome !== 'applied') throw new Error(`run ${i}: ${r.outcome} ${r.detail}`);
        for (const [k, v] of Object.entries(r.timingsMs ?? {})) (phases[k] ??= []).push(v);
      };
      const nativePull = async () => {
        t = performance.now();
        await runGit(['pull', '-q', '--ff-only', 'origin', 'main'], { cwd: native });
        pull.push(performance.now() - t);
      };
      if (i % 2 === 0) {
        await folio();
        await nativePull();
      } else {
        await nativePull();
        await folio();
      }
    }
    if (inspector && profile) {
      const { profile: cpu } = await inspector.post('Profiler.stop');
      await writeFile(profile, JSON.stringify(cpu));
      inspector.disconnect();
    }
  } finally {
    await store.close();
    await server.stop();
    await rm(work, { recursive: true, force: true });
  }
  const round = (x: number) => Math.round(x);
  console.log(
    JSON.stringify({
      repository: REPO,
      runs: RUNS,
      loadBefore,
      loadAfter: load(),
      coldMs: round(coldMs),
      coldPhasesMs: cold,
      incrementalMedianMs: round(median(total)),
      incrementalPhasesMedianMs: Object.fromEntries(Object.entries(phases).map(([k, v]) => [k, round(median(v))])),
      nativePullMedianMs: round(median(pull)),
      samplesMs: total.map(round),
    }),
  );
}

// The parse pool's threads keep the process alive: exit once the result is printed.
main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
