import type { GitOperationResult } from '../../temporal/contract/index.js';
import { modelToRevisionInput } from '../../revision/records.js';
import { reportWarnings } from '../warnings.js';
import { gatherBytes, type ImportBytes } from './bytes.js';
import { recordImport, type ParsedImport } from './context.js';
import { importResult } from './result.js';

/**
 * Stores the new revision (idempotency key per request) and makes it primary (compare-and-set), unless standalone;
 * records the import. A cancel that arrived after the fetch stops it before anything is stored.
 */
export async function storeImport(run: ParsedImport): Promise<GitOperationResult> {
  const { ctx, request, progress, imported, timings } = run;
  // A cancel that arrived after the fetch stops the import before anything is stored (asked of the server: the
  // heartbeat answer that would carry it may not have come yet). Asked now, answered while the bytes are gathered.
  const notCancelled = progress.assertNotCancelled('import');
  notCancelled.catch(() => undefined);
  const warnings = imported.warnings.length > 0 ? reportWarnings(imported.warnings) : undefined;
  progress.update({ phase: 'storing', filesRead: run.reads.filesRead, pagesParsed: imported.stats.parsed });
  const bytes = await gatherBytes(run);
  timings.lap('blobs');
  await notCancelled;
  const revisionId = await createRevision(run, bytes);
  await recordImport(run, run.head, revisionId, warnings);
  await run.parseCacheWritten;
  timings.lap('store');
  // Read into memory once this import has answered: the space's next import starts from it.
  if (!request.standalone) ctx.previousRevisions.prewarm(run.scope, revisionId);
  ctx.logger.info({ spaceId: request.spaceId, requestId: request.requestId, commit: run.head, revisionId, timingsMs: timings.timingsMs }, 'git import stored');
  const serious = imported.warnings.filter((w) => w.severity === 'error');
  for (const w of serious) ctx.logger.warn({ spaceId: request.spaceId, requestId: request.requestId, code: w.code, path: w.path, data: w.data }, w.message);
  return importResult(run, revisionId, bytes.filesChanged, warnings);
}

/** The revision stored (or the one an earlier attempt stored under the same key), made primary unless standalone. */
async function createRevision(run: ParsedImport, bytes: ImportBytes): Promise<string> {
  const { ctx, request, progress, space, primary, previous, head, info } = run;
  const { store } = ctx;
  const { id: revisionId } = await store.revisions.create(
    modelToRevisionInput(run.imported.revision, {
      spaceId: request.spaceId,
      parents: primary ? [primary.id] : [],
      type: 'git-import',
      git: {
        oid: head,
        message: info.message,
        ref: request.ref,
        url: request.url,
        createdByService: run.trailerRevision !== undefined,
      },
      idempotencyKey: run.idempotencyKey,
      fileBytes: bytes.fileBytes,
      rawPageBytes: bytes.rawPageBytes,
      textBodies: bytes.textBodies,
      // The unchanged pages and files are copied from the previous revision inside the database.
      ...(previous ? { base: previous.records } : {}),
    }),
  );
  if (!request.standalone) {
    await progress.assertNotCancelled('import');
    try {
      await store.spaces.setPrimaryRevision(request.spaceId, revisionId, { expected: space.revisionId });
    } catch (err) {
      const now = await store.spaces.get(request.spaceId);
      if (now?.revisionId !== revisionId) throw err;
    }
  }
  return revisionId;
}
