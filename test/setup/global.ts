/**
 * Vitest global setup, per project (test/vitest.config.ts): each project gets only the fixtures it uses.
 *
 * - every project: a PGlite data directory with Folio's migrations applied, dumped once and kept while the store's
 *   sources are unchanged (a test store starts from it instead of running initdb and every migration), and the
 *   compiled parse thread when dist/ is up to date;
 * - `workflow` and `e2e`: the workflow bundle (dist/workflow-bundle.js when up to date, else bundled here) and
 *   the time-skipping test server's path;
 * - `e2e` and `stress`, with an up-to-date dist/: the worker process of the tests that kill workers, compiled;
 * - `e2e` only: one real Temporal dev server (the official CLI, in memory, headless, on a free port, with Folio's
 *   search attributes and a raised workflow-task timeout).
 *
 * The projects' setups run in the same process: what two of them need is made once (kept on globalThis, shared
 * by the projects' separate module instances) and removed after the last one's teardown.
 */
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ChildProcess } from 'node:child_process';
import type { TestProject } from 'vitest/node';
import { bundleWorkflowCode, DefaultLogger } from '@temporalio/worker';
import { ensureTemporalBinaries } from '../../src/temporal/install-binaries.js';
import { spawnDevServer, waitForTemporal } from '../../src/temporal/dev-server.js';
import { freePort } from '../helpers/free-port.js';
import { compiledBuild } from './compiled-build.js';
import { compileWorkerProcess } from './worker-process-build.js';

declare module 'vitest' {
  export interface ProvidedContext {
    temporalAddress: string;
    workflowBundlePath: string;
    testServerPath: string;
    pgliteTemplatePath: string;
    /** file: URL of dist's compiled parse thread when dist/ is up to date with the sources, else ''. */
    compiledParseThread: string;
    /** `e2e` and `stress`: test/gitsync/worker-process.ts compiled against an up-to-date dist/ (./worker-process-build.ts), else ''. */
    compiledWorkerProcess: string;
    /** A directory of this run, removed after the last project's teardown (e.g. the shared Folios' DATA_DIRs). */
    runTmpDir: string;
  }
}

interface Shared {
  users: number;
  tmp: string;
  template?: Promise<string>;
  bundle?: Promise<string>;
  temporal?: Promise<{ address: string; stop(): Promise<void> }>;
  workerProcess?: string;
  warned?: boolean;
}

const KEY = Symbol.for('folio.test.globalSetup');

function shared(): Shared {
  const g = globalThis as unknown as Record<symbol, Shared | undefined>;
  return (g[KEY] ??= { users: 0, tmp: mkdtempSync(path.join(os.tmpdir(), 'folio-test-')) });
}

/** What the template holds besides the migrations (part of its cache key): the `postgres` database alone. */
const TEMPLATE_SHAPE = 'postgres database only';

/**
 * A migrated, empty PGlite database dumped to a file, kept between runs in the system's temporary directory under a
 * hash of what makes it (the store's sources, migrations included, and the locked package versions): a run whose
 * store and packages are unchanged skips initdb and every migration (about 6 s of CPU).
 */
