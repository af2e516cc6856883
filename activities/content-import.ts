/**
 * The activities of a content import run (`workflows/content-import.ts`): bookkeeping of the run's status, the crawl
 * (discovery and fetching, checkpointed URL by URL in the store) and the build (conversion, the revision, the target).
 * Each is idempotent: a retry reads the run's checkpoints, and the revision is keyed by the run.
 */
import { ApplicationFailure } from '@temporalio/activity';
import { NotFoundError } from '../src/errors.js';
import { assembleSourceTree, fileImportLimits, FileImportError, FileNotUploadedError, type ConvertedInput } from '../src/fileimport/index.js';
import type { FileImportErrorCode } from '../src/fileimport/errors.js';
import { documents, importTree, type SourceTree } from '../src/format/index.js';
import { modelToRevisionInput } from '../src/revision/records.js';
import { ParseTaskFailedError } from '../src/parse-pool/errors.js';
import { poolPageCodec } from '../src/parse-threads/page-codec.js';
import type { BlobSource } from '../src/revision/builder.js';
import { graftUnderPage } from '../src/revision/graft-under-page.js';
import type { ImportRunRecord, ImportRunStatus, JsonObject, StorageUploadRecord } from '../src/store/index.js';
import { contentImportSignals, type ContentImportProgress } from '../src/temporal/contract/index.js';
import { buildSiteSource } from '../src/webimport/build-source.js';
import { crawlSite, type CrawlWarning } from '../src/webimport/crawl.js';
import { WebImportCancelledError, WebImportNoPagesError, WebImportTargetGoneError } from '../src/webimport/errors.js';
import { webImportRunSettings } from '../src/webimport/run-settings.js';
import type { ActivityDeps } from './deps.js';
import { toImportFailure } from './content-import-failures.js';
import { parsePoolOf } from './parse-pool.js';
import { progressReporter, type ProgressReporter } from './progress.js';

/** What a run imports, before it becomes a revision: a tree in GitBook format and the bytes of its files. */
interface ImportedSource {
  tree: SourceTree;
  warnings: JsonObject[];
  /** The content of the tree's file at `path` (bytes, or a stored blob). */
  fileBytes(path: string): Promise<BlobSource | undefined>;
  importedResources: number;
  totalResources: number;
}

