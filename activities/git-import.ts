/**
 * The import activity: fetch the ref (shallow, single branch, bare cache, no checkout), read the tree, let the
 * converter parse only the blobs that changed since the space's current revision, store the new revision
 * (idempotency key per request) and make it primary (compare-and-set), unless standalone.
 */
import { performance } from 'node:perf_hooks';
import { ApplicationFailure } from '@temporalio/activity';
import {
  AdvertisementMemo,
  fetchRef,
  getTrailer,
  readCommit,
  readTree,
  remoteRefCommit,
  GitCancelledError,
  GitFileTooLargeError,
  type SourceTree,
} from '../src/git/index.js';
import { documents, importTree, NoContentError } from '../src/format/index.js';
import { isWithin } from '../src/revision/is-within.js';
import { describeWarnings, reportWarnings } from '../src/gitsync/warnings.js';
import { modelToRevisionInput } from '../src/gitsync/revision-records.js';
import { exportedPathsForImport } from '../src/gitsync/exported-paths.js';
import { toFailure } from './git-failures.js';
import { FOLIO_REVISION_TRAILER } from '../src/gitsync/trailers.js';
import { gitSignals, type GitOperationResult, type GitProgress, type GitSyncRequest, type GitWarningReport } from '../src/temporal/contract/index.js';
import { progressReporter } from './progress.js';
import { credentialsOf, type GitSyncContext } from '../src/gitsync/context.js';
import { settled } from '../src/gitsync/settled.js';

