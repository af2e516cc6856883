/**
 * Issue 13 end to end, with real Apertium (eng → spa) on a corpus space, driven by GitBook's own client:
 * a run translates the space into the result space with the same page tree and ids; every page keeps its mdast
 * shape, and its code, URLs and GitBook tags byte for byte; the exported result passes `folio check` with no new
 * warnings; a second run sends nothing to the engine, an edited paragraph sends exactly that paragraph, a glossary
 * change re-sends the segments with its term; runs requested together never run at the same time.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { GitBookAPI } from '@gitbook/api';
import { WorkflowFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import type { Nodes, Root } from 'mdast';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as checkCommand from '../../src/cli/commands/check.js';
import { parsePageFile, type DocumentPage, type PageModel } from '../../src/format/index.js';
import { flattenPages, loadRevisionModel } from '../../src/revision/records.js';
import { corpusDir } from '../../src/project-root.js';
import { createEngine, type TranslationEngine } from '../../src/translate/engines/index.js';
import { TranslationEngineError } from '../../src/translate/errors.js';
import { extractSegments } from '../../src/translate/segments.js';
import { runCommand } from '../cli/run-command.js';
import { startFolio, type TestFolio } from '../helpers/folio.js';
import { testLogger } from '../helpers/logger.js';
import { LOOPBACK_ALLOW_HOSTS } from '../helpers/loopback-policy.js';
import { queryTranslationRuns } from '../../src/temporal/client/start.js';
import { assertContract } from '../helpers/openapi-contract.js';
import { startTestWorker, type RunningWorker } from '../helpers/temporal.js';
import { editSpace, exportedFiles, importCorpusSpace } from './corpus-space.js';

const CORPUS = path.join(corpusDir(), 'GitbookIO+git-sync-normalization');

let folio: TestFolio;
let engineWorker: RunningWorker;
let api: GitBookAPI;
let work: string;
/** Every batch of segments the engine was asked to translate. */
const sent: string[][] = [];
/** When set, the engine call with this number (counted from when it was set) fails once, as a crashed engine would. */
let failCall: { after: number; calls: number } | null = null;

/** The real engine, counting what it is sent. */
function counting(engine: TranslationEngine): TranslationEngine {
  return {
    name: engine.name,
    checkPair: (s, t) => engine.checkPair(s, t),
    async translate(segments, request) {
      if (failCall && ++failCall.calls === failCall.after) {
        failCall = null;
        throw new TranslationEngineError(engine.name, 'the engine process died');
      }
      sent.push([...segments]);
      return engine.translate(segments, request);
    },
  };
}

/** A LibreTranslate-compatible server on loopback (the engine of organization `org-lt`): it upper-cases text. */
let libre: http.Server;
const libreRequests: string[][] = [];

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'folio-translate-'));
  libre = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      if (req.url === '/languages') return res.end(JSON.stringify([{ code: 'en', targets: ['de', 'es'] }]));
      const q = (JSON.parse(body) as { q: string[] }).q;
      libreRequests.push(q);
      const upper = (m: string) =>
        m.replace(/(<[^>]+>|&[a-z]+;)|([^<&]+)/g, (_a, tag: string | undefined, text: string | undefined) => tag ?? text!.toUpperCase());
      res.end(JSON.stringify({ translatedText: q.map(upper) }));
    });
  });
  await new Promise<void>((r) => libre.listen(0, '127.0.0.1', r));
  folio = await startFolio({
    env: {
      FETCH_ALLOW_HOSTS: LOOPBACK_ALLOW_HOSTS,
      FOLIO_TRANSLATION_ORG_ENGINES: 'org-lt=libretranslate',
      FOLIO_LIBRETRANSLATE_URL: `http://127.0.0.1:${(libre.address() as AddressInfo).port}`,
    },
  });
  // The engine activities run on their own task queue, here with a counting wrapper around the configured engine.
  engineWorker = await startTestWorker(
    {
      store: folio.store,
      config: folio.config,
      logger: testLogger('engine'),
      translationEngine: (name) => counting(createEngine(folio.config, name)),
      // Small engine calls, so that a run makes several and a failure can land between two of them.
      translationChunk: 20,
    },
    { taskQueue: folio.config.translationTaskQueue },
  );
  api = new GitBookAPI({ authToken: folio.token, endpoint: folio.baseUrl });
});

afterAll(async () => {
  await engineWorker?.stop();
  await folio?.stop();
  await new Promise((r) => libre?.close(r));
  if (work) await rm(work, { recursive: true, force: true });
});

