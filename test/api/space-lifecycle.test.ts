import { access, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cacheKey, spaceCacheDir } from '../../src/git/index.js';
import { workflowIds } from '../../src/temporal/contract/index.js';
import type { PurgeSpaceResult } from '../../src/temporal/contract/index.js';
import { createPurgeActivities } from '../../activities/purge.js';
import { startFolio, type TestFolio } from '../helpers/folio.js';
import { startGitServer, type GitServer } from '../helpers/git-server.js';
import { LOOPBACK_ALLOW_HOSTS } from '../helpers/loopback-policy.js';
import { testLogger } from '../helpers/logger.js';
import { assertContract } from '../helpers/openapi-contract.js';

/**
 * PATCH, DELETE and restore of spaces on the dev server, with a purge window of a few seconds
 * (the real 7 days run on the time-skipping server in purge-time-skipping.test.ts).
 */
describe('spaces: update, delete, restore, purge', () => {
  let folio: TestFolio;
  let git: GitServer;
  let work: string;
  const encoder = new TextEncoder();

  beforeAll(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'folio-lifecycle-'));
    folio = await startFolio({
      env: { FOLIO_PURGE_AFTER_MS: '4000', DATA_DIR: path.join(work, 'data'), FOLIO_VAULT_KEY: 'lifecycle-test-key', FETCH_ALLOW_HOSTS: LOOPBACK_ALLOW_HOSTS },
    });
    await folio.store.orgs.ensure({ id: 'someone-else', title: 'Someone else' });
    git = await startGitServer();
    const src = path.join(work, 'src');
    await mkdir(src, { recursive: true });
    await writeFile(path.join(src, 'README.md'), '# Home\n\nWelcome.\n');
    await writeFile(path.join(src, 'guide.md'), '# Guide\n\nSteps.\n');
    await writeFile(path.join(src, 'SUMMARY.md'), '# Table of contents\n\n* [Home](README.md)\n* [Guide](guide.md)\n');
    await git.createBareRepo('docs', { fromDir: src, branch: 'main', message: 'docs' });
    await git.createBareRepo('handbook', { fromDir: src, branch: 'main', message: 'handbook' });
  });
  afterAll(async () => {
    await folio?.stop();
    await git?.stop();
    if (work) await rm(work, { recursive: true, force: true });
  });

  /** Queues an import and waits until the request log of the space's git info shows it finished; returns its status. */
  async function importDocs(spaceId: string, extra: Record<string, unknown> = {}): Promise<string> {
    const timestamp = new Date().toISOString();
    const res = await folio.request('POST', `/v1/spaces/${spaceId}/git/import`, { url: git.url('docs'), ref: 'refs/heads/main', timestamp, ...extra });
    expect(res.status, JSON.stringify(res.body)).toBe(204);
    const deadline = Date.now() + 120_000;
    for (;;) {
      const info = await folio.request('GET', `/v1/spaces/${spaceId}/git/info`);
      const mine = (info.body?.requests as Array<{ timestamp: string; status: string }> | undefined)?.find(
        (r) => Date.parse(r.timestamp) === Date.parse(timestamp),
      );
      if (mine && mine.status !== 'queued' && mine.status !== 'running') return mine.status;
      if (Date.now() > deadline) throw new Error(`the import did not finish: ${JSON.stringify(info.body).slice(0, 500)}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }
  const exists = (p: string) =>
    access(p).then(
      () => true,
      () => false,
    );

  async function createSpace(title: string): Promise<string> {
    const res = await folio.request('POST', `/v1/orgs/${folio.organizationId}/spaces`, { title });
    expect(res.status).toBe(201);
    return res.body.id as string;
  }

  /** Gives a space a revision with one page and one file whose bytes are `pageText` / `fileText`. */
  async function addContent(spaceId: string, pageText: string, fileText: string): Promise<string> {
    const space = await folio.store.spaces.get(spaceId);
    const { id } = await folio.store.revisions.create({
      spaceId,
      parents: space?.revisionId ? [space.revisionId] : [],
      type: 'edits',
      pages: [{ id: 'p1', kind: 'document', title: 'Intro', slug: 'intro', path: 'intro', body: encoder.encode(pageText) }],
      files: [{ id: 'f1', name: 'a.txt', size: fileText.length, contentType: 'text/plain', bytes: encoder.encode(fileText) }],
    });
    await folio.store.spaces.setPrimaryRevision(spaceId, id);
    return id;
  }

  async function purgeResult(spaceId: string): Promise<PurgeSpaceResult> {
    return folio.client.workflow.getHandle(workflowIds.purge(spaceId)).result();
  }

  it('updates title, emoji and editMode with PATCH and validates the body', async () => {
    const id = await createSpace('Before');
    const res = await folio.request('PATCH', `/v1/spaces/${id}`, { title: 'After', emoji: '1f600', editMode: 'locked' });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ object: 'space', id, title: 'After', emoji: '1f600', editMode: 'locked' });
    expect(res.body.permissions.edit).toBe(false);
    expect((await folio.request('GET', `/v1/spaces/${id}`)).body.editMode).toBe('locked');
    const tooLong = await folio.request('PATCH', `/v1/spaces/${id}`, { title: 'x'.repeat(51) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.body).toEqual({ error: { code: 400, message: expect.any(String) } });
    const badMode = await folio.request('PATCH', `/v1/spaces/${id}`, { editMode: 'frozen' });
    expect(badMode.status).toBe(400);
    expect((await folio.request('GET', `/v1/spaces/${id}`)).body.title).toBe('After');
    expect((await folio.request('PATCH', '/v1/spaces/nope', { title: 'x' })).status).toBe(404);
  });

  it('stores defaultLevel (PATCH, read back, validated) and counts the change requests of the space', async () => {
    const id = await createSpace('Levels');
    await addContent(id, '# Intro\n', 'x');
    const initial = await folio.request('GET', `/v1/spaces/${id}`);
    expect(initial.body).toMatchObject({ defaultLevel: 'inherit', changeRequests: 0, changeRequestsOpen: 0, changeRequestsDraft: 0 });
    expect('gitSync' in initial.body).toBe(false);
    for (const level of ['read', null, 'inherit', 'edit'] as const) {
      const res = await folio.request('PATCH', `/v1/spaces/${id}`, { defaultLevel: level });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
      assertContract('patch', `/v1/spaces/${id}`, 200, res.body);
      expect(res.body.defaultLevel).toBe(level);
      expect((await folio.request('GET', `/v1/spaces/${id}`)).body.defaultLevel).toBe(level);
    }
    expect((await folio.request('PATCH', `/v1/spaces/${id}`, { defaultLevel: 'owner' })).status).toBe(400);
    expect((await folio.request('GET', `/v1/spaces/${id}`)).body.defaultLevel).toBe('edit');

    const crs: string[] = [];
    for (const subject of ['one', 'two', 'three']) {
      const cr = await folio.request('POST', `/v1/spaces/${id}/change-requests`, { subject });
      expect(cr.status).toBe(201);
      crs.push(cr.body.id as string);
    }
    expect((await folio.request('PATCH', `/v1/spaces/${id}/change-requests/${crs[1]}`, { status: 'draft' })).status).toBe(200);
    expect((await folio.request('PATCH', `/v1/spaces/${id}/change-requests/${crs[2]}`, { status: 'archived' })).status).toBe(200);
    const counted = await folio.request('GET', `/v1/spaces/${id}`);
    assertContract('get', `/v1/spaces/${id}`, 200, counted.body);
    expect(counted.body).toMatchObject({ changeRequests: 3, changeRequestsOpen: 1, changeRequestsDraft: 1 });
    const listed = await folio.request('GET', `/v1/orgs/${folio.organizationId}/spaces?limit=1000`);
    expect(listed.body.items.find((s: { id: string }) => s.id === id)).toMatchObject({ changeRequests: 3, changeRequestsOpen: 1, defaultLevel: 'edit' });
  });

  it('answers for another organization’s space as for no space (404; DELETE 204, untouched) and 401 without a token', async () => {
    const foreign = await folio.store.spaces.create('someone-else', { title: 'Theirs' });
    for (const [method, path, body] of [
      ['GET', `/v1/spaces/${foreign.id}`],
      ['PATCH', `/v1/spaces/${foreign.id}`, { title: 'mine' }],
      ['POST', `/v1/spaces/${foreign.id}/restore`],
    ] as const) {
      const res = await folio.request(method, path, body);
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ error: { code: 404, message: `space not found: ${foreign.id}` } });
      assertContract(method, path, 404, res.body);
    }
    expect((await folio.request('DELETE', `/v1/spaces/${foreign.id}`)).status).toBe(204);
    expect((await folio.store.spaces.get(foreign.id))?.title).toBe('Theirs');
    expect((await folio.store.spaces.get(foreign.id))?.deletedAt).toBeNull();
    const anonymous = await fetch(`${folio.baseUrl}/v1/spaces/${foreign.id}`, { method: 'DELETE' });
    expect(anonymous.status).toBe(401);
    assertContract('delete', `/v1/spaces/${foreign.id}`, 401, await anonymous.json());
  });

  it('deletes (205), hides the space, and restores it untouched within the window', async () => {
    const id = await createSpace('Keep me');
    const revisionId = await addContent(id, '# Intro\n\nkept\n', 'kept file');
    const before = (await folio.request('GET', `/v1/spaces/${id}`)).body;

    const del = await folio.request('DELETE', `/v1/spaces/${id}`);
    expect(del.status).toBe(205);
    assertContract('delete', `/v1/spaces/${id}`, 205, del.body);
    // Still readable by its organization until it is purged, with `deletedAt`; another organization gets 404.
    const deleted = await folio.request('GET', `/v1/spaces/${id}`);
    expect(deleted.status).toBe(200);
    assertContract('get', `/v1/spaces/${id}`, 200, deleted.body);
    expect(deleted.body).toMatchObject({ id, title: 'Keep me', revision: revisionId, deletedAt: expect.any(String) });
    const theirToken = (await folio.store.tokens.create('someone-else', { label: 'peer' })).token;
    const peer = await folio.request('GET', `/v1/spaces/${id}`, undefined, { authorization: `Bearer ${theirToken}` });
    expect(peer.status).toBe(404);
    expect(peer.body).toEqual({ error: { code: 404, message: `space not found: ${id}` } });
    const listed = await folio.request('GET', `/v1/orgs/${folio.organizationId}/spaces?limit=1000`);
    expect(listed.body.items.map((s: { id: string }) => s.id)).not.toContain(id);
    const stored = await folio.store.spaces.get(id, { includeDeleted: true });
    expect(stored?.deletedAt).toBeInstanceOf(Date);
    const description = await folio.client.workflow.getHandle(workflowIds.purge(id)).describe();
    expect(description.status.name).toBe('RUNNING');

    const restored = await folio.request('POST', `/v1/spaces/${id}/restore`);
    expect(restored.status).toBe(200);
    assertContract('post', `/v1/spaces/${id}/restore`, 200, restored.body);
    expect(restored.body).toMatchObject({ id, title: 'Keep me', revision: revisionId });
    expect(restored.body.deletedAt).toBeUndefined();
    expect(await purgeResult(id)).toEqual({ outcome: 'restored' });
    expect({ ...(await folio.request('GET', `/v1/spaces/${id}`)).body, updatedAt: 0 }).toEqual({ ...before, updatedAt: 0 });
    expect(new TextDecoder().decode((await folio.store.revisions.pageBody(revisionId, 'p1'))!)).toBe('# Intro\n\nkept\n');
  });

  it('purges everything when the window ends, keeping blobs another space uses; restore is then 404', async () => {
    const doomed = await createSpace('Doomed');
    const other = await createSpace('Neighbour');
    const revisionId = await addContent(doomed, '# Shared page\n', 'only in doomed');
    await addContent(other, '# Shared page\n', 'neighbour file');
    const sharedHash = (await folio.store.revisions.page(revisionId, 'p1'))!.bodyHash!;
    const ownHash = (await folio.store.revisions.file(revisionId, 'f1'))!.hash!;

    // Stand-in for the space's git queue: any workflow running under `space/<id>/git`.
    const gitQueue = await folio.client.workflow.start('purgeSpaceWorkflow', {
      workflowId: workflowIds.gitQueue(doomed),
      taskQueue: folio.config.taskQueue,
      args: [{ spaceId: 'stand-in', deletionId: 'stand-in', purgeAfterMs: 3_600_000 }],
    });

    expect((await folio.request('DELETE', `/v1/spaces/${doomed}`)).status).toBe(205);
    const result = await purgeResult(doomed);
    expect((await gitQueue.describe()).status.name).toBe('TERMINATED');
    expect(result).toMatchObject({ outcome: 'purged' });
    expect(result.outcome === 'purged' && result.revisions).toBe(2);

    expect(await folio.store.spaces.get(doomed, { includeDeleted: true })).toBeNull();
    expect(await folio.store.revisions.get(revisionId)).toBeNull();
    const kept = await folio.store.blobs.has([sharedHash, ownHash]);
    expect(kept.has(sharedHash)).toBe(true);
    expect(kept.has(ownHash)).toBe(false);
    expect((await folio.request('GET', `/v1/spaces/${doomed}`)).status).toBe(404);
    const restore = await folio.request('POST', `/v1/spaces/${doomed}/restore`);
    expect(restore.status).toBe(404);
    assertContract('post', `/v1/spaces/${doomed}/restore`, 404, restore.body);
    expect((await folio.request('GET', `/v1/spaces/${other}`)).status).toBe(200);
    // Deleting it again: it does not exist any more.
    const again = await folio.request('DELETE', `/v1/spaces/${doomed}`);
    expect(again.status).toBe(204);
    assertContract('delete', `/v1/spaces/${doomed}`, 204, again.body);
  });

  it('refuses an import into a locked space with a clear 403, and nothing changes', async () => {
    const id = await createSpace('Locked');
    const revisionId = await addContent(id, '# Intro\n\nkept\n', 'kept file');
    expect((await folio.request('PATCH', `/v1/spaces/${id}`, { editMode: 'locked' })).status).toBe(200);
    const path = `/v1/spaces/${id}/git/import`;
    const res = await folio.request('POST', path, { url: git.url('docs'), ref: 'refs/heads/main', timestamp: new Date().toISOString() });
    expect(res.status).toBe(403);
    assertContract('post', path, 403, res.body);
    expect(res.body.error.message).toMatch(/locked/);
    expect(res.body.error.message).toContain('editMode');
    // Nothing was queued or recorded, and the content is the same.
    await expect(folio.client.workflow.getHandle(workflowIds.gitQueue(id)).describe()).rejects.toThrow();
    expect((await folio.request('GET', `/v1/spaces/${id}/git/info`)).status).toBe(404);
    expect((await folio.store.spaces.get(id))!.revisionId).toBe(revisionId);
    expect((await folio.request('GET', `/v1/spaces/${id}/content/pages`)).body.pages.map((p: { title: string }) => p.title)).toEqual(['Intro']);
  });

  it('the purge removes all of the space’s git caches (its directory) and no other space’s', async () => {
    const id = await createSpace('Synced');
    const other = await createSpace('Other');
    // Another repository through a cache the client named, then the docs (the same commit twice would end as a
    // no-op from the remote's ref, before any cache is opened).
    expect(await importDocs(id, { url: git.url('handbook'), repoCacheID: 'handbook' })).toBe('succeeded');
    expect(await importDocs(id)).toBe('succeeded');
    expect(await importDocs(other, { repoCacheID: 'handbook' })).toBe('succeeded');
    // The space object carries its git sync, the spec's GitSyncState.
    const synced = await folio.request('GET', `/v1/spaces/${id}`);
    assertContract('get', `/v1/spaces/${id}`, 200, synced.body);
    expect(synced.body.gitSync).toMatchObject({ installationStatus: 'active', repoName: 'docs', operation: { state: 'success', direction: 'import' } });
    const info = await folio.request('GET', `/v1/spaces/${id}/git/info`);
    assertContract('get', `/v1/spaces/${id}/git/info`, 200, info.body);
    expect(info.body.installationId).toBe(synced.body.gitSync.installationId);
    const root = path.join(folio.config.dataDir, 'git-cache');
    const dir = spaceCacheDir(root, { organizationId: folio.organizationId, spaceId: id });
    const otherDir = spaceCacheDir(root, { organizationId: folio.organizationId, spaceId: other });
    const byRepo = path.join(dir, cacheKey({ url: git.url('docs'), ref: 'refs/heads/main' }));
    const byId = path.join(dir, cacheKey({ url: '', ref: '', repoCacheID: 'handbook' }));
    expect(await exists(path.join(byRepo, 'config'))).toBe(true);
    expect(await exists(path.join(byId, 'config'))).toBe(true);
    expect(await exists(path.join(otherDir, 'id-handbook', 'config'))).toBe(true);
    expect((await folio.request('DELETE', `/v1/spaces/${id}`)).status).toBe(205);
    // Still there during the window (a restore would need nothing refetched)…
    expect(await exists(byRepo)).toBe(true);
    expect(await purgeResult(id)).toMatchObject({ outcome: 'purged' });
    // …and gone after it, the whole directory of the space; the other space's cache of the same name stays.
    expect(await exists(dir)).toBe(false);
    expect(await exists(path.join(otherDir, 'id-handbook', 'config'))).toBe(true);
    expect(await folio.store.gitSync.get(id)).toMatchObject({ repo: null, operation: null });
  });

  it('a second DELETE is 204 and keeps the one purge run', async () => {
    const id = await createSpace('Twice');
    expect((await folio.request('DELETE', `/v1/spaces/${id}`)).status).toBe(205);
    const first = await folio.client.workflow.getHandle(workflowIds.purge(id)).describe();
    expect((await folio.request('DELETE', `/v1/spaces/${id}`)).status).toBe(204);
    const second = await folio.client.workflow.getHandle(workflowIds.purge(id)).describe();
    expect(second.runId).toBe(first.runId);
    expect(await purgeResult(id)).toMatchObject({ outcome: 'purged' });
  });

  it('restored and deleted again: the earlier deletion never purges, the later one does', async () => {
    const id = await createSpace('Again');
    expect((await folio.request('DELETE', `/v1/spaces/${id}`)).status).toBe(205);
    const firstDeletion = (await folio.store.spaces.get(id, { includeDeleted: true }))!.deletionId!;
    const firstRun = (await folio.client.workflow.getHandle(workflowIds.purge(id)).describe()).runId;
    expect((await folio.request('POST', `/v1/spaces/${id}/restore`)).status).toBe(200);
    expect((await folio.request('DELETE', `/v1/spaces/${id}`)).status).toBe(205);
    const second = await folio.store.spaces.get(id, { includeDeleted: true });
    expect(second!.deletionId).not.toBe(firstDeletion);
    const firstHandle = folio.client.workflow.getHandle(workflowIds.purge(id), firstRun);
    expect(['COMPLETED', 'TERMINATED']).toContain((await firstHandle.describe()).status.name);

    // The purge activity itself refuses a stale deletion.
    const activities = createPurgeActivities({ store: folio.store, config: folio.config, logger: testLogger('purge') });
    expect(await activities.purgeSpaceContent({ spaceId: id, deletionId: firstDeletion })).toMatchObject({ purged: false });
    expect(await folio.store.spaces.get(id, { includeDeleted: true })).not.toBeNull();
    expect(await purgeResult(id)).toMatchObject({ outcome: 'purged' });
    expect(await folio.store.spaces.get(id, { includeDeleted: true })).toBeNull();
  });
});
