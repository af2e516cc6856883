/**
 * The activities of a content import run (`workflows/content-import.ts`): bookkeeping of the run's status, the crawl
 * (discovery and fetching, checkpointed URL by URL in the store) and the build (conversion, the revision, the target).
 * Each is idempotent: a retry reads the run's checkpoints, and the revision is keyed by the run.
 */
import { ApplicationFailure } from '@temporalio/activity';
import { documents, importTree } from '../src/format/index.js';
import { modelToRevisionInput } from '../src/gitsync/revision-records.js';
import { fetchPolicyFromConfig } from '../src/net/policy.js';
import { poolPageCodec } from '../src/parse-pool/page-codec.js';
import type { ImportRunRecord, ImportRunStatus, JsonObject } from '../src/store/index.js';
import { contentImportSignals, type ContentImportProgress } from '../src/temporal/contract/index.js';
import { buildSiteSource } from '../src/webimport/build-source.js';
import { crawlSite, type CrawlWarning } from '../src/webimport/crawl.js';
import { WebImportCancelledError, WebImportNoPagesError, WebImportTargetGoneError } from '../src/webimport/errors.js';
import { PoliteFetcher } from '../src/webimport/polite-fetcher.js';
import type { ActivityDeps } from './deps.js';
import { toImportFailure } from './content-import-failures.js';
import { parsePoolOf } from './parse-pool.js';
import { progressReporter, type ProgressReporter } from './progress.js';

export interface ImportRunRef {
  runId: string;
  organizationId: string;
}

/** Warnings kept on the run (the first ones; the count says how many there were). */
const MAX_WARNINGS = 200;

function notFound(runId: string): ApplicationFailure {
  return ApplicationFailure.create({ type: 'NOT_FOUND', message: `import run not found: ${runId}`, nonRetryable: true });
}

