/**
 * A translation run's phases (src/translate/run/) without Temporal, on a test store, with an engine that marks what
 * it translates: the run begins on the source's pages, a batch sends to the engine only what the memory lacks (each
 * answer remembered before the next call), the finish assembles the result space's revision from the memory; a
 * second batch sends nothing; an empty source is the run's typed error.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { documents, importTree, treeFromFiles } from '../../src/format/index.js';
import { ParsePool } from '../../src/parse-threads/pool.js';
import { loadRevisionModel, modelToRevisionInput } from '../../src/revision/records.js';
import type { Store } from '../../src/store/index.js';
import type { TranslationBatchCounts, TranslationProgress } from '../../src/temporal/contract/index.js';
import type { TranslationEngine } from '../../src/translate/engines/index.js';
import { beginRun } from '../../src/translate/run/begin.js';
import type { TranslationRunDeps } from '../../src/translate/run/context.js';
import { finishRun } from '../../src/translate/run/finish.js';
import { translatePages } from '../../src/translate/run/translate-pages.js';
import { createTestStore } from '../helpers/store.js';
import { testLogger } from '../helpers/logger.js';

let store: Store;
let pool: ParsePool;
let dataDir: string;
let deps: TranslationRunDeps;
/** The segments of each call to the engine. */
const calls: string[][] = [];

/** Translates by marking each segment (its placeholders kept). */
const engine: TranslationEngine = {
  name: 'marking',
  async checkPair() {},
  async translate(segments, request) {
    calls.push([...segments]);
    const targets = segments.map((s) => `ES ${s}`);
    await request.onAnswer?.(0, targets);
    return targets;
  },
};

beforeAll(async () => {
  store = await createTestStore();
  await store.orgs.ensure({ id: 'org', title: 'Org' });
  pool = new ParsePool({ threads: 1 });
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'folio-translation-run-'));
  deps = { store, config: loadConfig({ DATA_DIR: dataDir }), logger: testLogger('translation-run'), parsePool: () => pool, engine: () => engine, chunk: 2 };
});

