/**
 * A translation run with nothing to send (issue 31: ≤ 300 ms): a corpus repository imported into a space, a first
 * run fills the translation memory, then BENCH_RUNS runs with nothing new are timed through the run's phases as the
 * workflow calls them (begin → the batches unless the run keeps the previous result → finish), on the embedded store
 * with the parse pool. The first run's engine returns each segment unchanged (what is measured never calls an engine:
 * the one given to the timed runs throws if called). Prints one JSON object: medians and whether the result was kept.
 * BENCH_CPU_PROF=<file.cpuprofile> profiles the timed runs only (this thread).
 *   npm run build && node dist/bench/translation-noop.js [--repo BlockRazorinc+docs_en]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { loadConfig } from '../src/config/config.js';
import { importTree, readWorkingTree } from '../src/format/index.js';
import { createLogger } from '../src/log.js';
import { ParsePool } from '../src/parse-threads/pool.js';
import { corpusDir } from '../src/project-root.js';
import { modelToRevisionInput } from '../src/revision/records.js';
import { openStore } from '../src/store/index.js';
import type { TranslationEngine } from '../src/translate/engines/index.js';
import { beginRun } from '../src/translate/run/begin.js';
import type { TranslationRunDeps } from '../src/translate/run/context.js';
import { finishRun } from '../src/translate/run/finish.js';
import { translatePages } from '../src/translate/run/translate-pages.js';
import { arg, median, projectDirectoryOf, startProfile } from './_helpers.js';

const repo = arg('repo', 'BlockRazorinc+docs_en');
const runs = Number(process.env.BENCH_RUNS ?? 3);

const identity: TranslationEngine = {
  name: 'identity',
  async checkPair() {},
  async translate(segments, request) {
    await request.onAnswer?.(0, [...segments]);
    return [...segments];
  },
};
const refusing: TranslationEngine = {
  name: 'refusing',
  async checkPair() {},
  async translate() {
    throw new Error('a run with nothing new called the engine');
  },
};

const dataDir = mkdtempSync(path.join(tmpdir(), 'folio-bench-noop-'));
const store = await openStore({ dataDir: 'memory://' });
const pool = new ParsePool({ threads: 2 });
try {
  await store.orgs.ensure({ id: 'org', title: 'org' });
  const space = await store.spaces.create('org', { title: repo, language: 'en' });
  const imported = await importTree(await readWorkingTree(path.join(corpusDir(), repo, projectDirectoryOf(repo))));
  const { id } = await store.revisions.create(
    modelToRevisionInput(imported.revision, { spaceId: space.id, parents: [], type: 'git-import', fileBytes: new Map() }),
  );
  await store.spaces.setPrimaryRevision(space.id, id);
  const t = await store.translations.create('org', { sourceSpaceId: space.id, sourceLanguage: 'en', language: 'es' });
  let engine = identity;
  const deps: TranslationRunDeps = {
    store,
    config: loadConfig({ DATA_DIR: dataDir }),
    logger: createLogger('bench', { level: 'silent' }),
    parsePool: () => pool,
    engine: () => engine,
    chunk: 500,
  };
  const none = { pages: 0, segments: 0, sent: 0, fromMemory: 0, words: 0, pagesTranslated: 0 };
  const run = async (n: number) => {
    const ref = { translationId: t.id, organizationId: 'org', run: n };
    const t0 = performance.now();
    const cpu0 = process.cpuUsage();
    const begun = await beginRun(deps, ref);
    if (!begun.reuse)
      for (let i = 0; i < begun.pageIds.length; i += 25)
        await translatePages(
          deps,
          { ...ref, ...begun, pageIds: begun.pageIds.slice(i, i + 25), before: none, pagesTotal: begun.pageIds.length },
          { update: () => undefined, signal: undefined },
        );
    await finishRun(deps, { ...ref, sourceRevisionId: begun.sourceRevisionId });
    const cpu = process.cpuUsage(cpu0);
    return { ms: performance.now() - t0, cpuMs: (cpu.user + cpu.system) / 1000, reuse: begun.reuse === true, pages: begun.pageIds.length };
  };
  const first = await run(1);
  engine = refusing;
  const timed = [];
  const stopProfile = await startProfile();
  for (let i = 0; i < runs; i++) timed.push(await run(2 + i));
  await stopProfile();
  console.log(
    JSON.stringify({
      benchmark: 'translation-noop',
      repo,
      pages: first.pages,
      runs,
      medianMs: { first: Math.round(first.ms), noop: Math.round(median(timed.map((r) => r.ms))) },
      samplesMs: timed.map((r) => Math.round(r.ms)),
      // This process's CPU time (every thread) during each timed run: the embedded database runs in this process.
      cpuMs: timed.map((r) => Math.round(r.cpuMs)),
      resultKept: timed.every((r) => r.reuse),
    }),
  );
} finally {
  await pool.close();
  await store.close();
  rmSync(dataDir, { recursive: true, force: true });
}