type TranslationBody = {
  id: string;
  status: string;
  result?: { space: string; revision: string; language: string };
  stats: Record<string, number>;
  run?: {
    number: number;
    status: string;
    segments: { total: number; sent: number; fromMemory: number };
    pages: { done: number; total: number };
    error?: unknown;
  };
};

async function runAndWait(organizationId: string, id: string): Promise<TranslationBody> {
  const before = (await api.orgs.getTranslation(organizationId, id)).data as unknown as TranslationBody;
  const res = await api.orgs.runTranslation(organizationId, id);
  expect(res.status).toBe(204);
  const deadline = Date.now() + 170_000;
  for (;;) {
    const res = await folio.request('GET', `/v1/orgs/${organizationId}/translations/${id}`);
    const body = res.body as TranslationBody;
    if (
      body.run &&
      body.run.number > (before.run?.number ?? 0) &&
      (body.run.status === 'completed' || body.run.status === 'failed') &&
      body.status !== 'running' &&
      body.status !== 'pending'
    ) {
      assertContract('GET', `/v1/orgs/${organizationId}/translations/${id}`, 200, body);
      return body;
    }
    if (Date.now() > deadline) throw new Error(`the run did not finish: ${JSON.stringify(body).slice(0, 800)}`);
    await new Promise((r) => setTimeout(r, 300));
  }
}

/** Node types in document order (the shape of a page). */
function shape(root: Root): string[] {
  const out: string[] = [];
  const walk = (n: Nodes) => {
    out.push(n.type);
    if ('children' in n) for (const c of n.children as Nodes[]) walk(c);
  };
  walk(root);
  return out;
}

/** What must never change: code, inline code, math, URLs, GitBook tags and their attributes. */
function invariants(root: Root): string[] {
  const out: string[] = [];
  const walk = (n: Nodes) => {
    if (n.type === 'code' || n.type === 'inlineCode' || n.type === 'math' || n.type === 'inlineMath') out.push(`${n.type}:${n.value}`);
    if (n.type === 'link' || n.type === 'image' || n.type === 'definition') out.push(`${n.type}:${n.url}`);
    if (n.type === 'liquidBlock') out.push(`tag:${n.name}:${JSON.stringify(n.attributes)}`);
    if (n.type === 'liquidTag') out.push(`tag:${n.value}`);
    if (n.type === 'html') out.push(`html:${n.value.replace(/<figcaption>[\s\S]*?<\/figcaption>/g, '<figcaption/>')}`);
    if ('children' in n) for (const c of n.children as Nodes[]) walk(c);
  };
  walk(root);
  return out;
}

function documents(pages: PageModel[]): DocumentPage[] {
  return flattenPages(pages).filter((p): p is DocumentPage => p.kind === 'document');
}