export function createGitImportActivity(ctx: GitSyncContext) {
  const { store, config } = ctx;
  return async function gitImportActivity(request: GitSyncRequest): Promise<GitOperationResult> {
    const progress = progressReporter<GitProgress>('fetching', { signal: gitSignals.progress, cancelled: (operation) => new GitCancelledError(operation) });
    const timingsMs: Record<string, number> = {};
    let mark = performance.now();
    const lap = (phase: string) => {
      const now = performance.now();
      timingsMs[phase] = Math.round((timingsMs[phase] ?? 0) + now - mark);
      mark = now;
    };
    let secrets: string[] = [];
    try {
      // The credentials, the space and its git state are read at the same time (their failures in this order).
      const [credsRead, spaceRead, syncRead] = await Promise.allSettled([
        credentialsOf(ctx, request),
        store.spaces.get(request.spaceId),
        store.gitSync.get(request.spaceId),
      ]);
      const creds = settled(credsRead);
      if (creds) secrets = [creds.password];
      const space = settled(spaceRead);
      if (!space) throw ApplicationFailure.create({ type: 'NOT_FOUND', message: `space not found: ${request.spaceId}`, nonRetryable: true });
      if (!request.standalone && space.editMode === 'locked')
        throw ApplicationFailure.create({ type: 'LOCKED', message: `space ${space.id} is locked (editMode: locked)`, nonRetryable: true });
      const sync = settled(syncRead);
      const scope = { organizationId: space.organizationId, spaceId: space.id };
      // A space with content may already hold the remote's commit: its ref is asked for (one request) while the
      // primary revision is read, and used below only when the space holds a commit from this URL.
      // The advertisement it gets is the fetch's first answer too (one round trip less: advertisement-memo.ts).
      const advertisements = new AdvertisementMemo();
      const remoteRef = space.revisionId
        ? remoteRefCommit({
            advertisements,
            policy: ctx.fetchPolicy,
            url: request.url,
            ref: request.ref,
            ...(creds ? { auth: creds } : {}),
            ...(progress.signal ? { signal: progress.signal } : {}),
          }).then(
            (commit) => ({ commit }),
            (error: unknown) => ({ error }),
          )
        : undefined;
      const primary = space.revisionId ? await store.revisions.get(space.revisionId) : null;
      lap('read');
      const idempotencyKey = `git-import/${request.requestId}`;
      // A retry of an attempt that stored the revision and made it primary, then died before completing: done.
      if (primary && primary.idempotencyKey === idempotencyKey && primary.git?.oid) {
        await store.gitSync.update(request.spaceId, {
          lastImport: { timestamp: request.timestamp, commit: primary.git.oid, requestId: request.requestId, revisionId: primary.id, url: request.url },
        });
        return {
          requestId: request.requestId,
          direction: 'import',
          outcome: 'applied',
          commit: primary.git.oid,
          revisionId: primary.id,
          detail: `imported ${primary.git.oid.slice(0, 12)} (completed by a retry)`,
        };
      }
      /** Records this request as the space's last import of `commit`. */
      const recordImport = async (commit: string, revisionId: string | undefined, warnings?: GitWarningReport) => {
        await store.gitSync.update(request.spaceId, {
          lastImport: {
            timestamp: request.timestamp,
            commit,
            requestId: request.requestId,
            ...(revisionId ? { revisionId } : {}),
            ...(warnings ? { warnings } : {}),
            url: request.url,
          },
        });
      };
      const noop = (commit: string): GitOperationResult => ({
        requestId: request.requestId,
        direction: 'import',
        outcome: 'noop',
        commit,
        detail: `the space already holds commit ${commit.slice(0, 12)}`,
      });
      // No-op before any heavy step: the remote ref (one request) still points at the commit the space holds from
      // this URL: its primary revision's, or the last import's when that import left the primary revision as it is.
      const held = [
        primary?.git?.url === request.url ? primary.git.oid : undefined,
        sync.lastImport?.url === request.url && space.revisionId && sync.lastImport.revisionId === space.revisionId ? sync.lastImport.commit : undefined,
      ].filter((c): c is string => typeof c === 'string');
      if (held.length > 0 && remoteRef) {
        const asked = await remoteRef;
        if ('error' in asked) throw asked.error;
        const remoteHead = asked.commit;
        if (remoteHead !== undefined && held.includes(remoteHead)) {
          await recordImport(remoteHead, space.revisionId ?? undefined);
          return noop(remoteHead);
        }
      }
      const cache = await ctx.openSpaceCache(space, request);
      lap('cache');
      const baseCommit = primary?.git?.oid && primary.git.url === request.url ? primary.git.oid : undefined;
      const fetched = await fetchRef({
        advertisements,
        policy: ctx.fetchPolicy,
        cache,
        url: request.url,
        ref: request.ref,
        ...(creds ? { auth: creds } : {}),
        ...(baseCommit ? { baseCommit } : {}),
        onProgress: (p) => progress.update({ phase: p.phase, loaded: p.loaded, total: p.total }),
        ...(progress.signal ? { signal: progress.signal } : {}),
      });
      const head = fetched.commit;
      lap('fetch');
      const info = await readCommit(cache, head);
      const markImported = (revisionId: string | undefined, warnings?: GitWarningReport) => recordImport(head, revisionId, warnings);

      // Loop protection: the space already holds this commit's content (imported from it, or exported as it).
      const exportedAsHead = sync.lastExport?.commit === head && sync.lastExport.revisionId === space.revisionId;
      const trailerRevision = getTrailer(info.message, FOLIO_REVISION_TRAILER);
      if (primary?.git?.oid === head || exportedAsHead || (trailerRevision !== undefined && trailerRevision === space.revisionId)) {
        await markImported(space.revisionId ?? undefined);
        return noop(head);
      }

      progress.update({ phase: 'reading tree' });
      // The commit's tree (from the cache) and the previous revision's records (from the store) are read at the same
      // time; the records without their page bodies: a reused page keeps its stored body by hash.
      const timed = async <T>(name: string, work: Promise<T>): Promise<T> => {
        const start = performance.now();
        const result = await work;
        timingsMs[name] = Math.round(performance.now() - start);
        return result;
      };
      const [tree, previous] = await Promise.all([
        timed('tree.read', readTree(cache, head, { maxFileBytes: config.gitMaxFileBytes })),
        primary ? timed('tree.previous', ctx.previousRevisions.load(scope, primary.id)) : Promise.resolve(null),
      ]);
      const projectDir = request.projectDirectory;
      for (const [p, entry] of tree) {
        if (isWithin(p, projectDir) && entry.size !== undefined && entry.size > config.gitMaxFileBytes)
          throw new GitFileTooLargeError(p, entry.size, config.gitMaxFileBytes);
      }
      lap('tree');
      let filesRead = 0;
      const counted: SourceTree = new Map();
      for (const [p, entry] of tree) {
        counted.set(p, {
          oid: entry.oid,
          ...(entry.mode ? { mode: entry.mode } : {}),
          ...(entry.size !== undefined ? { size: entry.size } : {}),
          read: async () => {
            const bytes = await entry.read();
            filesRead++;
            progress.update({ phase: 'parsing', filesRead });
            return bytes;
          },
        });
      }

      const codec = ctx.cachedPageCodec(space.organizationId);
      // The files the last export wrote for pages whose records do not say so (new, moved pages): the same pages.
      const exportedPaths = exportedPathsForImport(sync, request.url);
      const imported = await importTree(counted, {
        projectDirectory: projectDir,
        ...(previous ? { previous: { revision: previous.model, ...(exportedPaths ? { exportedPaths } : {}) } } : {}),
        limits: { maxPages: config.gitMaxPages },
        codec,
      });
      // The parse cache's writes of the pages parsed go on while the revision is stored (they never fail the import).
      const parseCacheWritten = codec.flush();
      lap('parse');
      // A tree without a single page would replace the space's content with nothing: refused, the space keeps it.
      if (imported.stats.pages === 0)
        throw new NoContentError(imported.revision.config.root, [...tree.keys()].filter((p) => isWithin(p, imported.revision.config.root)).length);
      // A cancel that arrived after the fetch stops the import before anything is stored (asked of the server: the
      // heartbeat answer that would carry it may not have come yet). Asked now, answered while the bytes are gathered.
      const notCancelled = progress.assertNotCancelled('import');
      notCancelled.catch(() => undefined);
      const warnings = imported.warnings.length > 0 ? reportWarnings(imported.warnings) : undefined;
      progress.update({ phase: 'storing', filesRead, pagesParsed: imported.stats.parsed });

      // Pages reused from the previous revision: the body it stored (their markdown was not read).
      const textBodies = new Map<string, { hash: string }>();
      for (const [pageId, fromId] of imported.reusedFrom) {
        const hash = previous?.bodyHashes.get(fromId);
        if (hash) textBodies.set(pageId, { hash });
      }
      // Pages kept as raw bytes (too large, not UTF-8, binary): their bytes become the page body, as they are.
      const rawPageBytes = new Map<string, Uint8Array | { hash: string }>();
      for (const page of documents(imported.revision.pages)) {
        if (!page.raw || !page.git) continue;
        const known = previous?.hashByGitOid.get(page.git.oid);
        const entry = counted.get(page.git.path);
        if (known) rawPageBytes.set(page.id, { hash: known });
        else if (entry) rawPageBytes.set(page.id, await entry.read());
      }

      // File bytes: reuse the stored blob when the git blob did not change, else read it from the tree.
      const fileBytes = new Map<string, Uint8Array | { hash: string }>();
      let filesChanged = 0;
      for (const f of imported.revision.files) {
        if (!f.git) continue;
        const known = previous?.hashByGitOid.get(f.git.oid);
        if (known) {
          fileBytes.set(f.id, { hash: known });
          continue;
        }
        const entry = counted.get(f.git.path);
        if (!entry) continue;
        fileBytes.set(f.id, await entry.read());
        filesChanged++;
      }
      lap('blobs');
      await notCancelled;
      const { id: revisionId } = await store.revisions.create(
        modelToRevisionInput(imported.revision, {
          spaceId: request.spaceId,
          parents: primary ? [primary.id] : [],
          type: 'git-import',
          git: {
            oid: head,
            message: info.message,
            ref: request.ref,
            url: request.url,
            createdByService: trailerRevision !== undefined,
          },
          idempotencyKey,
          fileBytes,
          rawPageBytes,
          textBodies,
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
      await markImported(revisionId, warnings);
      await parseCacheWritten;
      lap('store');
      // Read into memory once this import has answered: the space's next import starts from it.
      if (!request.standalone) ctx.previousRevisions.prewarm(scope, revisionId);
      ctx.logger.info({ spaceId: request.spaceId, requestId: request.requestId, commit: head, revisionId, timingsMs }, 'git import stored');
      const serious = imported.warnings.filter((w) => w.severity === 'error');
      for (const w of serious) ctx.logger.warn({ spaceId: request.spaceId, requestId: request.requestId, code: w.code, path: w.path, data: w.data }, w.message);
      return {
        requestId: request.requestId,
        direction: 'import',
        outcome: 'applied',
        commit: head,
        revisionId,
        pagesChanged: imported.stats.parsed,
        filesChanged,
        timingsMs,
        parseCache: { hits: codec.stats.hits, decoded: codec.stats.decoded },
        // The final progress, for the workflow's query: returned, not signalled (activities/progress.ts).
        progress: { ...progress.current },
        ...(warnings ? { warnings } : {}),
        detail: `imported ${head.slice(0, 12)}: ${imported.stats.pages} pages (${imported.stats.parsed} parsed${codec.stats.hits ? ` of which ${codec.stats.hits} from the parse cache` : ''}, ${imported.stats.reused} reused), ${imported.stats.files} files${warnings ? `, ${describeWarnings(warnings)}` : ''}`,
      };
    } catch (err) {
      throw toFailure(err, secrets);
    } finally {
      progress.close();
    }
  };
}