/** A run's progress: to the workflow (signal, heartbeat) and to the run's row. */
interface Reporter {
  progress: ProgressReporter<ContentImportProgress>;
  report(p: Partial<ContentImportProgress>): void;
  stop(): Promise<void>;
}

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
  function reporter(runId: string, phase: string): Reporter {
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

  /** The uploads a file import names, each of the run's organization and uploaded (FileNotUploadedError otherwise). */
  async function uploadedFiles(organizationId: string, keys: readonly string[]): Promise<StorageUploadRecord[]> {
    const found = await store.uploads.get(organizationId, keys);
    const files = keys.map((key) => {
      const upload = found.get(key);
      if (!upload?.blobHash) throw new FileNotUploadedError(key);
      return upload;
    });
    const stored = await store.blobs.has(files.map((f) => f.blobHash!));
    for (const f of files) if (!stored.has(f.blobHash!)) throw new FileNotUploadedError(f.key);
    return files;
  }

  /** A website run's tree: the crawl's checkpoints converted in the parse pool and laid out as a GitBook source tree. */
  async function websiteSource(run: ImportRunRecord, startUrl: string, r: Reporter): Promise<ImportedSource> {
    const urls = await store.imports.urls(run.id);
    const counts = await store.imports.counts(run.id);
    const pool = parsePoolOf(deps);
    const built = await buildSiteSource({
      startUrl,
      urls,
      blobs: store.blobs,
      convert: (html, options) => pool.runWith(r.progress.signal ? { signal: r.progress.signal } : {}, 'html.convert', html, options),
      concurrency: Math.max(1, pool.threads),
      onProgress: (done, total, current) =>
        r.report({ phase: 'converting', item: current, loaded: done, total, importedResources: counts.done, totalResources: counts.total }),
      ...(r.progress.signal ? { signal: r.progress.signal } : {}),
    });
    if (built.pages === 0) throw new WebImportNoPagesError(startUrl);
    return {
      tree: built.tree,
      warnings: built.warnings,
      fileBytes: async (path) => {
        const hash = built.assetBlobs.get(path);
        return hash ? { hash } : undefined;
      },
      importedResources: counts.done,
      totalResources: counts.total,
    };
  }

  /**
   * A file run's tree: each upload converted in the parse pool (one task per file, within the pool's time and memory
   * budgets; a `.zip` unpacked with its limits), in the order given, then laid out in GitBook format.
   */
  async function fileSource(run: ImportRunRecord, keys: readonly string[], r: Reporter): Promise<ImportedSource> {
    const uploads = await uploadedFiles(run.organizationId, keys);
    const pool = parsePoolOf(deps);
    const converted: ConvertedInput[] = [];
    for (const [i, upload] of uploads.entries()) {
      r.report({ phase: 'converting', item: upload.name, importedResources: i, totalResources: uploads.length });
      const bytes = await store.blobs.get(upload.blobHash!);
      if (!bytes) throw new FileNotUploadedError(upload.key);
      try {
        converted.push(
          await pool.runWith(r.progress.signal ? { signal: r.progress.signal } : {}, 'file.convert', { name: upload.name, bytes }, fileImportLimits(config)),
        );
      } catch (err) {
        // A typed failure of the conversion (an unsafe zip, a zip bomb, an unreadable .docx) keeps its code.
        const code = err instanceof ParseTaskFailedError ? err.data.code : undefined;
        if (typeof code === 'string' && code.startsWith('FILE_IMPORT_'))
          throw new FileImportError(code as FileImportErrorCode, err instanceof Error ? err.message.replace(/^file\.convert failed: /, '') : String(err));
        throw err;
      }
    }
    r.report({ phase: 'converting', item: '', importedResources: uploads.length, totalResources: uploads.length });
    const { tree, warnings } = assembleSourceTree(converted);
    return {
      tree,
      warnings: warnings.map((w) => ({ code: w.code, message: w.message, file: w.file })),
      fileBytes: async (path) => tree.get(path)?.read(),
      importedResources: uploads.length,
      totalResources: uploads.length,
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
      if (run.source.type === 'file') {
        // A file import's "fetch": its uploads are in the store already; each must be there, with its bytes.
        try {
          const files = await uploadedFiles(run.organizationId, run.source.files);
          await store.imports.update(run.id, { totalResources: files.length, importedResources: 0 });
          return { pages: files.length, assets: 0, bytes: files.reduce((n, f) => n + f.size, 0), warnings: 0 };
        } catch (err) {
          throw toImportFailure(err);
        }
      }
      const r = reporter(run.id, 'fetching');
      try {
        const signal = r.progress.signal;
        const pool = parsePoolOf(deps);
        const onPool = signal ? { signal } : {};
        const result = await crawlSite({
          runId: run.id,
          startUrl: run.source.url,
          store,
          ...webImportRunSettings(config, run, signal),
          analyze: (html, url) => pool.runWith(onPool, 'html.analyze', html, url),
          parseSitemap: (bytes) => pool.runWith(onPool, 'sitemap.parse', bytes),
          onProgress: (p) =>
            r.report({
              phase: 'fetching',
              importedResources: p.done,
              totalResources: p.total,
              ...(p.current ? { item: p.current } : {}),
              requests: p.requests,
            }),
          ...(signal ? { signal } : {}),
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
        if (run.pageId && !base) throw new WebImportTargetGoneError(`page ${run.pageId} is gone (the target has no content)`);

        const pool = parsePoolOf(deps);
        const made = run.source.type === 'website' ? await websiteSource(run, run.source.url, r) : await fileSource(run, run.source.files, r);
        r.report({ phase: 'storing', item: '' });
        const imported = await importTree(made.tree, { limits: { maxPages: config.webimportMaxPages + 1 }, codec: poolPageCodec(pool) });
        const fileBytes = new Map<string, BlobSource>();
        for (const f of imported.revision.files) {
          const bytes = f.git ? await made.fileBytes(f.git.path) : undefined;
          if (bytes) fileBytes.set(f.id, bytes);
        }
        const rawPageBytes = new Map<string, Uint8Array>();
        for (const page of documents(imported.revision.pages)) {
          if (!page.raw || !page.git) continue;
          const entry = made.tree.get(page.git.path);
          if (entry) rawPageBytes.set(page.id, await entry.read());
        }
        const warnings: JsonObject[] = [
          ...(run.warnings as JsonObject[]),
          ...made.warnings,
          ...imported.warnings.map((w) => ({ code: w.code, message: w.message, ...(w.path ? { path: w.path } : {}) })),
        ];
        // A cancel that arrived during the conversion stops here: nothing of the run reaches the space.
        await r.progress.assertNotCancelled('import');
        let input = modelToRevisionInput(imported.revision, {
          spaceId: run.spaceId,
          parents: base ? [base] : [],
          type: run.source.type === 'website' ? 'website-import' : 'file-import',
          idempotencyKey: `content-import/${run.id}`,
          fileBytes,
          rawPageBytes,
        });
        if (run.pageId && base) {
          // Under one page: the base revision whole, the imported pages added below that page.
          const [baseRevision, basePages, baseFiles] = await Promise.all([store.revisions.get(base), store.revisions.pages(base), store.revisions.files(base)]);
          let grafted: ReturnType<typeof graftUnderPage>;
          try {
            grafted = graftUnderPage({ pages: basePages, files: baseFiles }, run.pageId, input);
          } catch (err) {
            if (err instanceof NotFoundError) throw new WebImportTargetGoneError(`page ${run.pageId} is no longer in the target`);
            throw err;
          }
          input = { ...input, data: baseRevision?.data ?? {}, pages: grafted.pages, files: grafted.files };
        }
        const { id: revisionId } = await store.revisions.create(input);
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
          importedResources: made.importedResources,
          totalResources: made.totalResources,
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