async function pgliteTemplate(tmp: string): Promise<string> {
  const root = path.resolve(import.meta.dirname, '../..');
  const hash = createHash('sha256');
  const sources = readdirSync(path.join(root, 'src', 'store'), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.ts'))
    .map((e) => path.join(e.parentPath, e.name))
    .sort();
  for (const f of [...sources, path.join(root, 'package-lock.json')]) hash.update(path.relative(root, f)).update('\0').update(readFileSync(f)).update('\0');
  hash.update(TEMPLATE_SHAPE);
  const file = path.join(os.tmpdir(), `folio-test-cache-${os.userInfo().uid}`, `pglite-template-${hash.digest('hex').slice(0, 16)}.tar`);
  if (existsSync(file)) return file;
  const { PGlite } = await import('@electric-sql/pglite');
  const { openStore } = await import('../../src/store/index.js');
  const { rawSql } = await import('../../src/store/raw-sql.js');
  const fresh = await PGlite.create();
  const initdb = await fresh.dumpDataDir('none');
  await fresh.close();
  const store = await openStore({ dataDir: 'memory://', migrate: true, pgliteTemplate: initdb });
  try {
    const db = (rawSql(store) as unknown as { db: InstanceType<typeof PGlite> }).db;
    // Folio uses the `postgres` database only: without template0 and template1 (dropped as PostgreSQL drops any
    // database, so the catalog stays consistent) the dump holds 805 files instead of 1,407, and every test store
    // opens from it (unpacking it into PGlite's in-memory file system) with about a sixth less CPU.
    await db.exec(`UPDATE pg_database SET datistemplate = false WHERE datname IN ('template0', 'template1')`);
    for (const name of ['template0', 'template1']) await db.exec(`DROP DATABASE ${name}`);
    await db.exec('CHECKPOINT');
    const dump = Buffer.from(await (await db.dumpDataDir('none')).arrayBuffer());
    // Written whole under another name, then renamed: a run starting meanwhile never reads half a template. Where the
    // cache cannot be written, this run keeps its template to itself.
    try {
      mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
      const partial = `${file}.${process.pid}.partial`;
      writeFileSync(partial, dump);
      renameSync(partial, file);
      return file;
    } catch {
      const own = path.join(tmp, 'pglite-template.tar');
      writeFileSync(own, dump);
      return own;
    }
  } finally {
    await store.close();
  }
}

async function workflowBundle(tmp: string, prebuilt: string | null): Promise<string> {
  if (prebuilt) return prebuilt;
  const bundle = await bundleWorkflowCode({ workflowsPath: path.resolve(import.meta.dirname, '../../workflows/index.ts'), logger: new DefaultLogger('WARN') });
  const file = path.join(tmp, 'workflow-bundle.js');
  writeFileSync(file, bundle.code);
  return file;
}

async function startTemporal(cli: string): Promise<{ address: string; stop(): Promise<void> }> {
  const port = await freePort();
  const address = `127.0.0.1:${port}`;
  const server: ChildProcess = spawnDevServer({ binary: cli, port, headless: true, logLevel: 'error', workflowTaskTimeout: '60s', stdio: 'ignore' });
  let exited = false;
  server.once('exit', () => {
    exited = true;
  });
  try {
    await waitForTemporal(address, { timeoutMs: 90_000, isAlive: () => !exited });
  } catch (err) {
    server.kill('SIGKILL');
    throw err;
  }
  return {
    address,
    async stop() {
      if (exited) return;
      const gone = new Promise((r) => server.once('exit', r));
      server.kill('SIGTERM');
      const timer = setTimeout(() => server.kill('SIGKILL'), 5000);
      await gone;
      clearTimeout(timer);
    },
  };
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const s = shared();
  s.users++;
  const temporalToo = project.name === 'e2e' || project.name === 'e2e-fresh' || project.name === 'stress';
  const workflowsToo = temporalToo || project.name === 'workflow';
  const build = compiledBuild();
  if (!build.fresh && !s.warned) {
    s.warned = true;
    process.stderr.write(`[test setup] ${build.reason}: parse threads compile TypeScript and the workflows are bundled now (npm run build makes it faster)\n`);
  }
  const teardown = async () => {
    if (--s.users > 0) return;
    const temporal = await s.temporal?.catch(() => null);
    await temporal?.stop();
    rmSync(s.tmp, { recursive: true, force: true });
    delete (globalThis as unknown as Record<symbol, Shared | undefined>)[KEY];
  };
  try {
    const binaries = workflowsToo ? ensureTemporalBinaries({ quiet: true }) : null;
    s.template ??= pgliteTemplate(s.tmp);
    if (workflowsToo) s.bundle ??= workflowBundle(s.tmp, build.fresh ? build.workflowBundle : null);
    if (temporalToo) s.temporal ??= startTemporal(binaries!.cli);
    const [template, bundle, temporal] = await Promise.all([s.template, s.bundle, temporalToo ? s.temporal : undefined]);
    project.provide('pgliteTemplatePath', template);
    project.provide('runTmpDir', s.tmp);
    project.provide('compiledParseThread', build.fresh ? build.parseThread : '');
    if (temporalToo && build.fresh) s.workerProcess ??= compileWorkerProcess(s.tmp);
    project.provide('compiledWorkerProcess', (temporalToo && s.workerProcess) || '');
    project.provide('workflowBundlePath', workflowsToo ? bundle! : '');
    project.provide('testServerPath', binaries?.testServer ?? '');
    project.provide('temporalAddress', temporal?.address ?? '');
  } catch (err) {
    await teardown();
    throw err;
  }
  return teardown;
}
