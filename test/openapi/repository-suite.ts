import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConflictError, NotFoundError, ValidationError } from '../../src/errors.js';
import { specContentHash } from '../../src/openapi/content-hash.js';
import type { OpenApiStore } from '../../src/store/index.js';
import type { Store } from '../../src/store/index.js';
import { rawSql } from '../../src/store/raw-sql.js';

const ORG = 'org-openapi';

/** The OpenAPI repository's behaviour, on any store (PGlite, a PostgreSQL server). */
export function defineRepositorySuite(name: string, open: () => Promise<Store>): void {
  describe(name, () => {
    let store: Store;
    let repo: OpenApiStore;

    function success(filesystem: Record<string, string>, rootPath = 'openapi.yaml') {
      return {
        hash: specContentHash(rootPath, filesystem),
        rootPath,
        filesystem,
        url: 'https://example.com/openapi.yaml',
        info: { specVersion: '3.1.0', title: 'T', version: '1' },
        warnings: [{ location: '#/paths/~1x/get/responses/200', message: "must have required property 'description'" }],
        warningCount: 1,
      };
    }

    beforeAll(async () => {
      store = await open();
      await store.orgs.ensure({ id: ORG, title: 'OpenAPI org' });
      repo = store.openapi;
    });

    afterAll(async () => {
      await store.close();
    });

    describe('OpenAPI repository: specs', () => {
      it('creates a URL spec in the pending state, and finds it by id and by slug', async () => {
        const spec = await repo.create(ORG, { slug: 'petstore', source: { url: 'https://example.com/openapi.yaml' } });
        expect(spec).toMatchObject({
          organizationId: ORG,
          slug: 'petstore',
          source: { kind: 'url', url: 'https://example.com/openapi.yaml' },
          processingState: 'pending',
          visibility: 'private',
          lastVersionId: null,
          lastProcessedAt: null,
          lastProcessErrorCode: null,
          lastProcessedErrors: [],
          processRuns: 0,
        });
        expect(spec.createdAt).toBeInstanceOf(Date);
        expect((await repo.get(spec.id))!.slug).toBe('petstore');
        expect((await repo.getBySlug(ORG, 'petstore'))!.id).toBe(spec.id);
        expect(await repo.getBySlug(ORG, 'nope')).toBeNull();
        expect(await repo.get('nope')).toBeNull();
      });

      it('stores a text source as a blob and gives it back', async () => {
        const text = 'openapi: 3.1.0\ninfo: { title: T, version: "1" }\npaths: {}\n';
        const spec = await repo.create(ORG, { slug: 'from-text', source: { text } });
        expect(spec.source.kind).toBe('text');
        expect(await repo.sourceOf(spec)).toEqual({ text });
        const urlSpec = (await repo.getBySlug(ORG, 'petstore'))!;
        expect(await repo.sourceOf(urlSpec)).toEqual({ url: 'https://example.com/openapi.yaml' });
      });

      it('rejects bad slugs, sources and visibilities with ValidationError', async () => {
        for (const slug of ['', 'two--dashes', '-lead', 'trail-', 'sp ace', 'under_score', 'a'.repeat(101)]) {
          await expect(repo.create(ORG, { slug, source: { url: 'https://example.com/x' } }), slug).rejects.toBeInstanceOf(ValidationError);
        }
        const bad: unknown[] = [
          {},
          { url: 'ftp://x/y' },
          { url: 'not a url' },
          { url: `https://x/${'a'.repeat(2048)}` },
          { text: '' },
          { url: 'https://x', text: 'y' },
          null,
          'https://x',
        ];
        for (const source of bad) {
          await expect(repo.create(ORG, { slug: 'bad-source', source: source as never }), JSON.stringify(source)).rejects.toBeInstanceOf(ValidationError);
        }
        await expect(repo.create(ORG, { slug: 'ok-slug', source: { url: 'https://x/y' }, visibility: 'secret' as never })).rejects.toBeInstanceOf(
          ValidationError,
        );
      });

      it('refuses a slug taken in the same organization, and an unknown organization', async () => {
        await expect(repo.create(ORG, { slug: 'petstore', source: { url: 'https://example.com/other.yaml' } })).rejects.toBeInstanceOf(ConflictError);
        await expect(repo.create('no-such-org', { slug: 'x', source: { url: 'https://example.com/x' } })).rejects.toBeInstanceOf(NotFoundError);
        await store.orgs.ensure({ id: 'other-org', title: 'Other' });
        const other = await repo.create('other-org', { slug: 'petstore', source: { url: 'https://example.com/x' } });
        expect(other.organizationId).toBe('other-org');
      });

      it('lists an organization’s specs oldest first, page by page', async () => {
        await store.orgs.ensure({ id: 'list-org', title: 'List' });
        const ids: string[] = [];
        for (let i = 0; i < 5; i++) ids.push((await repo.create('list-org', { slug: `s-${i}`, source: { url: `https://example.com/${i}` } })).id);
        const first = await repo.list('list-org', { limit: 2 });
        expect(first.items.map((s) => s.id)).toEqual(ids.slice(0, 2));
        const second = await repo.list('list-org', { limit: 2, page: first.next!.page });
        const third = await repo.list('list-org', { limit: 2, page: second.next!.page });
        expect([...second.items, ...third.items].map((s) => s.id)).toEqual(ids.slice(2));
        expect(third.next).toBeUndefined();
        await expect(repo.list('list-org', { limit: 2, page: 'garbage' })).rejects.toBeInstanceOf(ValidationError);
      });

      it('updates the source (reporting whether it changed) and the visibility', async () => {
        const spec = await repo.create(ORG, { slug: 'mutable', source: { url: 'https://example.com/a.yaml' } });
        expect((await repo.setSource(spec.id, { url: 'https://example.com/a.yaml' })).changed).toBe(false);
        const moved = await repo.setSource(spec.id, { url: 'https://example.com/b.yaml' });
        expect(moved.changed).toBe(true);
        expect(moved.spec.source).toEqual({ kind: 'url', url: 'https://example.com/b.yaml' });
        const toText = await repo.setSource(spec.id, { text: 'openapi: 3.0.0' });
        expect(toText.changed).toBe(true);
        expect((await repo.setSource(spec.id, { text: 'openapi: 3.0.0' })).changed).toBe(false);
        expect((await repo.setVisibility(spec.id, 'public')).visibility).toBe('public');
        await expect(repo.setVisibility('missing', 'public')).rejects.toBeInstanceOf(NotFoundError);
        await expect(repo.setSource('missing', { url: 'https://x/y' })).rejects.toBeInstanceOf(NotFoundError);
      });

      it('deletes a spec with its versions', async () => {
        const spec = await repo.create(ORG, { slug: 'doomed', source: { url: 'https://example.com/a.yaml' } });
        const { run } = await repo.startRun(spec.id);
        const { version } = await repo.recordSuccess(spec.id, run, success({ 'openapi.yaml': 'doomed' }));
        expect(await repo.delete(spec.id)).toBe(true);
        expect(await repo.delete(spec.id)).toBe(false);
        expect(await repo.get(spec.id)).toBeNull();
        expect(await repo.getVersion(spec.id, version!.id)).toBeNull();
        const rows = await rawSql(store).query('SELECT 1 FROM openapi_spec_versions WHERE spec_id = $1', [spec.id]);
        expect(rows).toHaveLength(0);
      });
    });

    describe('OpenAPI repository: processing runs and versions', () => {
      it('goes pending → progress → complete and creates a version with the content as a blob', async () => {
        const spec = await repo.create(ORG, { slug: 'runs', source: { url: 'https://example.com/openapi.yaml' } });
        const { run, spec: pending } = await repo.startRun(spec.id);
        expect(run).toBe(1);
        expect(pending.processingState).toBe('pending');
        expect((await repo.markProgress(spec.id, run)).processingState).toBe('progress');
        const fs = { 'openapi.yaml': 'openapi: 3.1.0\n', 'schemas/pet.yaml': 'type: object\n' };
        const out = await repo.recordSuccess(spec.id, run, success(fs));
        expect(out.created).toBe(true);
        expect(out.applied).toBe(true);
        expect(out.spec).toMatchObject({
          processingState: 'complete',
          lastVersionId: out.version!.id,
          lastProcessErrorCode: null,
          lastProcessedErrorCount: 1,
          appliedRun: 1,
        });
        expect(out.spec.lastProcessedErrors[0]!.location).toBe('#/paths/~1x/get/responses/200');
        expect(out.spec.lastProcessedAt).toBeInstanceOf(Date);
        expect(out.version).toMatchObject({
          specId: spec.id,
          rootPath: 'openapi.yaml',
          sourceUrl: 'https://example.com/openapi.yaml',
          run: 1,
          info: { specVersion: '3.1.0' },
        });
        expect(await repo.versionContent(out.version!)).toEqual({ rootPath: 'openapi.yaml', filesystem: fs });
        expect((await store.blobs.has([out.version!.contentBlob])).has(out.version!.contentBlob)).toBe(true);
        expect((await repo.latestVersion(spec.id))!.id).toBe(out.version!.id);
      });

      it('creates no new version when the content is unchanged (re-fetch, or a retried activity)', async () => {
        const spec = (await repo.getBySlug(ORG, 'runs'))!;
        const fs = { 'openapi.yaml': 'openapi: 3.1.0\n', 'schemas/pet.yaml': 'type: object\n' };
        const { run } = await repo.startRun(spec.id);
        const again = await repo.recordSuccess(spec.id, run, success({ 'schemas/pet.yaml': fs['schemas/pet.yaml'], 'openapi.yaml': fs['openapi.yaml'] }));
        expect(again.created).toBe(false);
        expect(again.version!.id).toBe(spec.lastVersionId);
        const retried = await repo.recordSuccess(spec.id, run, success(fs));
        expect(retried.applied).toBe(false);
        expect((await repo.listVersions(spec.id, { limit: 10 })).items).toHaveLength(1);
      });

      it('keeps the last good version after a failure, then clears the code on the next success', async () => {
        const spec = (await repo.getBySlug(ORG, 'runs'))!;
        const good = spec.lastVersionId;
        const { run } = await repo.startRun(spec.id);
        const failed = await repo.recordFailure(spec.id, run, {
          code: 'FETCH_TIMEOUT',
          errors: [{ location: 'https://example.com/openapi.yaml', message: 'timed out' }],
          errorCount: 1,
        });
        expect(failed.spec).toMatchObject({ processingState: 'complete', lastProcessErrorCode: 'FETCH_TIMEOUT', lastVersionId: good, consecutiveFailures: 1 });
        expect(failed.spec.lastProcessedErrors).toEqual([{ location: 'https://example.com/openapi.yaml', message: 'timed out' }]);
        const second = await repo.startRun(spec.id);
        expect((await repo.recordFailure(spec.id, second.run, { code: 'PARSE_ERROR', errors: [], errorCount: 0 })).spec.consecutiveFailures).toBe(2);
        expect((await repo.latestVersion(spec.id))!.id).toBe(good);

        const third = await repo.startRun(spec.id);
        const changed = await repo.recordSuccess(spec.id, third.run, {
          ...success({ 'openapi.yaml': 'openapi: 3.1.0\n# v2\n' }),
          warnings: [],
          warningCount: 0,
        });
        expect(changed.created).toBe(true);
        expect(changed.spec).toMatchObject({
          lastProcessErrorCode: null,
          lastProcessedErrors: [],
          lastProcessedErrorCount: 0,
          consecutiveFailures: 0,
          lastVersionId: changed.version!.id,
        });
        const versions = await repo.listVersions(spec.id, { limit: 1 });
        expect(versions.items[0]!.id).toBe(changed.version!.id); // newest first
        const older = await repo.listVersions(spec.id, { limit: 1, page: versions.next!.page });
        expect(older.items[0]!.id).toBe(good);
        expect((await repo.getVersion(spec.id, good!))!.id).toBe(good);
        expect(await repo.getVersion('other-spec', good!)).toBeNull();
      });

      it('content going back to an earlier state is a new version (compared with the last one only)', async () => {
        const spec = (await repo.getBySlug(ORG, 'runs'))!;
        const { run } = await repo.startRun(spec.id);
        const back = await repo.recordSuccess(spec.id, run, success({ 'openapi.yaml': 'openapi: 3.1.0\n', 'schemas/pet.yaml': 'type: object\n' }));
        expect(back.created).toBe(true);
        expect((await repo.listVersions(spec.id, { limit: 10 })).items).toHaveLength(3);
      });

      it('ignores the late outcome of an older run, and leaves the state to the newest run', async () => {
        const spec = await repo.create(ORG, { slug: 'racing', source: { url: 'https://example.com/openapi.yaml' } });
        const older = await repo.startRun(spec.id);
        const newer = await repo.startRun(spec.id);
        await repo.markProgress(spec.id, older.run);
        const olderDone = await repo.recordSuccess(spec.id, older.run, success({ 'openapi.yaml': 'old' }));
        expect(olderDone.applied).toBe(true);
        expect(olderDone.spec.processingState).toBe('progress'); // the newer run is still to come
        const newerDone = await repo.recordFailure(spec.id, newer.run, { code: 'FETCH_ERROR', errors: [], errorCount: 0 });
        expect(newerDone.spec.processingState).toBe('complete');
        const late = await repo.recordSuccess(spec.id, older.run, success({ 'openapi.yaml': 'older still' }));
        expect(late.applied).toBe(false);
        expect((await repo.get(spec.id))!.lastProcessErrorCode).toBe('FETCH_ERROR');
      });

      it('abandons a run that never started: its number is not reused, its late outcome is ignored, the state goes back', async () => {
        const spec = await repo.create(ORG, { slug: 'abandoned', source: { url: 'https://example.com/openapi.yaml' } });
        const never = await repo.startRun(spec.id);
        // Never processed: stays pending (nothing to go back to).
        expect(await repo.abandonRun(spec.id, never.run)).toMatchObject({ processingState: 'pending', processRuns: 1, appliedRun: 1 });
        const first = await repo.startRun(spec.id);
        expect(first.run).toBe(2);
        const done = await repo.recordSuccess(spec.id, first.run, success({ 'openapi.yaml': 'v1' }));
        const refused = await repo.startRun(spec.id);
        expect(refused.spec.processingState).toBe('pending');
        expect(await repo.abandonRun(spec.id, refused.run)).toMatchObject({
          processingState: 'complete',
          processRuns: 3,
          appliedRun: 3,
          lastVersionId: done.version!.id,
        });
        expect((await repo.recordSuccess(spec.id, refused.run, success({ 'openapi.yaml': 'late' }))).applied).toBe(false);
        // Abandoning an older run changes nothing for a newer one.
        const next = await repo.startRun(spec.id);
        expect(await repo.abandonRun(spec.id, refused.run)).toMatchObject({ processingState: 'pending', processRuns: next.run, appliedRun: 3 });
        expect((await repo.get(spec.id))!.lastVersionId).toBe(done.version!.id);
        await expect(repo.abandonRun('missing', 1)).rejects.toBeInstanceOf(NotFoundError);
      });

      it('refuses invalid runs and unknown specs', async () => {
        const spec = (await repo.getBySlug(ORG, 'runs'))!;
        await expect(repo.recordFailure(spec.id, 0, { code: 'FETCH_ERROR', errors: [], errorCount: 0 })).rejects.toBeInstanceOf(ValidationError);
        await expect(repo.startRun('missing')).rejects.toBeInstanceOf(NotFoundError);
        await expect(repo.recordSuccess('missing', 1, success({ a: 'b' }))).rejects.toBeInstanceOf(NotFoundError);
        await expect(repo.recordFailure('missing', 1, { code: 'FETCH_ERROR', errors: [], errorCount: 0 })).rejects.toBeInstanceOf(NotFoundError);
      });

      it('keeps version blobs through garbage collection, and frees them once the spec is deleted', async () => {
        const spec = await repo.create(ORG, { slug: 'gc', source: { url: 'https://example.com/gc.yaml' } });
        const { run } = await repo.startRun(spec.id);
        const { version } = await repo.recordSuccess(spec.id, run, success({ 'openapi.yaml': `unique ${Date.now()}` }));
        // Unpin so that garbage collection considers it.
        await rawSql(store).query('UPDATE blobs SET pinned_until = NULL WHERE hash = $1', [version!.contentBlob]);
        await store.blobs.deleteUnreferenced();
        expect((await store.blobs.has([version!.contentBlob])).size).toBe(1);
        await repo.delete(spec.id);
        await store.blobs.deleteUnreferenced();
        expect((await store.blobs.has([version!.contentBlob])).size).toBe(0);
      });
    });
  });
}
