/**
 * The concurrency scenario of issue 10 (used by test/gitsync/concurrency.e2e.test.ts at 10 + 10 and by
 * bench/concurrency.ts at 50 + 50): N spaces, each with its own small repository; two Folio worker *processes*
 * (test/gitsync/worker-process.ts) on one task queue and one database (`databaseUrl`: a pglite-server, as
 * `npm start` runs it, or a PostgreSQL server); N import workflows started at once, then N export workflows (each
 * space to a new empty repository) at once. Reports every run's outcome and duration, and checks each space:
 * exactly one revision (the import's, primary, with the repository's pages byte for byte) and an exported branch
 * holding the repository's files byte for byte.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import type { Client } from '@temporalio/client';
import { projectRoot } from '../../src/project-root.js';
import type { Store } from '../../src/store/index.js';
import { workflowIds, type GitOperationResult, type GitSyncRequest } from '../../src/temporal/contract/index.js';
import { runGit, type GitServer } from './git-server.js';
import { LOOPBACK_ALLOW_HOSTS } from './loopback-policy.js';

export interface ConcurrentSyncOptions {
  /** Spaces (= imports = exports). */
  n: number;
  databaseUrl: string;
  /** A store on `databaseUrl` in this process (creates the spaces, checks the result). */
  store: Store;
  client: Client;
  temporalAddress: string;
  workflowBundlePath: string;
  /** The compiled worker-process.js to run with plain node (test/setup/compiled-build.ts); else the source under tsx. */
  compiledWorkerProcess?: string;
  /** file: URL of a compiled parse thread for the workers' parse pools; else their threads compile the sources. */
  compiledParseThread?: string;
  taskQueue: string;
  gitServer: GitServer;
  /** Scratch directory (worker data directories, repository sources). */
  work: string;
  /** Worker processes (default 2). */
  workers?: number;
}

export interface RunOutcome {
  spaceId: string;
  direction: 'import' | 'export';
  ok: boolean;
  ms: number;
  outcome?: string;
  error?: string;
}

export interface SpaceCheck {
  spaceId: string;
  /** What is wrong with the space's end state; empty when it is exactly as expected. */
  problems: string[];
}

export interface ConcurrentSyncResult {
  imports: RunOutcome[];
  exports: RunOutcome[];
  spaces: SpaceCheck[];
  /** Wall-clock milliseconds of each phase. */
  importWallMs: number;
  exportWallMs: number;
}

const PAGES = 3;
const ORG = 'concurrency-org';

/** The files of space `i`'s repository: distinct per space, so content landing in the wrong space shows. */
function repoFiles(i: number): Map<string, string> {
  const files = new Map<string, string>();
  files.set('README.md', `# Space ${i}\n\nHome of space ${i}.\n`);
  for (let p = 1; p < PAGES; p++) files.set(`page-${p}.md`, `# Page ${p} of space ${i}\n\nBody ${p} of space ${i}.\n`);
  return files;
}

/** Repository names of one run (its scratch directory's name), so runs can share a git server. */
function repoName(options: ConcurrentSyncOptions, kind: 'src' | 'out', i: number): string {
  return `${path.basename(options.work)}-${kind}-${i}`;
}

interface WorkerChild {
  child: ChildProcess;
  stderr(): string;
}