describe('translation runs with Apertium (en → es) on a corpus space', () => {
  let spaceId: string;
  let translationId: string;
  let first: TranslationBody;

  it('creates a translation with the official client and translates the whole space', async () => {
    const org = folio.organizationId;
    ({ spaceId } = await importCorpusSpace(folio.store, org, CORPUS, 'Git Sync showcase'));
    const created = await api.orgs.createTranslation(org, { language: 'es', source: { space: spaceId, language: 'en' } });
    expect(created.status).toBe(201);
    assertContract('POST', `/v1/orgs/${org}/translations`, 201, created.data);
    expect(created.data).toMatchObject({ object: 'translation', status: 'pending', language: 'es', source: { space: spaceId, language: 'en' } });
    translationId = created.data.id;

    first = await runAndWait(org, translationId);
    expect(first.run).toMatchObject({ number: 1, status: 'completed' });
    expect(first.status).toBe('completed');
    expect(first.result).toMatchObject({ language: 'es' });
    expect(first.run!.segments.sent).toBeGreaterThan(100);
    expect(first.stats).toMatchObject({ runs: 1, latestPages: first.run!.pages.total });
    expect(first.stats.latestWords).toBeGreaterThan(500);
    expect(sent.flat()).toHaveLength(first.run!.segments.sent);

    // Progress in a query and in the run's current details (Temporal UI).
    const live = await queryTranslationRuns(folio.client, translationId);
    expect(live?.view).toMatchObject({ running: null, lastCompleted: 1, pagesDone: first.run!.pages.total, segmentsSent: first.run!.segments.sent });
    expect(live?.progress).toMatchObject({ pagesDone: first.run!.pages.total, pagesTotal: first.run!.pages.total });
    const metadata = await folio.client.workflow
      .getHandle(`translation/${translationId}/runs`)
      .query<{ currentDetails?: string }>('__temporal_workflow_metadata');
    expect(metadata.currentDetails).toContain('run 1 completed');

    const listed = await api.orgs.listTranslations(org);
    assertContract('GET', `/v1/orgs/${org}/translations`, 200, listed.data);
    expect(listed.data.items.map((t) => t.id)).toEqual([translationId]);
  });

  it('keeps the page tree, ids, shapes, code, URLs and tags; titles and SUMMARY link titles are translated', async () => {
    const source = (await loadRevisionModel(folio.store, (await folio.store.spaces.get(spaceId))!.revisionId!))!.model;
    const result = (await loadRevisionModel(folio.store, first.result!.revision))!.model;
    expect((await folio.store.spaces.get(first.result!.space))!.revisionId).toBe(first.result!.revision);
    const tree = (pages: PageModel[]): unknown => pages.map((p) => ({ id: p.id, kind: p.kind, children: tree(p.children) }));
    expect(tree(result.pages)).toEqual(tree(source.pages));

    const src = documents(source.pages);
    const out = new Map(documents(result.pages).map((p) => [p.id, p]));
    let samePages = 0;
    let changedText = 0;
    for (const page of src) {
      const translated = out.get(page.id)!;
      expect(translated.path).toBe(page.path);
      const a = parsePageFile(page.markdown!);
      const b = parsePageFile(translated.markdown!);
      expect(shape(b.document), page.path).toEqual(shape(a.document));
      expect(invariants(b.document), page.path).toEqual(invariants(a.document));
      expect(b.title === null, page.path).toBe(a.title === null);
      samePages++;
      if (translated.markdown !== page.markdown) changedText++;
    }
    expect(samePages).toBe(src.length);
    expect(changedText).toBeGreaterThan(src.length / 2);
    const images = [...out.values()].find((p) => p.path === 'images')!;
    expect(images.title).toBe('Imágenes');
    expect(images.markdown).toContain('<figcaption><p>Esto es un caption de una imagen de bloque</p></figcaption>');
    const group = flattenPages(result.pages).find((p) => p.kind === 'group')!;
    expect(group.title).not.toBe('This is a group');

    // The exported result: SUMMARY.md with translated link titles, and `folio check` finds nothing new.
    const files = await exportedFiles(folio.store, first.result!.revision);
    const summary = new TextDecoder().decode(files.get('SUMMARY.md'));
    expect(summary).toContain('[Imágenes](images.md)');
    const dir = path.join(work, 'exported');
    for (const [p, bytes] of files) {
      await mkdir(path.dirname(path.join(dir, p)), { recursive: true });
      await writeFile(path.join(dir, p), bytes);
    }
    const codes = async (d: string) => {
      const { stdout } = await runCommand(checkCommand, [d, '--json']);
      const report = JSON.parse(stdout.trim().split('\n').pop()!) as { pages: number; diagnostics: Array<{ code: string }> };
      return { pages: report.pages, codes: report.diagnostics.map((w) => w.code).sort() };
    };
    const before = await codes(CORPUS);
    const after = await codes(dir);
    expect(after.pages).toBe(before.pages);
    expect(after.codes.filter((c) => !before.codes.includes(c))).toEqual([]);
  });

  it('a second run sends nothing; after one edited paragraph it sends exactly that paragraph', async () => {
    const org = folio.organizationId;
    sent.length = 0;
    const second = await runAndWait(org, translationId);
    expect(second.run).toMatchObject({ number: 2, status: 'completed', segments: { sent: 0 } });
    expect(second.run!.segments.fromMemory).toBe(first.run!.segments.total);
    expect(sent.flat()).toEqual([]);
    expect(second.stats).toMatchObject({ runs: 2, latestWords: 0, latestPages: 0 });

    await editSpace(folio.store, spaceId, (model) => {
      const quote = documents(model.pages).find((p) => p.path === 'quote')!;
      expect(quote.markdown).toContain('This is a second paragraph in a quote.');
      quote.markdown = quote.markdown!.replace('This is a second paragraph in a quote.', 'This is the **edited** second paragraph of a quote.');
    });
    const third = await runAndWait(org, translationId);
    expect(third.run).toMatchObject({ number: 3, status: 'completed', segments: { sent: 1 } });
    expect(sent.flat()).toEqual(['This is the <x1>edited</x1> second paragraph of a quote.']);
    const result = (await loadRevisionModel(folio.store, third.result!.revision))!.model;
    const quote = documents(result.pages).find((p) => p.path === 'quote')!;
    expect(quote.markdown).toMatch(/\*\*[^*]+\*\*/);
    expect(quote.markdown).not.toContain('edited');
  });

  it('a glossary change re-translates exactly the segments that contain its term', async () => {
    const org = folio.organizationId;
    const put = await api.orgs.updateGlossaryEntries(org, { operations: [{ type: 'insert', translations: { en: 'hints', es: 'avisos' } }] });
    expect(put.status).toBe(204);
    const list = await api.orgs.listGlossaryEntries(org);
    assertContract('GET', `/v1/orgs/${org}/translations-glossary`, 200, list.data);
    const entry = await api.orgs.getGlossaryEntry(org, list.data.items[0]!.id);
    assertContract('GET', `/v1/orgs/${org}/translations-glossary/${entry.data.id}`, 200, entry.data);
    expect(entry.data.translations).toEqual({ en: 'hints', es: 'avisos' });

    // The segments of the source that contain the term (as a word, any case), counted once each.
    const source = (await loadRevisionModel(folio.store, (await folio.store.spaces.get(spaceId))!.revisionId!))!.model;
    const withTerm = new Set<string>();
    for (const p of flattenPages(source.pages)) {
      if (/\bhints\b/i.test(p.title)) withTerm.add(p.title);
      if (p.kind === 'document' && p.markdown !== null)
        for (const s of extractSegments(p.markdown, []).segments) if (/\bhints\b/i.test(s.markup)) withTerm.add(s.markup);
    }
    expect(withTerm.size).toBeGreaterThan(0);
    sent.length = 0;
    const run = await runAndWait(org, translationId);
    expect(run.run).toMatchObject({ status: 'completed', segments: { sent: withTerm.size } });
    expect(sent.flat().every((s) => /<x\d+\/>/.test(s))).toBe(true);
    const result = (await loadRevisionModel(folio.store, run.result!.revision))!.model;
    const hints = documents(result.pages).find((p) => p.path === 'hints')!;
    expect(hints.markdown).toContain('avisos');
  });

  it('runs requested together are queued, never run at the same time', async () => {
    const org = folio.organizationId;
    const before = (await folio.store.translations.latestRun(translationId))!.run;
    expect((await api.orgs.runTranslation(org, translationId)).status).toBe(204);
    expect((await api.orgs.runTranslation(org, translationId)).status).toBe(204);
    expect((await api.orgs.runTranslation(org, translationId)).status).toBe(204);
    const deadline = Date.now() + 170_000;
    for (;;) {
      const t = (await folio.store.translations.get(org, translationId))!;
      const latest = (await folio.store.translations.latestRun(translationId))!;
      if (latest.run === t.runsRequested && latest.finishedAt && t.status === 'completed') break;
      if (Date.now() > deadline) throw new Error(`runs did not finish: ${JSON.stringify({ t, latest })}`);
      await new Promise((r) => setTimeout(r, 300));
    }
    const runs = [];
    for (let n = before + 1; n <= before + 3; n++) {
      const r = await folio.store.translations.getRun(translationId, n);
      if (r) runs.push(r);
    }
    expect(runs.length).toBeGreaterThanOrEqual(1);
    expect(runs.every((r) => r.status === 'completed')).toBe(true);
    const sorted = [...runs].sort((a, b) => a.startedAt.getTime() - b.startedAt.getTime());
    for (let i = 1; i < sorted.length; i++) expect(sorted[i]!.startedAt.getTime()).toBeGreaterThanOrEqual(sorted[i - 1]!.finishedAt!.getTime());
  });

  it('resumes after the engine died mid-run without sending a translated segment twice (the memory is the checkpoint)', async () => {
    // Another organization: its memory starts empty.
    await folio.store.orgs.ensure({ id: 'org-resume', title: 'Resume' });
    const token = (await folio.store.tokens.create('org-resume')).token;
    const other = new GitBookAPI({ authToken: token, endpoint: folio.baseUrl });
    const { spaceId: space } = await importCorpusSpace(folio.store, 'org-resume', CORPUS, 'Resume');
    const created = await other.orgs.createTranslation('org-resume', { language: 'es', source: { space, language: 'en' } });
    sent.length = 0;
    failCall = { after: 3, calls: 0 };
    await other.orgs.runTranslation('org-resume', created.data.id);
    const deadline = Date.now() + 170_000;
    let run;
    for (;;) {
      run = await folio.store.translations.latestRun(created.data.id);
      if (run?.finishedAt) break;
      if (Date.now() > deadline) throw new Error(`the run did not finish: ${JSON.stringify(run)}`);
      await new Promise((r) => setTimeout(r, 300));
    }
    expect(failCall).toBeNull();
    expect(run.status).toBe('completed');
    const all = sent.flat();
    expect(sent.length).toBeGreaterThan(3);
    expect(new Set(all).size).toBe(all.length);
    expect(all.length).toBe(first.run!.segments.sent);
    expect(await folio.store.translations.memory.count('org-resume')).toBe(all.length);
  });

  it('a translation deleted while it runs: 205 then 204, and its run ends without recording anything', async () => {
    const org = folio.organizationId;
    const created = await api.orgs.createTranslation(org, { language: 'es', source: { space: spaceId, language: 'en' } });
    const id = created.data.id;
    await api.orgs.runTranslation(org, id);
    expect((await api.orgs.deleteTranslation(org, id)).status).toBe(205);
    expect((await api.orgs.deleteTranslation(org, id)).status).toBe(204);
    expect((await folio.request('GET', `/v1/orgs/${org}/translations/${id}`)).status).toBe(404);
    const handle = folio.client.workflow.getHandle(`translation/${id}/runs`);
    await handle.result();
    expect((await handle.describe()).status.name).toBe('COMPLETED');
    expect(await folio.store.translations.latestRun(id)).toBeNull();
  });

  it('an organization configured for an HTTP engine translates through it (fetch guard, engine task queue)', async () => {
    await folio.store.orgs.ensure({ id: 'org-lt', title: 'LibreTranslate' });
    const token = (await folio.store.tokens.create('org-lt')).token;
    const lt = new GitBookAPI({ authToken: token, endpoint: folio.baseUrl });
    const { spaceId: space } = await importCorpusSpace(folio.store, 'org-lt', CORPUS, 'Via LibreTranslate');
    const created = await lt.orgs.createTranslation('org-lt', { language: 'de', source: { space, language: 'en' } });
    await lt.orgs.runTranslation('org-lt', created.data.id);
    const deadline = Date.now() + 170_000;
    let body: TranslationBody;
    for (;;) {
      body = (await lt.orgs.getTranslation('org-lt', created.data.id)).data as unknown as TranslationBody;
      if (body.run?.status === 'completed' || body.run?.status === 'failed') break;
      if (Date.now() > deadline) throw new Error(`the run did not finish: ${JSON.stringify(body)}`);
      await new Promise((r) => setTimeout(r, 300));
    }
    expect(body.run).toMatchObject({ status: 'completed', engine: 'libretranslate' });
    expect(libreRequests.flat()).toHaveLength(body.run!.segments.sent);
    const result = (await loadRevisionModel(folio.store, body.result!.revision))!.model;
    expect(documents(result.pages).find((p) => p.path === 'images')!.title).toBe('IMAGES');
  });

  it('an unsupported pair fails the run with the installed pairs in its reason', async () => {
    const org = folio.organizationId;
    const created = await api.orgs.createTranslation(org, { language: 'ja', source: { space: spaceId, language: 'en' } });
    const run = await runAndWait(org, created.data.id);
    expect(run.status).toBe('completed');
    expect(run.run).toMatchObject({ status: 'failed', error: { code: 'TRANSLATION_PAIR_UNSUPPORTED', message: expect.stringContaining('eng-spa') } });
    expect(run.result).toBeUndefined();
    // Failed in Temporal too: the runs' workflow fails, typed and not retried, with the cause in its message.
    const handle = folio.client.workflow.getHandle(`translation/${created.data.id}/runs`);
    const err = await handle.result().then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(WorkflowFailedError);
    const cause = (err as WorkflowFailedError).cause as ApplicationFailure;
    expect(cause).toBeInstanceOf(ApplicationFailure);
    expect(cause.type).toBe('TRANSLATION_PAIR_UNSUPPORTED');
    expect(cause.nonRetryable).toBe(true);
    expect(cause.message).toMatch(/^run \d+ failed: TRANSLATION_PAIR_UNSUPPORTED: .*eng-spa/);
    expect((await handle.describe()).status.name).toBe('FAILED');
  });
});
