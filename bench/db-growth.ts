/**
 * Embedded database over time (issue 31: "flat ± 10% over 30 minutes of repeated imports and publishes"): the
 * embedded database in its own process (`folio db-server` on a temporary data directory, as `folio start` runs it)
 * while this process repeats, for `--minutes N` (default 30), cycles of real work on a corpus repository served by
 * the loopback git server: a cold git import into a fresh space (the git import activity), a cold publish of a fresh
 * site for it (the publish activity's core with the parse pool), one page changed and pushed with the git CLI, an
 * incremental import and a re-publish; the space and site of two cycles before are deleted and purged, so the live
 * content stays two copies of the repository (the database must give back what it no longer holds).
 * Every `--sample-s` seconds (default 5) it samples the database process's resident set and the data directory's
 * size. The figure: the median RSS of the first window against the median of the last window (each 5 minutes, or a
 * third of the run when it is shorter), and the peak. Prints one JSON object.
 *   npm run build && node dist/bench/db-growth.js [--repo BlockRazorinc+docs_en] [--minutes 30] [--sample-s 5]
 */
import { spawnSync } from 'node:child_process';
import { cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os, { tmpdir } from 'node:os';
import path from 'node:path';
import { createGitSyncActivities } from '../activities/git-sync.js';
import { loadConfig } from '../src/config/config.js';
import { createLogger } from '../src/log.js';
import { parsePoolOptions } from '../src/parse-pool/from-config.js';
import { ParsePool } from '../src/parse-threads/pool.js';
import { corpusDir } from '../src/project-root.js';
import { publishSite } from '../src/publish/build.js';
import { openStore, type Store } from '../src/store/index.js';
import type { GitSyncRequest } from '../src/temporal/contract/index.js';
import { runGit, startGitServer } from '../test/helpers/git-server.js';
import { LOOPBACK_ALLOW_HOSTS } from '../test/helpers/loopback-policy.js';
import { rssOf, startDbServer } from './_db-server.js';
import { arg, markdownFiles, median, projectDirectoryOf } from './_helpers.js';

const repo = arg('repo', 'BlockRazorinc+docs_en');
const minutes = Number(arg('minutes', '30'));
const sampleMs = Number(arg('sample-s', '5')) * 1000;
const logger = createLogger('bench', { level: 'error', pretty: false });

interface Sample {
  atS: number;
  rssMb: number;
  dataMb: number;
}

function duMb(dir: string): number {
  const out = spawnSync('du', ['-sb', dir], { encoding: 'utf8' }).stdout;
  return Number(out.split(/\s/)[0] ?? 0) / 2 ** 20;
}

interface Rig {
  store: Store;
  pool: ParsePool;
  acts: ReturnType<typeof createGitSyncActivities>;
  server: Awaited<ReturnType<typeof startGitServer>>;
  clone: string;
  projectDirectory: string;
}

async function rig(work: string, databaseUrl: string): Promise<Rig> {
  const store = await openStore({ databaseUrl, logger, migrate: true });
  await store.orgs.ensure({ id: 'bench', title: 'bench' });
  const config = loadConfig({ DATA_DIR: path.join(work, 'worker-data'), FETCH_ALLOW_HOSTS: LOOPBACK_ALLOW_HOSTS });
  const pool = new ParsePool({ ...parsePoolOptions(config), timeBudgetMs: 60_000 });
  const server = await startGitServer();
  const src = path.join(work, 'src');
  await cp(path.join(corpusDir(), repo), src, { recursive: true });
  await server.createBareRepo('corpus', { fromDir: src, branch: 'main', message: 'corpus' });
  const clone = path.join(work, 'clone');
  await runGit(['clone', '-q', '--branch', 'main', server.url('corpus'), clone]);
  return { store, pool, acts: createGitSyncActivities({ store, config, logger }), server, clone, projectDirectory: projectDirectoryOf(repo) };
}

/** One cycle: cold import + cold publish of a fresh space and site, one page changed, incremental import, re-publish. */
async function cycle(r: Rig, n: number): Promise<{ spaceId: string; siteId: string }> {
  const space = await r.store.spaces.create('bench', { title: `cycle ${n}` });
  const base = {
    spaceId: space.id,
    organizationId: 'bench',
    url: r.server.url('corpus'),
    ref: 'refs/heads/main',
    force: false,
    standalone: false,
    projectDirectory: r.projectDirectory,
    receivedAt: new Date().toISOString(),
  };
  const at = (k: number) => new Date(Date.UTC(2025, 0, 1) + n * 60_000 + k * 1000).toISOString();
  await r.acts.gitImportActivity({ ...base, requestId: `c${n}`, direction: 'import', timestamp: at(0) } satisfies GitSyncRequest);
  const site = await r.store.sites.create('bench', { title: `cycle ${n}`, spaces: [space.id] });
  const publish = (key: string) =>
    publishSite(
      { store: r.store, render: (input) => r.pool.run('publish.render', input), logger, concurrency: r.pool.threads * 2 },
      {
        organizationId: 'bench',
        siteId: site.id,
        requestKey: key,
      },
    );
  await publish(`cold-${n}`);
  const files = await markdownFiles(path.join(r.clone, r.projectDirectory));
  const changed = files[n % files.length]!;
  await writeFile(changed, `${await readFile(changed, 'utf8')}\nCycle ${n}.\n`);
  await runGit(['commit', '-qam', `cycle ${n}`], { cwd: r.clone });
  await runGit(['push', '-q', 'origin', 'HEAD:main'], { cwd: r.clone });
  await r.acts.gitImportActivity({ ...base, requestId: `i${n}`, direction: 'import', timestamp: at(1) } satisfies GitSyncRequest);
  await publish(`edit-${n}`);
  return { spaceId: space.id, siteId: site.id };
}

async function retire(store: Store, old: { spaceId: string; siteId: string }): Promise<void> {
  await store.sites.delete('bench', old.siteId);
  const { deletionId } = await store.spaces.markDeleted(old.spaceId);
  await store.spaces.purge(old.spaceId, deletionId);
}

function summary(samples: Sample[], cycles: number[]) {
  const windowS = Math.min(300, (minutes * 60) / 3);
  const end = samples.at(-1)!.atS;
  const first = samples.filter((s) => s.atS <= windowS);
  const last = samples.filter((s) => s.atS >= end - windowS);
  const med = (xs: Sample[], k: 'rssMb' | 'dataMb') => Math.round(median(xs.map((s) => s[k])));
  const firstRss = med(first, 'rssMb');
  const lastRss = med(last, 'rssMb');
  return {
    benchmark: 'db-growth',
    repo,
    minutes,
    windowS,
    cycles: cycles.length,
    cycleMedianMs: Math.round(median(cycles)),
    rssMb: { firstWindowMedian: firstRss, lastWindowMedian: lastRss, peak: Math.round(Math.max(...samples.map((s) => s.rssMb))) },
    rssRatio: Number((lastRss / firstRss).toFixed(3)),
    flat: lastRss <= firstRss * 1.1 && lastRss >= firstRss * 0.9,
    dataDirMb: { firstWindowMedian: med(first, 'dataMb'), lastWindowMedian: med(last, 'dataMb'), end: Math.round(samples.at(-1)!.dataMb) },
    loadAverage: os.loadavg().map((l) => Number(l.toFixed(1))),
    samples: samples.map((s) => [Math.round(s.atS), Math.round(s.rssMb), Math.round(s.dataMb)]),
  };
}

async function main(): Promise<void> {
  const work = await mkdtemp(path.join(tmpdir(), 'folio-bench-dbgrowth-'));
  const dataDir = path.join(work, 'data');
  const db = await startDbServer(dataDir);
  const r = await rig(work, db.url);
  const samples: Sample[] = [];
  const t0 = performance.now();
  const sample = () => samples.push({ atS: (performance.now() - t0) / 1000, rssMb: rssOf(db.child.pid!) / 2 ** 20, dataMb: duMb(dataDir) });
  sample();
  const timer = setInterval(sample, sampleMs);
  const cycles: number[] = [];
  const live: Array<{ spaceId: string; siteId: string }> = [];
  try {
    for (let n = 0; performance.now() - t0 < minutes * 60_000; n++) {
      const c0 = performance.now();
      live.push(await cycle(r, n));
      if (live.length > 2) await retire(r.store, live.shift()!);
      cycles.push(performance.now() - c0);
    }
    sample();
  } finally {
    clearInterval(timer);
    await r.pool.close();
    await r.store.close();
    await r.server.stop();
    db.child.kill('SIGTERM');
    await new Promise((resolve) => db.child.once('exit', resolve));
    await rm(work, { recursive: true, force: true });
  }
  process.stdout.write(`${JSON.stringify(summary(samples, cycles))}\n`);
}

// The git activities' parse pool (worker threads) keeps the process alive: exit once the result is printed.
main().then(
  () => process.exit(0),
  (err: unknown) => {
    console.error(err);
    process.exit(1);
  },
);
