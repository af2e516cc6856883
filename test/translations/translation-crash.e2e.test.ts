/**
 * Issue 25, item 7: a translation run whose engine worker is killed with SIGKILL in the middle of a batch sends
 * nothing twice that the engine had answered. Real parts only: a LibreTranslate-compatible server on loopback
 * (written here, counting every segment it is sent), PostgreSQL shared by this process (the workflow worker, on the
 * main task queue) and a child process (test/gitsync/worker-process.ts, polling the translation task queue, where
 * the engine activities run). The engine answers two requests (50 segments each), holds the third; the child is
 * killed; a second child resumes the batch after the activity's heartbeat timeout (15 s, set by the test): the run completes, and no
 * segment of the two answered requests is sent again.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { treeFromFiles } from '../../src/format/index.js';
import { openStore, type Store } from '../../src/store/index.js';
import { requestTranslationRun } from '../../src/temporal/client/start.js';
import { LOOPBACK_ALLOW_HOSTS } from '../helpers/loopback-policy.js';
import { testLogger } from '../helpers/logger.js';
import { killAll, startWorkerChild, type WorkerChild, type WorkerChildren } from '../helpers/worker-child.js';
import { postgresUnavailableReason, startPostgres, type TestPostgres } from '../helpers/postgres.js';
import { startTestWorker, testClient, uniqueTaskQueue, type RunningWorker } from '../helpers/temporal.js';
import { importIntoSpace } from '../publish/corpus-space.js';

const pg: TestPostgres | null = await startPostgres();
const PARAGRAPHS = 180;
/** The engine request held (not answered) when the worker is killed: the first two were answered. */
const HELD_REQUEST = 3;

let store: Store;
let engine: http.Server;
let engineUrl = '';
/** Every request's segments, in the order they arrived, with whether the engine answered it. */
const requests: Array<{ segments: string[]; answered: boolean }> = [];
let holding = true;
let held: () => void = () => undefined;
const heldNow = new Promise<void>((resolve) => (held = resolve));
const children: WorkerChildren = [];
let workflowWorker: RunningWorker | undefined;

function startEngineWorker(taskQueue: string): Promise<WorkerChild> {
  return startWorkerChild(children, {
    databaseUrl: pg!.url,
    taskQueue,
    env: { FOLIO_TRANSLATION_ENGINE: 'libretranslate', FOLIO_LIBRETRANSLATE_URL: engineUrl, FOLIO_TRANSLATION_RATE_LIMIT: '1000' },
  });
}

beforeAll(async () => {
  if (!pg) return;
  store = await openStore({ databaseUrl: pg.url, migrate: true, logger: testLogger('store') });
  engine = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      res.setHeader('content-type', 'application/json');
      if (req.url === '/languages') return res.end(JSON.stringify([{ code: 'en', targets: ['de'] }]));
      const q = (JSON.parse(body) as { q: string[] }).q;
      const request = { segments: q, answered: false };
      requests.push(request);
      if (holding && requests.length === HELD_REQUEST) {
        // Never answered: the worker is killed while it waits.
        held();
        return;
      }
      request.answered = true;
      res.end(
        JSON.stringify({
          translatedText: q.map((s) => s.replace(/(<[^>]+>)|([^<]+)/g, (_m, tag: string | undefined, t: string | undefined) => tag ?? t!.toUpperCase())),
        }),
      );
    });
  });
  await new Promise<void>((r) => engine.listen(0, '127.0.0.1', r));
  engineUrl = `http://127.0.0.1:${(engine.address() as AddressInfo).port}`;
}, 120_000);

afterAll(async () => {
  killAll(children);
  await workflowWorker?.stop();
  engine?.closeAllConnections();
  await new Promise((r) => engine?.close(r));
  await store?.close();
  await pg?.stop();
});

describe.skipIf(!pg)(`translation resumed after SIGKILL${pg ? '' : ` (skipped: ${postgresUnavailableReason})`}`, () => {
  it('sends nothing twice that the engine answered before the kill', { timeout: 420_000 }, async () => {
    const org = 'tr-crash-org';
    await store.orgs.ensure({ id: org, title: 'Translation crash' });
    const space = await store.spaces.create(org, { title: 'Long page' });
    const body = Array.from({ length: PARAGRAPHS }, (_, i) => `Paragraph number ${i + 1} explains step ${i + 1} of the setup.`).join('\n\n');
    const tree = treeFromFiles({ 'SUMMARY.md': '# Table of contents\n\n* [Long page](README.md)\n', 'README.md': `# Long page\n\n${body}\n` });
    await importIntoSpace(store, space.id, tree, '');
    const translation = await store.translations.create(org, { sourceSpaceId: space.id, sourceLanguage: 'en', language: 'de' });
    const requested = await store.translations.requestRun(org, translation.id);

    const taskQueue = uniqueTaskQueue('translation-crash');
    const config = loadConfig({
      FOLIO_TASK_QUEUE: taskQueue,
      FETCH_ALLOW_HOSTS: LOOPBACK_ALLOW_HOSTS,
      FOLIO_TRANSLATION_ENGINE: 'libretranslate',
      FOLIO_LIBRETRANSLATE_URL: engineUrl,
    });
    // Workflows and the main queue's activities here; the engine activities only in the child processes.
    workflowWorker = await startTestWorker({ store, config, logger: testLogger('worker') }, { taskQueue });
    const first = await startEngineWorker(config.translationTaskQueue);
    const client = await testClient();
    try {
      await requestTranslationRun(
        { client, taskQueue },
        {
          translationId: translation.id,
          organizationId: org,
          sourceSpaceId: space.id,
          run: requested.runsRequested,
          engineTaskQueue: config.translationTaskQueue,
          // The held activity is retried on the second child after this, not after the production 2 minutes.
          engineHeartbeatTimeoutMs: 15_000,
        },
      );
      await heldNow;
      await first.kill();
      const answeredBeforeKill = new Set(requests.filter((r) => r.answered).flatMap((r) => r.segments));
      const sentBeforeKill = requests.length;
      expect(sentBeforeKill).toBe(HELD_REQUEST);
      expect(answeredBeforeKill.size).toBe(2 * 50);
      holding = false;
      engine.closeAllConnections();

      await startEngineWorker(config.translationTaskQueue);
      const deadline = Date.now() + 360_000;
      let run = await store.translations.getRun(translation.id, requested.runsRequested);
      while (run?.status !== 'completed' && run?.status !== 'failed') {
        if (Date.now() > deadline) throw new Error(`the run did not finish: ${JSON.stringify(run)}`);
        await new Promise((r) => setTimeout(r, 500));
        run = await store.translations.getRun(translation.id, requested.runsRequested);
      }
      expect(run.status, JSON.stringify(run)).toBe('completed');

      const after = requests.slice(sentBeforeKill);
      expect(after.length).toBeGreaterThan(0);
      const resent = after.flatMap((r) => r.segments).filter((s) => answeredBeforeKill.has(s));
      expect(resent).toEqual([]);
      // Every segment was answered exactly once; only the held request's were sent twice (their answer never came).
      const answered = requests.filter((r) => r.answered).flatMap((r) => r.segments);
      expect(new Set(answered).size).toBe(answered.length);
      expect(answered.length).toBe(PARAGRAPHS + 1);
      expect(await store.translations.memory.count(org)).toBe(PARAGRAPHS + 1);
      const result = await store.revisions.pages(run.resultRevisionId!);
      expect(result[0]!.title).toBe('LONG PAGE');
    } finally {
      await client.connection.close();
    }
  });
});
