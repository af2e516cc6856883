/**
 * End-to-end git sync benchmark (issue 17): the running service exactly as `npm start` runs it (`folio start` on free
 * ports: the embedded database server, a Temporal dev server, a worker and the API as child processes), driven
 * through the HTTP API, against the real git HTTP server of the tests (`git http-backend` on 127.0.0.1). Two
 * repositories: the largest of the corpus (pgsql-tw+gitbook-docs) and a generated one of 5,000 pages; and a 3-page
 * one. Baselines run in the same process and are alternated with Folio's runs (odd runs baseline first):
 * - cold import: `git clone --depth 1` + a remark-parse + remark-gfm + remark-frontmatter parse of exactly the pages
 *   Folio imports (the converter's own page selection, computed once before timing);
 * - incremental import of one changed file: `git pull` in that clone + the parse of the changed file;
 * - one-page export after a merged change request: `git pull` + edit + commit + push of one page;
 * - tiny (3-page) import: its clone + parse; no-op import (same commit again): a `git pull` with nothing new.
 * Each timed step, Folio's or the baseline's, starts once the service has no run left in the background (`settle`: the
 * search indexing an import starts, which would otherwise load the next step) and a quiet second has passed
 * (BENCH_QUIET_MS; `tiny_noop_back_to_back` measures a no-op without it). A cold import runs in a new organization each time (the parse cache is per organization); the "second space" is
 * another space of that organization importing the same commit. Memory is read from /proc of the child processes
 * (VmRSS after start, VmHWM: the peak since start). The first import after the worker starts is compared with the
 * later ones (warm-up). Prints one JSON line per measure: medians, the runs, the ratio against its baseline, the
 * issue's goal, the load average and `phasesMs`: per phase of the import or export activity (its `timingsMs`, read from the
 * workflow's result after the timed part), the median over the measure's operations; then one summary object (what
 * `npm run bench` keeps).
 * Requires `npm run build` (it starts dist/src/cli/folio.js). Run: npx tsx bench/git-sync-e2e.ts  (BENCH_RUNS, default 3;
 * BENCH_PAGES, default 5000; BENCH_REPOS=corpus,generated to pick)
 */
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { appendFile, cp, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import readline from 'node:readline';
import { promisify } from 'node:util';
import remarkFrontmatter from 'remark-frontmatter';
import remarkGfm from 'remark-gfm';
import remarkParse from 'remark-parse';
import { Client, Connection } from '@temporalio/client';
import { unified } from 'unified';
import { documents, importTree, inlinePageCodec, readWorkingTree, type PageCodecRunner } from '../src/format/index.js';
import { corpusDir, projectRoot } from '../src/project-root.js';
import { workflowIds, type GitOperationResult } from '../src/temporal/contract/index.js';
import { freePort } from '../test/helpers/free-port.js';
import { gitEnv, runGit, startGitServer, type GitServer } from '../test/helpers/git-server.js';
import { LOOPBACK_ALLOW_HOSTS } from '../test/helpers/loopback-policy.js';
import { median, projectDirectoryOf } from './_helpers.js';

const RUNS = Math.max(1, Number(process.env.BENCH_RUNS ?? 3));
const GENERATED_PAGES = Math.max(3, Number(process.env.BENCH_PAGES ?? 5000));
const REPOS = (process.env.BENCH_REPOS ?? 'corpus,generated').split(',');
/**
 * How long a timed step waits once nothing runs any more. The Temporal dev server dispatches the tasks of an operation
 * started within about a second of the previous one's end 30-50 ms later each (a no-op import: 200-250 ms instead of
 * 100-120; not CPU, not task-queue partitions, not SQLite's syncs, not the worker's pollers: measured); the
 * `tiny_noop_back_to_back` measure shows that case.
 */
const QUIET_MS = Math.max(0, Number(process.env.BENCH_QUIET_MS ?? 1000));
const CORPUS_REPO = 'pgsql-tw+gitbook-docs';
const entry = path.join(projectRoot(), 'dist', 'src', 'cli', 'folio.js');
const execFileP = promisify(execFile);
const TOKEN = `folio_bench_${Math.random().toString(36).slice(2)}${Math.random().toString(36).slice(2)}`;

const round = (x: number) => Math.round(x * 10) / 10;
const load = () => os.loadavg().map((x) => Math.round(x * 100) / 100);
const time = async <T>(fn: () => Promise<T>): Promise<[number, T]> => {
  const t = performance.now();
  const r = await fn();
  return [performance.now() - t, r];
};
const lines: Record<string, unknown>[] = [];
function emit(line: Record<string, unknown>): void {
  const key = `${String(line.repository ?? '')}:${String(line.measure)}`;
  const phasesMs = phaseMedians(key);
  const out = { ...line, ...(phasesMs ? { phasesMs } : {}), loadAverage: load() };
  lines.push(out);
  process.stdout.write(JSON.stringify(out) + '\n');
}
const stats = (xs: number[]) => ({ median: round(median(xs)), runs: xs.map(round) });

// ---------------------------------------------------------------- content

/** A generated GitBook repository of `n` pages in directories of 100, with the constructs real pages have. */
async function generateRepo(dir: string, n: number): Promise<void> {
  await mkdir(dir, { recursive: true });
  const summary = ['# Table of contents', '', '* [Introduction](README.md)'];
  await writeFile(path.join(dir, 'README.md'), '# Introduction\n\nA generated documentation site for the benchmark.\n');
  for (let i = 1; i < n; i++) {
    const group = `part-${String(Math.floor((i - 1) / 100)).padStart(3, '0')}`;
    if ((i - 1) % 100 === 0) {
      await mkdir(path.join(dir, group), { recursive: true });
      summary.push('', `## Part ${group.slice(5)}`, '');
    }
    const file = `${group}/page-${String(i).padStart(5, '0')}.md`;
    summary.push(`* [Page ${i}](${file})`);
    const body = [
      '---',
      `description: Page number ${i} of the generated site`,
      i % 7 === 0 ? 'icon: book' : undefined,
      '---',
      '',
      `# Page ${i}`,
      '',
      `This is page **${i}**: it links to [the introduction](../README.md) and to [page ${i - 1 || 1}](${i > 1 ? `../${`part-${String(Math.floor((i - 2) / 100)).padStart(3, '0')}`}/page-${String(i - 1).padStart(5, '0')}.md` : '../README.md'}).`,
      '',
      '## Steps',
      '',
      ...Array.from({ length: 6 }, (_, k) => `${k + 1}. Step ${k + 1} of page ${i}, with \`code ${k}\` and _emphasis_.`),
      '',
      '| option | default | meaning |',
      '| --- | --- | --- |',
      ...Array.from({ length: 5 }, (_, k) => `| opt${k} | ${i * k} | what option ${k} of page ${i} does |`),
      '',
      '{% hint style="info" %}',
      `A hint on page ${i}.`,
      '{% endhint %}',
      '',
      '```js',
      `export const page = ${i};`,
      `console.log(page * ${i % 13});`,
      '```',
      '',
      '- [ ] an open task',
      '- [x] a finished task',
      '',
      `Lorem ipsum dolor sit amet, consectetur adipiscing elit ${i}. Sed do eiusmod tempor incididunt ut labore et dolore magna aliqua.`,
      '',
    ]
      .filter((l) => l !== undefined)
      .join('\n');
    await writeFile(path.join(dir, file), body);
  }
  await writeFile(path.join(dir, 'SUMMARY.md'), summary.join('\n') + '\n');
}

/** The repository paths of the pages Folio imports from a checkout (the converter's selection; parsing stubbed). */
async function importedPagePaths(dir: string, projectDirectory: string): Promise<string[]> {
  const stub: PageCodecRunner = {
    concurrency: 8,
    decode: () => Promise.resolve({ fields: { frontMatter: null, frontMatterValid: true, hidden: false, noIndex: false }, urls: [], warnings: [] }),
    encode: (t) => Promise.resolve(t),
    serializeNew: (t) => Promise.resolve(t),
    reserialize: (t) => Promise.resolve(t),
    parseConfig: (text, p) => inlinePageCodec.parseConfig(text, p),
    parseSummary: (text, p) => inlinePageCodec.parseSummary(text, p),
  };
  const tree = await readWorkingTree(dir);
  const { revision } = await importTree(tree, { projectDirectory, codec: stub, limits: { maxPages: 100_000 } });
  return [...documents(revision.pages)].map((p) => p.git?.path).filter((p): p is string => typeof p === 'string');
}

const processor = unified().use(remarkParse).use(remarkGfm).use(remarkFrontmatter, ['yaml']);
async function parseFiles(dir: string, files: string[]): Promise<void> {
  for (const f of files) processor.parse(await readFile(path.join(dir, f), 'utf8'));
}

// ---------------------------------------------------------------- the running service

interface Service {
  child: ChildProcess;
  api: string;
  /** A client of the service's Temporal dev server: the operations' results (their phase timings). */
  temporal: Client;
  env: NodeJS.ProcessEnv;
  output: string[];
}

async function startService(dataDir: string): Promise<Service> {
  const [port, temporalPort, uiPort] = [await freePort(), await freePort(), await freePort()];
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATA_DIR: dataDir,
    PORT: String(port),
    TEMPORAL_PORT: String(temporalPort),
    TEMPORAL_UI_PORT: String(uiPort),
    // BENCH_LOG_LEVEL=info: the service's info lines (the import activity's phase timings) go to stderr at its stop.
    LOG_LEVEL: process.env.BENCH_LOG_LEVEL ?? 'warn',
    FOLIO_LOG_PRETTY: '0',
    FOLIO_BOOTSTRAP_ORG: 'bench',
    FOLIO_BOOTSTRAP_TOKEN: TOKEN,
    FETCH_ALLOW_HOSTS: LOOPBACK_ALLOW_HOSTS,
    FOLIO_GIT_MAX_PAGES: String(Math.max(5000, GENERATED_PAGES + 10)),
  };
  delete env.DATABASE_URL;
  delete env.TEMPORAL_ADDRESS;
  const child = spawn(process.execPath, [entry, 'start'], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  const output: string[] = [];
  for (const s of [child.stdout!, child.stderr!]) readline.createInterface({ input: s }).on('line', (l) => output.push(l));
  const api = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 180_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`folio start exited:\n${output.slice(-30).join('\n')}`);
    try {
      if ((await fetch(`${api}/healthz`)).status === 200) break;
    } catch {
      // not yet
    }
    if (Date.now() > deadline) throw new Error(`folio start not healthy:\n${output.slice(-30).join('\n')}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  const temporal = new Client({ connection: await Connection.connect({ address: `127.0.0.1:${temporalPort}` }), namespace: 'default' });
  return { child, api, env, output, temporal };
}

/**
 * Waits until the service has no work left in the background (a search indexing started by an earlier import, any
 * other run but the idle git queues), so that each timed step, Folio's or the baseline's, starts on a quiet service.
 */
async function settle(s: Service, quietMs = QUIET_MS): Promise<void> {
  const deadline = Date.now() + 120_000;
  const query = `ExecutionStatus = 'Running' AND WorkflowType != 'gitQueueWorkflow'`;
  for (;;) {
    const { count } = await s.temporal.workflow.count(query);
    if (count === 0 || Date.now() > deadline) break;
    await new Promise((r) => setTimeout(r, 50));
  }
  await new Promise((r) => setTimeout(r, quietMs));
}

async function stopService(s: Service): Promise<void> {
  await s.temporal.connection.close().catch(() => undefined);
  if (process.env.BENCH_LOG_LEVEL) for (const line of s.output) if (line.includes('timingsMs')) process.stderr.write(`bench: service: ${line}\n`);
  if (s.child.exitCode !== null) return;
  const exited = new Promise((r) => s.child.once('exit', r));
  s.child.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 20_000))]);
  if (s.child.exitCode === null) s.child.kill('SIGKILL');
}

/** The supervised children of `folio start` by role (`db-server`, `worker`, `api`, …), from /proc. */
function childrenByRole(pid: number): Map<string, number> {
  const out = new Map<string, number>();
  for (const name of existsSync('/proc') ? readdirSyncSafe('/proc') : []) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid !== pid) continue;
      const argv = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0');
      const i = argv.findIndex((a) => a.endsWith('folio.js'));
      if (i >= 0 && argv[i + 1]) out.set(argv[i + 1]!, Number(name));
    } catch {
      // gone
    }
  }
  return out;
}
function readdirSyncSafe(dir: string): string[] {
  try {
    return readdirSync(dir);
  } catch {
    return [];
  }
}
/** VmRSS and VmHWM (peak) of a process, in MB. */
function memoryOf(pid: number | undefined): { rssMB: number; peakMB: number } | null {
  if (!pid) return null;
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (k: string) => Number(new RegExp(`^${k}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? NaN);
    return { rssMB: Math.round(kb('VmRSS') / 1024), peakMB: Math.round(kb('VmHWM') / 1024) };
  } catch {
    return null;
  }
}