afterAll(async () => {
  await pool?.close();
  await store?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** A space whose primary revision holds these files (a Git Sync tree). */
async function sourceSpace(title: string, files: Record<string, string>): Promise<string> {
  const space = await store.spaces.create('org', { title, language: 'en' });
  if (Object.keys(files).length === 0) return space.id;
  const imported = await importTree(treeFromFiles(files));
  const { id } = await store.revisions.create(
    modelToRevisionInput(imported.revision, { spaceId: space.id, parents: [], type: 'git-import', fileBytes: new Map() }),
  );
  await store.spaces.setPrimaryRevision(space.id, id);
  return space.id;
}

const none: TranslationBatchCounts = { pages: 0, segments: 0, sent: 0, fromMemory: 0, words: 0, pagesTranslated: 0 };

describe('a translation run without Temporal (src/translate/run/)', () => {
  it('begins, sends only what the memory lacks, and assembles the result from the memory', async () => {
    const spaceId = await sourceSpace('Guide', {
      'README.md': '# Welcome\n\nFirst paragraph.\n\nSecond paragraph with `code`.\n',
      'setup.md': '# Setup\n\nInstall it.\n',
      'SUMMARY.md': '# Table of contents\n\n* [Welcome](README.md)\n* [Setup](setup.md)\n',
    });
    const t = await store.translations.create('org', { sourceSpaceId: spaceId, sourceLanguage: 'en', language: 'es' });
    const ref = { translationId: t.id, organizationId: 'org', run: 1 };
    const begun = await beginRun(deps, ref);
    expect(begun.pageIds).toHaveLength(2);
    const updates: Array<Partial<TranslationProgress>> = [];
    const batch = { ...ref, ...begun, before: none, pagesTotal: begun.pageIds.length };
    const counts = await translatePages(deps, batch, { update: (p) => updates.push(p), signal: undefined });
    expect(counts).toMatchObject({ pages: 2, sent: 5, fromMemory: 0, segments: 7, pagesTranslated: 2 });
    // 7 segments (each page's title, heading and paragraphs), 5 distinct; two per call (chunk 2).
    expect(calls.map((c) => c.length)).toEqual([2, 2, 1]);
    expect(updates.at(-1)).toMatchObject({ phase: 'translating', pagesDone: 2, segmentsDone: 7, segmentsSent: 5 });

    calls.length = 0;
    expect(await translatePages(deps, batch, { update: () => undefined, signal: undefined })).toMatchObject({ sent: 0, fromMemory: 7 });
    expect(calls).toEqual([]);

    const finished = await finishRun(deps, { ...ref, sourceRevisionId: begun.sourceRevisionId });
    expect((await store.spaces.get(finished.resultSpaceId))!.revisionId).toBe(finished.resultRevisionId);
    const result = (await loadRevisionModel(store, finished.resultRevisionId))!.model;
    const pages = [...documents(result.pages)];
    expect(pages.map((p) => p.title)).toEqual(['ES Welcome', 'ES Setup']);
    expect(pages[0]!.markdown).toContain('ES Second paragraph with `code`.');
    expect((await store.translations.latestRun(t.id))!.status).toBe('completed');
  });

  it('a run with nothing new keeps the previous result without parsing or writing; a new source, glossary or an edited result writes again', async () => {
    const spaceId = await sourceSpace('Keep', { 'README.md': '# Keep\n\nA paragraph.\n', 'SUMMARY.md': '# Table of contents\n\n* [Keep](README.md)\n' });
    const t = await store.translations.create('org', { sourceSpaceId: spaceId, sourceLanguage: 'en', language: 'es' });
    const run = async (n: number) => {
      const ref = { translationId: t.id, organizationId: 'org', run: n };
      const begun = await beginRun(deps, ref);
      if (!begun.reuse)
        await translatePages(deps, { ...ref, ...begun, before: none, pagesTotal: begun.pageIds.length }, { update: () => undefined, signal: undefined });
      const finished = await finishRun(deps, { ...ref, sourceRevisionId: begun.sourceRevisionId });
      return { ...finished, reuse: begun.reuse === true, record: (await store.translations.getRun(t.id, n))! };
    };
    const first = await run(1);
    expect(first.reuse).toBe(false);
    const revisions = async () => (await store.revisions.listForSpace(first.resultSpaceId, { limit: 100 })).items.length;
    const written = await revisions();
    const second = await run(2);
    expect(second).toMatchObject({ reuse: true, resultRevisionId: first.resultRevisionId, record: { status: 'completed', segmentsTotal: 3, segmentsSent: 0 } });
    expect(await revisions()).toBe(written);
    // The result space edited by someone: written again (the edit is not silently kept as the translation).
    const edited = await store.revisions.create({ spaceId: first.resultSpaceId, parents: [first.resultRevisionId], type: 'edits', pages: [], files: [] });
    await store.spaces.setPrimaryRevision(first.resultSpaceId, edited.id);
    const third = await run(3);
    expect(third.reuse).toBe(false);
    expect(third.resultRevisionId).not.toBe(first.resultRevisionId);
    expect((await run(4)).reuse).toBe(true);
    // A glossary change for the pair: the segments may read differently, written again.
    await store.translations.glossary.apply('org', [{ type: 'insert', translations: { en: 'paragraph', es: 'párrafo' } }]);
    expect((await run(5)).reuse).toBe(false);
  });

  it('a source space without content is the typed TRANSLATION_SOURCE_EMPTY', async () => {
    const spaceId = await sourceSpace('Empty', {});
    const t = await store.translations.create('org', { sourceSpaceId: spaceId, sourceLanguage: 'en', language: 'es' });
    await expect(beginRun(deps, { translationId: t.id, organizationId: 'org', run: 1 })).rejects.toMatchObject({
      code: 'TRANSLATION_SOURCE_EMPTY',
      retryable: false,
    });
  });
});
