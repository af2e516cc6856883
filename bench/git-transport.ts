/**
 * Git transport benchmark: isomorphic-git (Folio's src/git) against the native git CLI, same
 * loopback smart-HTTP server (git http-backend), same repository, same run.
 *
 *   fetchCold   fetchRef depth 1 into an empty bare cache  vs  git clone --depth 1 --bare
 *   commitPush  writeTree + commit + push of one changed file  vs  git add + commit + push
 *
 * Runs alternate between the two sides; medians over BENCH_RUNS (default 5) runs; ratio = folio / native.
 * Prints one JSON object. Run: npm run build && node dist/bench/git-transport.js [FlowiseAI+FlowiseDocs]
 */
import { execFileSync } from 'node:child_process';
import { mkdtemp, rm, writeFile, readdir, stat } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { commit, fetchRef, openCache, push, writeTree } from '../src/git/index.js';
import { runGit, startGitServer } from '../test/helpers/git-server.js';
import { loopbackPolicy } from '../test/helpers/loopback-policy.js';
import { corpusDir } from '../src/project-root.js';
import { median } from './_helpers.js';

const CORPUS = corpusDir();
const REPO = process.argv[2] ?? 'FlowiseAI+FlowiseDocs';
const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 5));

async function time(fn: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await fn();
  return performance.now() - t;
}

async function dirStats(dir: string): Promise<{ files: number; bytes: number }> {
  let files = 0;
  let bytes = 0;
  for (const e of await readdir(dir, { withFileTypes: true, recursive: true })) {
    if (!e.isFile()) continue;
    files++;
    bytes += (await stat(path.join(e.parentPath ?? (e as unknown as { path: string }).path, e.name))).size;
  }
  return { files, bytes };
}

function summary(folio: number[], native: number[]): Record<string, unknown> {
  const f = median(folio);
  const n = median(native);
  return {
    folioMs: folio.map((x) => Math.round(x)),
    nativeMs: native.map((x) => Math.round(x)),
    folioMedianMs: Math.round(f),
    nativeMedianMs: Math.round(n),
    ratio: Number((f / n).toFixed(2)),
  };
}

type Server = Awaited<ReturnType<typeof startGitServer>>;

/** Setup: three packed copies of the repository on the server, and a warm-up clone (not measured). */
async function setup(server: Server, work: string, source: string): Promise<void> {
  await server.createBareRepo('fetch', { fromDir: source });
  await server.createBareRepo('push-folio', { fromDir: source });
  await server.createBareRepo('push-native', { fromDir: source });
  // Serve packed repositories, as hosting services do: the server then reuses stored deltas and
  // what is measured is mostly the client side.
  for (const name of ['fetch', 'push-folio', 'push-native']) await runGit(['--git-dir', path.join(server.root, `${name}.git`), 'repack', '-a', '-d', '-q']);

  // Warm-up (page cache, server binaries), not measured.
  await runGit(['clone', '--quiet', '--depth', '1', '--bare', server.url('fetch'), path.join(work, 'warm')]);
}

/** Runs the two sides in turn, the native side first on odd runs. */
async function alternate(i: number, folio: () => Promise<void>, native: () => Promise<void>): Promise<void> {
  const sides = [folio, native];
  if (i % 2) sides.reverse();
  for (const side of sides) await side();
}

/** fetchCold: a depth-1 fetch into an empty cache against `git clone --depth 1 --bare`, alternated. */
async function measureFetch(server: Server, work: string): Promise<{ fetchFolio: number[]; fetchNative: number[] }> {
  const fetchFolio: number[] = [];
  const fetchNative: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    await alternate(
      i,
      async () => {
        const cache = await openCache({
          root: path.join(work, 'caches'),
          scope: { organizationId: 'bench', spaceId: 'bench' },
          url: server.url('fetch'),
          ref: 'main',
          repoCacheID: `cold-${i}`,
        });
        fetchFolio.push(await time(() => fetchRef({ policy: loopbackPolicy, cache, url: server.url('fetch'), ref: 'main', depth: 1 })));
      },
      async () => {
        const dir = path.join(work, `native-${i}.git`);
        fetchNative.push(await time(() => runGit(['clone', '--quiet', '--depth', '1', '--bare', server.url('fetch'), dir])));
      },
    );
  }
  return { fetchFolio, fetchNative };
}

/** commitPush: one-file commit + push, each side on its own copy of the repository, alternated. */
async function measurePush(server: Server, work: string): Promise<{ pushFolio: number[]; pushNative: number[] }> {
  const cache = await openCache({
    root: path.join(work, 'caches'),
    scope: { organizationId: 'bench', spaceId: 'bench' },
    url: server.url('push-folio'),
    ref: 'main',
    repoCacheID: 'push',
  });
  let head = (await fetchRef({ policy: loopbackPolicy, cache, url: server.url('push-folio'), ref: 'main' })).commit;
  const clone = path.join(work, 'native-clone');
  await runGit(['clone', '--quiet', '--depth', '1', server.url('push-native'), clone]);
  const pushFolio: number[] = [];
  const pushNative: number[] = [];
  const author = { name: 'Folio Bench', email: 'bench@folio.invalid' };
  for (let i = 0; i < RUNS; i++) {
    const body = `# Bench page ${i}\n\nChanged at run ${i}.\n`;
    const folio = async () => {
      const tree = await writeTree(cache, head, new Map([['bench/page.md', new TextEncoder().encode(body)]]));
      const oid = await commit(cache, { tree, parents: [head], message: `Bench ${i}`, author, trailers: { 'Folio-Revision': `bench-${i}` } });
      await push({ policy: loopbackPolicy, cache, url: server.url('push-folio'), ref: 'main', commit: oid });
      head = oid;
    };
    const native = async () => {
      await writeFile(path.join(clone, 'bench-page.md'), body);
      await runGit(['add', 'bench-page.md'], { cwd: clone });
      await runGit(['commit', '--quiet', '-m', `Bench ${i}`], { cwd: clone });
      await runGit(['push', '--quiet', 'origin', 'main'], { cwd: clone });
    };
    await alternate(
      i,
      async () => void pushFolio.push(await time(folio)),
      async () => void pushNative.push(await time(native)),
    );
  }
  return { pushFolio, pushNative };
}

async function main(): Promise<void> {
  const work = await mkdtemp(path.join(tmpdir(), 'folio-bench-git-'));
  const server = await startGitServer();
  try {
    const source = path.join(CORPUS, REPO);
    const content = await dirStats(source);
    await setup(server, work, source);
    const { fetchFolio, fetchNative } = await measureFetch(server, work);
    const { pushFolio, pushNative } = await measurePush(server, work);
    const result = {
      bench: 'git-transport',
      repository: REPO,
      files: content.files,
      bytes: content.bytes,
      runs: RUNS,
      server: 'git http-backend over Node http, 127.0.0.1',
      node: process.version,
      git: execFileSync('git', ['--version'], { encoding: 'utf8' }).trim(),
      fetchCold: { what: 'depth-1 fetch into an empty bare repository', native: 'git clone --depth 1 --bare', ...summary(fetchFolio, fetchNative) },
      commitPush: { what: 'one changed file: write tree, commit, push', native: 'git add + git commit + git push', ...summary(pushFolio, pushNative) },
    };
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } finally {
    await server.stop();
    await rm(work, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exitCode = 1;
});