async function cli(s: Service, args: string[]): Promise<string> {
  const { stdout } = await execFileP(process.execPath, [entry, ...args], { env: s.env });
  return stdout;
}

/** The phase timings (`timingsMs`) of the operations of one measure, by measure. */
const phases = new Map<string, Array<Record<string, number>>>();
const pendingPhases: Promise<void>[] = [];
/** Per phase, the median over the measure's operations (a phase missing from an operation counts 0 there). */
function phaseMedians(measure: string): Record<string, number> | undefined {
  const runs = phases.get(measure);
  if (!runs?.length) return undefined;
  const keys = [...new Set(runs.flatMap((r) => Object.keys(r)))];
  return Object.fromEntries(keys.map((k) => [k, round(median(runs.map((r) => r[k] ?? 0)))]));
}

class Api {
  constructor(
    private readonly base: string,
    private readonly token: string,
    private readonly temporal: Client,
  ) {}
  async call(method: string, p: string, body?: unknown): Promise<unknown> {
    const res = await fetch(this.base + p, {
      method,
      headers: { authorization: `Bearer ${this.token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
      ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    });
    const text = await res.text();
    if (res.status >= 400) throw new Error(`${method} ${p}: ${res.status} ${text.slice(0, 500)}`);
    return text ? JSON.parse(text) : undefined;
  }
  /** The operation's phase timings, read from its workflow's result after the timed part (not awaited by it). */
  private keepPhases(measure: string, spaceId: string, direction: 'import' | 'export', requestId: string): void {
    const workflowId = direction === 'import' ? workflowIds.gitImport(spaceId, requestId) : workflowIds.gitExport(spaceId, requestId);
    pendingPhases.push(
      this.temporal.workflow
        .getHandle(workflowId)
        .result()
        .then((r: GitOperationResult) => {
          if (!phases.has(measure)) phases.set(measure, []);
          phases.get(measure)!.push(r.timingsMs ?? {});
        })
        .catch(() => undefined),
    );
  }
  async space(org: string, title: string): Promise<string> {
    return ((await this.call('POST', `/v1/orgs/${org}/spaces`, { title })) as { id: string }).id;
  }
  /** Queues an import or export and waits for its entry in the request log; resolves with it (throws on failure). */
  /** Queues an import or export and waits for its entry in the request log; resolves with it (throws on failure). With `measure`, keeps its phase timings. */
  async sync(spaceId: string, direction: 'import' | 'export', body: Record<string, unknown>, measure?: string): Promise<{ status: string; message?: string }> {
    const timestamp = new Date().toISOString();
    await this.call('POST', `/v1/spaces/${spaceId}/git/${direction}`, { ...body, timestamp });
    const deadline = Date.now() + 600_000;
    for (;;) {
      const info = (await this.call('GET', `/v1/spaces/${spaceId}/git/info`)) as {
        requests?: Array<{ requestId: string; timestamp: string; status: string; message?: string; code?: string }>;
      };
      const mine = info.requests?.find((r) => Date.parse(r.timestamp) === Date.parse(timestamp));
      if (mine && mine.status !== 'queued' && mine.status !== 'running') {
        if (mine.status !== 'succeeded' && mine.status !== 'noop') throw new Error(`${direction} ${mine.status}: ${mine.code ?? ''} ${mine.message ?? ''}`);
        if (measure) this.keepPhases(measure, spaceId, direction, mine.requestId);
        return mine;
      }
      if (Date.now() > deadline) throw new Error(`${direction} did not finish`);
      await new Promise((r) => setTimeout(r, 20));
    }
  }
}

async function newOrg(s: Service, id: string): Promise<Api> {
  await cli(s, ['org', 'create', id, '--title', id]);
  const out = await cli(s, ['token', 'create', '--org', id]);
  const token = /folio_[A-Za-z0-9_-]+/.exec(out)?.[0];
  if (!token) throw new Error(`no token in: ${out}`);
  return new Api(s.api, token, s.temporal);
}

// ---------------------------------------------------------------- scenarios

interface Repo {
  name: string;
  url: string;
  projectDirectory: string;
  pages: string[];
  /** A full clone that pushes the benchmark's edits. */
  editor: string;
}

async function prepareRepo(server: GitServer, work: string, name: string, fill: (dir: string) => Promise<void>, projectDirectory: string): Promise<Repo> {
  const src = path.join(work, `${name}-src`);
  await fill(src);
  await server.createBareRepo(name, { fromDir: src, branch: 'main', message: `${name}: initial` });
  const url = server.url(name);
  const pages = await importedPagePaths(src, projectDirectory);
  const editor = path.join(work, `${name}-editor`);
  await runGit(['clone', '--quiet', url, editor]);
  return { name, url, projectDirectory, pages, editor };
}

async function pushEdit(repo: Repo, file: string, line: string): Promise<void> {
  await runGit(['pull', '--quiet', '--ff-only'], { cwd: repo.editor });
  await appendFile(path.join(repo.editor, file), `\n${line}\n`);
  await runGit(['commit', '--quiet', '-am', `edit ${file}`], { cwd: repo.editor });
  await runGit(['push', '--quiet', 'origin', 'HEAD:main'], { cwd: repo.editor });
}

const git = (args: string[], cwd?: string) => execFileP('git', args, { cwd, env: gitEnv() });

/** Runs the two timed steps in the run's order (the baseline first on odd runs), each on a settled service. */
async function alternated(s: Service, baselineFirst: boolean, native: () => Promise<void>, folio: () => Promise<void>): Promise<void> {
  for (const step of baselineFirst ? [native, folio] : [folio, native]) {
    await settle(s);
    await step();
  }
}

type RepoTimings = Record<'cold' | 'nativeCold' | 'second' | 'incr' | 'nativeIncr' | 'exp' | 'nativeExp' | 'noop' | 'nativeNoop', number[]>;

/** One run of a repository: its organization, its space, the native clone, and where the timings go. */
interface RepoRun {
  s: Service;
  repo: Repo;
  t: RepoTimings;
  run: number;
  baselineFirst: boolean;
  clone: string;
  orgId: string;
  org: Api;
  space: string;
  body: Record<string, unknown>;
  /** Upstream edits go to the last page; the change request edits the first leaf page: no conflict between them. */
  editedPage: string;
}

/** Cold import in a new organization against clone + parse; then a second space of it from the same commit (the parse cache). */
async function measureColdAndSecond(r: RepoRun): Promise<void> {
  const { s, repo, t, run, clone, org, orgId } = r;
  const nativeCold = async () => {
    await rm(clone, { recursive: true, force: true });
    const [ms] = await time(async () => {
      await git(['clone', '--quiet', '--depth', '1', '--branch', 'main', repo.url, clone]);
      await parseFiles(clone, repo.pages);
    });
    t.nativeCold.push(ms);
  };
  const folioCold = async () => {
    r.space = await org.space(orgId, `cold ${run}`);
    const [ms] = await time(() => org.sync(r.space, 'import', r.body, `${repo.name}:cold_import`));
    t.cold.push(ms);
  };
  await alternated(s, r.baselineFirst, nativeCold, folioCold);

  // A second space of the organization, from the same commit: the parse cache.
  const second = await org.space(orgId, `second ${run}`);
  await settle(s);
  const [secondMs, secondResult] = await time(() => org.sync(second, 'import', r.body, `${repo.name}:second_space_import`));
  t.second.push(secondMs);
  if (run === 0) process.stderr.write(`bench: second space: ${secondResult.message ?? ''}\n`);
}

/** Incremental: one file changed upstream; Folio's import against pull + parse of that file. */
async function measureIncremental(r: RepoRun): Promise<void> {
  const { repo, t, run, clone, org } = r;
  await pushEdit(repo, r.editedPage, `Edited in run ${run} (${Date.now()}).`);
  const nativeIncr = async () => {
    const [ms] = await time(async () => {
      await git(['pull', '--quiet', '--ff-only'], clone);
      await parseFiles(clone, [r.editedPage]);
    });
    t.nativeIncr.push(ms);
  };
  const folioIncr = async () => {
    const [ms, res] = await time(() => org.sync(r.space, 'import', r.body, `${repo.name}:incremental_import`));
    t.incr.push(ms);
    if (run === 0) process.stderr.write(`bench: incremental: ${res.message ?? ''}\n`);
  };
  await alternated(r.s, r.baselineFirst, nativeIncr, folioIncr);
}

/** One-page export after a merged change request, against a native pull + edit + commit + push. */
async function measureExport(r: RepoRun): Promise<void> {
  const { repo, t, run, org, space } = r;
  const pages = (await org.call('GET', `/v1/spaces/${space}/content/pages`)) as { pages: Array<{ id: string; pages?: unknown[] }> };
  const pageId = pages.pages.find((p) => p.pages === undefined || p.pages.length === 0)?.id ?? pages.pages[0]!.id;
  const page = (await org.call('GET', `/v1/spaces/${space}/content/page/${pageId}?format=markdown`)) as { markdown: string };
  const cr = (await org.call('POST', `/v1/spaces/${space}/change-requests`, { subject: `bench ${run}` })) as { id: string };
  await org.call('POST', `/v1/spaces/${space}/change-requests/${cr.id}/content`, {
    changes: [{ operation: 'update_page', page: pageId, document: { markdown: `${page.markdown}\n\nChanged through a change request, run ${run}.\n` } }],
  });
  await org.call('POST', `/v1/spaces/${space}/change-requests/${cr.id}/merge`);
  const nativeExport = async () => {
    const [ms] = await time(async () => {
      await git(['pull', '--quiet', '--ff-only'], repo.editor);
      await appendFile(path.join(repo.editor, r.editedPage), `\nNative edit, run ${run}.\n`);
      await git(['commit', '--quiet', '-am', 'native edit'], repo.editor);
      await git(['push', '--quiet', 'origin', 'HEAD:main'], repo.editor);
    });
    t.nativeExp.push(ms);
  };
  const folioExport = async () => {
    const [ms] = await time(() => org.sync(space, 'export', { ...r.body, commitMessage: `Folio export, run ${run}` }, `${repo.name}:one_page_export`));
    t.exp.push(ms);
  };
  // The export must see the native edit's commit (it checks for conflicts against it) — or the native edit the
  // export's: either way both are timed from the same state.
  await alternated(r.s, r.baselineFirst, nativeExport, folioExport);
}

/** No-op: the space imports the commit it already holds (pull first so both sides start from the head). */
async function measureNoop(r: RepoRun): Promise<void> {
  const { repo, t, clone, org, space } = r;
  await org.sync(space, 'import', r.body);
  await git(['pull', '--quiet', '--ff-only'], clone);
  const nativeNoop = async () => {
    const [ms] = await time(() => git(['pull', '--quiet', '--ff-only'], clone));
    t.nativeNoop.push(ms);
  };
  const folioNoop = async () => {
    const [ms, res] = await time(() => org.sync(space, 'import', r.body, `${repo.name}:noop_import`));
    if (res.status !== 'noop') throw new Error(`expected a no-op import, got ${res.status}: ${res.message ?? ''}`);
    t.noop.push(ms);
  };
  await alternated(r.s, r.baselineFirst, nativeNoop, folioNoop);
}

/** Report: one line per measure of a repository. */
function reportRepo(repo: Repo, t: RepoTimings): void {
  const repoInfo = { repository: repo.name, pages: repo.pages.length };
  const vsNative = (folio: number[], native: number[]) => ({ folioMs: stats(folio), nativeMs: stats(native), ratio: round(median(folio) / median(native)) });
  emit({ measure: 'cold_import', ...repoInfo, ...vsNative(t.cold, t.nativeCold), goal: '≤ 1.1× native at 5,000 pages' });
  emit({
    measure: 'second_space_import',
    ...repoInfo,
    folioMs: stats(t.second),
    coldMs: stats(t.cold),
    ratioToCold: round(median(t.second) / median(t.cold)),
    ratio: round(median(t.second) / median(t.nativeCold)),
    goal: '≤ 0.25 of a first cold import',
  });
  emit({
    measure: 'incremental_import',
    ...repoInfo,
    ...vsNative(t.incr, t.nativeIncr),
    percentOfCold: round((100 * median(t.incr)) / median(t.cold)),
    goal: '≤ 3× native pull + parse and ≤ 3% of the cold import',
  });
  emit({ measure: 'one_page_export', ...repoInfo, ...vsNative(t.exp, t.nativeExp), goal: '≤ 2× native pull + edit + commit + push' });
  emit({
    measure: 'noop_import',
    ...repoInfo,
    ...vsNative(t.noop, t.nativeNoop),
    overheadMs: round(median(t.noop) - median(t.nativeNoop)),
    goal: '≤ 150 ms of orchestration over the work',
  });
}

async function benchRepo(s: Service, repo: Repo, work: string, runOffset: number): Promise<Record<string, unknown>> {
  const t: RepoTimings = { cold: [], nativeCold: [], second: [], incr: [], nativeIncr: [], exp: [], nativeExp: [], noop: [], nativeNoop: [] };
  const body = { url: repo.url, ref: 'refs/heads/main', ...(repo.projectDirectory ? { projectDirectory: repo.projectDirectory } : {}) };
  const editedPage = repo.pages[repo.pages.length - 1]!;
  for (let run = 0; run < RUNS; run++) {
    const clone = path.join(work, `${repo.name}-native-${run}`);
    const orgId = `bench-${repo.name.replace(/[^A-Za-z0-9]/g, '').slice(0, 20)}-${runOffset + run}`;
    const org = await newOrg(s, orgId);
    const r: RepoRun = { s, repo, t, run, baselineFirst: run % 2 === 1, clone, orgId, org, space: '', body, editedPage };
    await measureColdAndSecond(r);
    await measureIncremental(r);
    await measureExport(r);
    await measureNoop(r);
    await rm(clone, { recursive: true, force: true });
  }
  await Promise.all(pendingPhases);
  reportRepo(repo, t);
  return { cold: median(t.cold), nativeCold: median(t.nativeCold) };
}

/** The tiny (3-page) repository. */
function prepareTiny(server: GitServer, work: string): Promise<Repo> {
  return prepareRepo(
    server,
    work,
    'tiny',
    async (dir) => {
      await mkdir(dir, { recursive: true });
      await writeFile(path.join(dir, 'README.md'), '# Tiny\n\nThree pages.\n');
      await writeFile(path.join(dir, 'a.md'), '# A\n\nFirst page with a [link](b.md).\n');
      await writeFile(path.join(dir, 'b.md'), '---\ndescription: B\n---\n\n# B\n\n| x | y |\n| - | - |\n| 1 | 2 |\n');
      await writeFile(path.join(dir, 'SUMMARY.md'), '# Table of contents\n\n* [Tiny](README.md)\n* [A](a.md)\n* [B](b.md)\n');
    },
    '',
  );
}

type TinyTimings = { first: number } & Record<'tiny' | 'native' | 'noop' | 'nativeNoop' | 'noopBackToBack', number[]>;

/** One tiny run: import against clone + parse, no-op against an empty pull (alternated), then the back-to-back no-op. */
async function tinyRun(s: Service, tiny: Repo, work: string, t: TinyTimings, run: number): Promise<void> {
  const body = { url: tiny.url, ref: 'refs/heads/main' };
  const org = await newOrg(s, `bench-tiny-${run}`);
  const orgId = `bench-tiny-${run}`;
  const clone = path.join(work, `tiny-native-${run}`);
  let space = '';
  const folio = async () => {
    space = await org.space(orgId, `tiny ${run}`);
    const [ms] = await time(() => org.sync(space, 'import', body, 'tiny:tiny_import'));
    t.tiny.push(ms);
  };
  const native = async () => {
    const [ms] = await time(async () => {
      await git(['clone', '--quiet', '--depth', '1', '--branch', 'main', tiny.url, clone]);
      await parseFiles(clone, tiny.pages);
    });
    t.native.push(ms);
  };
  await alternated(s, run % 2 === 1, native, folio);
  const folioNoop = async () => {
    const [ms, r] = await time(() => org.sync(space, 'import', body, 'tiny:tiny_noop_import'));
    if (r.status !== 'noop') throw new Error(`expected a no-op import, got ${r.status}`);
    t.noop.push(ms);
  };
  const nativeNoop = async () => {
    const [ms] = await time(() => git(['pull', '--quiet', '--ff-only'], clone));
    t.nativeNoop.push(ms);
  };
  await alternated(s, run % 2 === 1, nativeNoop, folioNoop);
  // The same no-op, started as soon as nothing runs any more (no quiet time).
  await settle(s, 0);
  const [backToBack, again] = await time(() => org.sync(space, 'import', body, 'tiny:tiny_noop_back_to_back'));
  if (again.status !== 'noop') throw new Error(`expected a no-op import, got ${again.status}`);
  t.noopBackToBack.push(backToBack);
  await rm(clone, { recursive: true, force: true });
}

/** Report: the tiny repository's lines. */
function reportTiny(tiny: Repo, t: TinyTimings): void {
  /** A tiny-repository measure: Folio's runs against the native ones, and the overhead over them. */
  const tinyMeasure = (measure: string, folio: number[], native: number[], goal: string) =>
    emit({
      measure,
      repository: 'tiny',
      pages: tiny.pages.length,
      folioMs: stats(folio),
      nativeMs: stats(native),
      ratio: round(median(folio) / median(native)),
      overheadMs: round(median(folio) - median(native)),
      goal,
    });
  tinyMeasure('tiny_import', t.tiny, t.native, '≤ 150 ms of orchestration over the work');
  tinyMeasure('tiny_noop_import', t.noop, t.nativeNoop, '≤ 150 ms of orchestration over the work');
  tinyMeasure(
    'tiny_noop_back_to_back',
    t.noopBackToBack,
    t.nativeNoop,
    'informational: the no-op started as soon as the previous operation ended (no quiet time)',
  );
  emit({
    measure: 'first_import_warmup',
    repository: 'tiny',
    firstMs: round(t.first),
    laterMs: stats(t.tiny),
    ratio: round(t.first / median(t.tiny)),
    goal: 'no warm-up (ratio ≈ 1)',
  });
}

async function benchTiny(s: Service, server: GitServer, work: string): Promise<void> {
  const tiny = await prepareTiny(server, work);
  const t: TinyTimings = { first: 0, tiny: [], native: [], noop: [], nativeNoop: [], noopBackToBack: [] };
  const api = new Api(s.api, TOKEN, s.temporal);
  // The very first operation of the worker (warm-up), then RUNS alternated runs.
  const firstSpace = await api.space('bench', 'first');
  [t.first] = await time(() => api.sync(firstSpace, 'import', { url: tiny.url, ref: 'refs/heads/main' }));
  for (let run = 0; run < RUNS; run++) await tinyRun(s, tiny, work, t, run);
  await Promise.all(pendingPhases);
  reportTiny(tiny, t);
}

async function main(): Promise<void> {
  if (!existsSync(entry)) throw new Error(`${entry} is missing: run \`npm run build\` first`);
  const work = await mkdtemp(path.join(os.tmpdir(), 'folio-bench-e2e-'));
  const server = await startGitServer();
  let service: Service | undefined;
  try {
    const repos: Repo[] = [];
    if (REPOS.includes('corpus'))
      repos.push(
        await prepareRepo(
          server,
          work,
          'corpus',
          (dir) => cp(path.join(corpusDir(), CORPUS_REPO), dir, { recursive: true, filter: (p) => !p.split(path.sep).includes('.git') }),
          projectDirectoryOf(CORPUS_REPO),
        ),
      );
    if (REPOS.includes('generated'))
      repos.push(await prepareRepo(server, work, `generated${GENERATED_PAGES}`, (dir) => generateRepo(dir, GENERATED_PAGES), ''));
    service = await startService(path.join(work, 'data'));
    await new Promise((r) => setTimeout(r, 3000)); // let the children settle before reading their memory
    const roles = () => childrenByRole(service!.child.pid!);
    const atStart = { db: memoryOf(roles().get('db-server')), worker: memoryOf(roles().get('worker')), api: memoryOf(roles().get('api')) };
    await benchTiny(service, server, work);
    let offset = 0;
    for (const repo of repos) {
      await benchRepo(service, repo, work, offset);
      offset += RUNS;
      const mem = { db: memoryOf(roles().get('db-server')), worker: memoryOf(roles().get('worker')) };
      process.stderr.write(`bench: memory after ${repo.name}: ${JSON.stringify(mem)}\n`);
    }
    const end = { db: memoryOf(roles().get('db-server')), worker: memoryOf(roles().get('worker')), api: memoryOf(roles().get('api')) };
    const largest = Math.max(...repos.map((r) => r.pages.length), 3);
    emit({
      measure: 'db_rss',
      largestPages: largest,
      afterStartMB: atStart.db?.rssMB ?? null,
      peakMB: end.db?.peakMB ?? null,
      endMB: end.db?.rssMB ?? null,
      goal: '≤ 256 MB',
    });
    emit({
      measure: 'worker_rss',
      largestPages: largest,
      afterStartMB: atStart.worker?.rssMB ?? null,
      peakMB: end.worker?.peakMB ?? null,
      endMB: end.worker?.rssMB ?? null,
      goal: '≤ 512 MB',
    });
    emit({ measure: 'api_rss', afterStartMB: atStart.api?.rssMB ?? null, peakMB: end.api?.peakMB ?? null });
  } finally {
    if (service) await stopService(service);
    await server.stop();
    await rm(work, { recursive: true, force: true });
  }
  process.stdout.write(JSON.stringify({ runs: RUNS, measures: lines }) + '\n');
}

await main();