export function createContentImportActivities(deps: ActivityDeps) {
  const { store, config } = deps;

  async function loadRun(ref: ImportRunRef): Promise<ImportRunRecord> {
    const run = await store.imports.get(ref.organizationId, ref.runId);
    if (!run) throw notFound(ref.runId);
    return run;
  }

  /** Progress to the workflow (signal, heartbeat) and, at most every second, to the run's row (the API's view). */
  function reporter(
    runId: string,
    phase: string,
  ): { progress: ProgressReporter<ContentImportProgress>; report(p: Partial<ContentImportProgress>): void; stop(): Promise<void> } {
    const progress = progressReporter<ContentImportProgress>(phase, {
      signal: contentImportSignals.progress,
      cancelled: (op) => new WebImportCancelledError(op),
    });
    let lastStored = 0;
    let storing: Promise<unknown> = Promise.resolve();
    const store = (force: boolean) => {
      if (!force && Date.now() - lastStored < 1000) return;
      lastStored = Date.now();
      const c = progress.current;
      storing = storing
        .then(() =>
          deps.store.imports.update(runId, {
            ...(c.importedResources !== undefined ? { importedResources: c.importedResources } : {}),
            ...(c.totalResources !== undefined ? { totalResources: c.totalResources } : {}),
            currentUrl: c.item ?? null,
          }),
        )
        .catch(() => undefined);
    };
    // A heartbeat even while one slow request waits, so a dead worker is noticed and a cancel reaches a quiet crawl.
    const beat = setInterval(() => progress.update({}), 5000);
    return {
      progress,
      report(p) {
        progress.update(p);
        store(false);
      },
      async stop() {
        clearInterval(beat);
        store(true);
        await storing;
        await progress.flush();
      },
    };
  }

  return {
    async importMarkStarted(ref: ImportRunRef): Promise<{ status: ImportRunStatus }> {
      await loadRun(ref);
      const run = await store.imports.update(ref.runId, { status: 'in-progress' });
      return { status: run.status };
    },

    async importFinish(
      input: ImportRunRef & {
        status: 'completed' | 'failed' | 'cancelled';
        code?: string;
        reason?: string;
        revisionId?: string;
        importedResources?: number;
        totalResources?: number;
      },
    ): Promise<{ status: ImportRunStatus }> {
      const run = await store.imports.get(input.organizationId, input.runId);
      if (!run) return { status: 'failed' }; // the space (and its runs) was purged meanwhile: nothing to record
      const updated = await store.imports.update(input.runId, {
        status: input.status,
        ...(input.code !== undefined ? { code: input.code } : {}),
        ...(input.reason !== undefined ? { reason: input.reason } : {}),
        ...(input.revisionId !== undefined ? { revisionId: input.revisionId } : {}),
        ...(input.importedResources !== undefined ? { importedResources: input.importedResources } : {}),
        ...(input.totalResources !== undefined ? { totalResources: input.totalResources } : {}),
        currentUrl: null,
      });
      return { status: updated.status };
    },

    async importCrawl(ref: ImportRunRef): Promise<{ pages: number; assets: number; bytes: number; warnings: number }> {
      const run = await loadRun(ref);
      if (run.source.type !== 'website')
        throw ApplicationFailure.create({ type: 'WEBIMPORT_BAD_URL', message: 'only website imports are crawled', nonRetryable: true });
      const r = reporter(run.id, 'fetching');
      try {
        const fetcher = new PoliteFetcher({
          policy: fetchPolicyFromConfig(config),
          concurrency: config.webimportConcurrency,
          delayMs: config.webimportDelayMs,
          timeoutMs: config.webimportTimeoutMs,
          retries: config.webimportRetries,
          maxResponseBytes: Math.min(config.webimportMaxBytes, 256 * 1024 * 1024),
          ...(r.progress.signal ? { signal: r.progress.signal } : {}),
        });
        const pool = parsePoolOf(deps);
        const result = await crawlSite({
          runId: run.id,
          startUrl: run.source.url,
          store,
          fetcher,
          analyze: (html, url) => pool.runWith(r.progress.signal ? { signal: r.progress.signal } : {}, 'html.analyze', html, url),
          limits: { maxPages: config.webimportMaxPages, maxBytes: config.webimportMaxBytes, maxDepth: config.webimportMaxDepth },
          concurrency: config.webimportConcurrency,
          onProgress: (p) =>
            r.report({
              phase: 'fetching',
              importedResources: p.done,
              totalResources: p.total,
              ...(p.current ? { item: p.current } : {}),
              requests: p.requests,
            }),
          ...(r.progress.signal ? { signal: r.progress.signal } : {}),
        });
        const kept = [...(run.warnings as CrawlWarning[]), ...result.warnings].slice(0, MAX_WARNINGS);
        await store.imports.update(run.id, { warnings: kept, totalResources: result.pages + result.assets });
        return { pages: result.pages, assets: result.assets, bytes: result.bytes, warnings: result.warnings.length };
      } catch (err) {
        throw toImportFailure(err);
      } finally {
        await r.stop();
      }
    },

    async importBuild(
      ref: ImportRunRef,
    ): Promise<{ revisionId: string; pages: number; files: number; importedResources: number; totalResources: number; warnings: number }> {
      const run = await loadRun(ref);
      if (run.source.type !== 'website')
        throw ApplicationFailure.create({ type: 'WEBIMPORT_BAD_URL', message: 'only website imports are built', nonRetryable: true });
      const r = reporter(run.id, 'converting');
      try {
        const space = await store.spaces.get(run.spaceId);
        if (!space) throw new WebImportTargetGoneError(`space ${run.spaceId} was deleted`);
        const cr = run.changeRequestId ? await store.changeRequests.get(run.spaceId, run.changeRequestId) : null;
        if (run.changeRequestId && (!cr || cr.status === 'merged' || cr.status === 'archived'))
          throw new WebImportTargetGoneError(`change request ${run.changeRequestId} is ${cr ? cr.status : 'gone'}`);
        if (!cr && space.editMode === 'locked')
          throw ApplicationFailure.create({ type: 'LOCKED', message: `space ${space.id} is locked (editMode: locked)`, nonRetryable: true });
        const base = cr ? cr.revisionId : space.revisionId;

        const urls = await store.imports.urls(run.id);
        const counts = await store.imports.counts(run.id);
        const pool = parsePoolOf(deps);
        const built = await buildSiteSource({
          startUrl: run.source.url,
          urls,
          blobs: store.blobs,
          convert: (html, options) => pool.runWith(r.progress.signal ? { signal: r.progress.signal } : {}, 'html.convert', html, options),
          concurrency: Math.max(1, pool.threads),
          onProgress: (done, total, current) =>
            r.report({ phase: 'converting', item: current, loaded: done, total, importedResources: counts.done, totalResources: counts.total }),
          ...(r.progress.signal ? { signal: r.progress.signal } : {}),
        });
        if (built.pages === 0) throw new WebImportNoPagesError(run.source.url);
        r.report({ phase: 'storing', item: '' });
        const imported = await importTree(built.tree, { limits: { maxPages: config.webimportMaxPages + 1 }, codec: poolPageCodec(pool) });
        const fileBytes = new Map<string, { hash: string }>();
        for (const f of imported.revision.files) {
          const hash = f.git ? built.assetBlobs.get(f.git.path) : undefined;
          if (hash) fileBytes.set(f.id, { hash });
        }
        const rawPageBytes = new Map<string, Uint8Array>();
        for (const page of documents(imported.revision.pages)) {
          if (!page.raw || !page.git) continue;
          const entry = built.tree.get(page.git.path);
          if (entry) rawPageBytes.set(page.id, await entry.read());
        }
        const warnings: JsonObject[] = [
          ...(run.warnings as JsonObject[]),
          ...built.warnings,
          ...imported.warnings.map((w) => ({ code: w.code, message: w.message, ...(w.path ? { path: w.path } : {}) })),
        ];
        // A cancel that arrived during the conversion stops here: nothing of the run reaches the space.
        await r.progress.assertNotCancelled('import');
        const { id: revisionId } = await store.revisions.create(
          modelToRevisionInput(imported.revision, {
            spaceId: run.spaceId,
            parents: base ? [base] : [],
            type: 'website-import',
            idempotencyKey: `content-import/${run.id}`,
            fileBytes,
            rawPageBytes,
          }),
        );
        await r.progress.assertNotCancelled('import');
        if (cr) {
          if (cr.revisionId !== revisionId) await store.changeRequests.setRevision(cr.id, revisionId, cr.revisionId);
        } else if (space.revisionId !== revisionId) {
          try {
            await store.spaces.setPrimaryRevision(space.id, revisionId, { expected: space.revisionId });
          } catch (err) {
            const now = await store.spaces.get(space.id);
            if (now?.revisionId !== revisionId) throw err;
          }
        }
        await store.imports.update(run.id, { warnings: warnings.slice(0, MAX_WARNINGS), revisionId });
        return {
          revisionId,
          pages: imported.stats.pages,
          files: imported.stats.files,
          importedResources: counts.done,
          totalResources: counts.total,
          warnings: warnings.length,
        };
      } catch (err) {
        throw toImportFailure(err);
      } finally {
        await r.stop();
      }
    },
  };
}