async function startWorkerProcess(options: ConcurrentSyncOptions, dataDir: string): Promise<WorkerChild> {
  const root = projectRoot();
  const entry = options.compiledWorkerProcess ? [options.compiledWorkerProcess] : ['--import', 'tsx', path.join(root, 'test/gitsync/worker-process.ts')];
  const child = spawn(process.execPath, entry, {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: options.databaseUrl,
      TASK_QUEUE: options.taskQueue,
      TEMPORAL_ADDRESS: options.temporalAddress,
      WORKFLOW_BUNDLE: options.workflowBundlePath,
      ...(options.compiledParseThread ? { COMPILED_PARSE_THREAD: options.compiledParseThread } : {}),
      DATA_DIR: dataDir,
      FOLIO_VAULT_KEY: 'concurrency-test-vault-key',
      FETCH_ALLOW_HOSTS: LOOPBACK_ALLOW_HOSTS,
      LOG_LEVEL: 'error',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  let out = '';
  child.stderr!.on('data', (c: Buffer) => (stderr = (stderr + String(c)).slice(-20_000)));
  await new Promise<void>((resolve, reject) => {
    child.stdout!.on('data', (c: Buffer) => {
      out += String(c);
      if (out.split('\n').includes('ready')) resolve();
    });
    child.once('exit', (code, signal) => reject(new Error(`worker process exited (${code ?? signal}) before it was ready: ${stderr.slice(-2000)}`)));
  });
  return { child, stderr: () => stderr };
}

async function stopWorkerProcess(w: WorkerChild): Promise<void> {
  if (w.child.exitCode !== null || w.child.signalCode !== null) return;
  const exited = new Promise((r) => w.child.once('exit', r));
  w.child.kill('SIGTERM');
  const timer = setTimeout(() => w.child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

function request(direction: 'import' | 'export', spaceId: string, url: string, at: number): GitSyncRequest {
  const timestamp = new Date(Date.UTC(2026, 0, 1) + at * 60_000).toISOString();
  return {
    requestId: `concurrency-${direction}-${spaceId}`,
    direction,
    spaceId,
    organizationId: ORG,
    url,
    ref: 'refs/heads/main',
    timestamp,
    force: false,
    standalone: false,
    projectDirectory: '',
    receivedAt: timestamp,
    ...(direction === 'export' ? { commitMessage: `Export of ${spaceId}` } : {}),
  };
}

async function runAll(client: Client, taskQueue: string, requests: GitSyncRequest[]): Promise<RunOutcome[]> {
  return Promise.all(
    requests.map(async (r) => {
      const started = performance.now();
      const workflowId = r.direction === 'import' ? workflowIds.gitImport(r.spaceId, r.requestId) : workflowIds.gitExport(r.spaceId, r.requestId);
      try {
        const handle = await client.workflow.start(r.direction === 'import' ? 'gitImportWorkflow' : 'gitExportWorkflow', { workflowId, taskQueue, args: [r] });
        const result = (await handle.result()) as GitOperationResult;
        return { spaceId: r.spaceId, direction: r.direction, ok: result.outcome === 'applied', ms: performance.now() - started, outcome: result.outcome };
      } catch (err) {
        const messages: string[] = [];
        for (let e: unknown = err; e instanceof Error; e = (e as { cause?: unknown }).cause) messages.push(e.message);
        return { spaceId: r.spaceId, direction: r.direction, ok: false, ms: performance.now() - started, error: messages.join(' ← ') };
      }
    }),
  );
}

async function checkSpace(options: ConcurrentSyncOptions, spaceId: string, i: number): Promise<SpaceCheck> {
  const { store, gitServer } = options;
  const problems: string[] = [];
  const expected = repoFiles(i);
  const revisions = (await store.revisions.listForSpace(spaceId, { limit: 100 })).items;
  if (revisions.length !== 1) problems.push(`${revisions.length} revisions instead of 1`);
  const revision = revisions[0];
  const space = await store.spaces.get(spaceId);
  if (revision) {
    if (revision.type !== 'git-import') problems.push(`revision type ${revision.type}`);
    if (space?.revisionId !== revision.id) problems.push(`primary revision ${space?.revisionId} is not the import's ${revision.id}`);
    if (revision.pageCount !== PAGES) problems.push(`${revision.pageCount} pages instead of ${PAGES}`);
    const bodies = new Set<string>();
    const walk = async (pages: Awaited<ReturnType<Store['revisions']['pages']>>) => {
      for (const p of pages) {
        const body = await store.revisions.pageBody(revision.id, p.id);
        if (body) bodies.add(new TextDecoder().decode(body));
        await walk(p.children);
      }
    };
    await walk(await store.revisions.pages(revision.id));
    for (const [file, text] of expected)
      if (![...bodies].some((b) => b.includes(text.split('\n')[2]!))) problems.push(`the revision lacks the body of ${file}`);
  }
  const exported = path.join(gitServer.root, `${repoName(options, 'out', i)}.git`);
  let names: string[] = [];
  try {
    names = (await runGit(['ls-tree', '-r', '--name-only', 'main'], { cwd: exported })).split('\n').filter(Boolean);
  } catch (err) {
    problems.push(`no exported branch: ${(err as Error).message.split('\n')[0]}`);
  }
  if (names.length) {
    for (const [file, text] of expected) {
      if (!names.includes(file)) problems.push(`export lacks ${file}`);
      else if ((await runGit(['show', `main:${file}`], { cwd: exported })) !== text) problems.push(`export has other bytes in ${file}`);
    }
  }
  return { spaceId, problems };
}

/** Runs the scenario; the caller owns the store, client and git server (and removes `work`). */
export async function runConcurrentSync(options: ConcurrentSyncOptions): Promise<ConcurrentSyncResult> {
  const { n, store, gitServer } = options;
  await store.orgs.ensure({ id: ORG, title: 'Concurrency' });
  const spaces: string[] = [];
  for (let i = 0; i < n; i++) {
    const dir = path.join(options.work, `src-${i}`);
    await mkdir(dir, { recursive: true });
    for (const [file, text] of repoFiles(i)) await writeFile(path.join(dir, file), text);
    await gitServer.createBareRepo(repoName(options, 'src', i), { fromDir: dir, branch: 'main', message: `space ${i}` });
    await gitServer.createBareRepo(repoName(options, 'out', i), { branch: 'main' });
    await rm(dir, { recursive: true, force: true });
    spaces.push((await store.spaces.create(ORG, { title: `Concurrency ${i}` })).id);
  }
  const workers: WorkerChild[] = [];
  try {
    const count = options.workers ?? 2;
    workers.push(...(await Promise.all(Array.from({ length: count }, (_, w) => startWorkerProcess(options, path.join(options.work, `worker-${w}`))))));
    let t = performance.now();
    const imports = await runAll(
      options.client,
      options.taskQueue,
      spaces.map((s, i) => request('import', s, gitServer.url(repoName(options, 'src', i)), 1)),
    );
    const importWallMs = performance.now() - t;
    t = performance.now();
    const exports = await runAll(
      options.client,
      options.taskQueue,
      spaces.map((s, i) => request('export', s, gitServer.url(repoName(options, 'out', i)), 2)),
    );
    const exportWallMs = performance.now() - t;
    const checks: SpaceCheck[] = [];
    for (let i = 0; i < n; i++) checks.push(await checkSpace(options, spaces[i]!, i));
    return { imports, exports, spaces: checks, importWallMs, exportWallMs };
  } finally {
    await Promise.all(workers.map(stopWorkerProcess));
  }
}
