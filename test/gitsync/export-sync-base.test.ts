/**
 * The export's conflict check when the last synced commit is not in the repository cache (evicted cache, a new
 * worker, a shallow fetch): the export fetches what it needs (deepens) and still finds the conflict; when the
 * commit is gone from the remote history (the branch was rewritten), it fails with the typed
 * SYNC_BASE_UNAVAILABLE instead of overwriting the remote's edits; with `force` it proceeds, on top of the
 * remote head. The activities run directly (no Temporal) against the loopback git server and an in-memory store.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ApplicationFailure } from '@temporalio/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { flattenPages, loadRevisionModel, modelToRevisionInput } from '../../src/revision/records.js';
import type { Store } from '../../src/store/index.js';
import { runGit, type GitServer } from '../helpers/git-server.js';
import { openGitSyncBed, type GitSyncBed } from '../helpers/git-sync-bed.js';
import { gitSyncRequests } from '../helpers/git-sync-request.js';

let bed: GitSyncBed;
let store: Store;
let server: GitServer;
let work: string;
let acts: GitSyncBed['acts'];

const request = gitSyncRequests((repo) => server.url(repo), Date.UTC(2025, 9, 1));

/** Imports `repo` into a new space, then edits page-1 in Folio (a new primary revision). */
async function importAndEdit(repo: string): Promise<string> {
  const space = await store.spaces.create('org', { title: repo });
  await acts.gitImportActivity(request(space.id, repo, 'import'));
  const revA = (await store.spaces.get(space.id))!.revisionId!;
  const loaded = (await loadRevisionModel(store, revA))!;
  const page = flattenPages(loaded.model.pages).find((p: any) => p.git?.path === 'page-1.md') as any;
  page.markdown += '\nEdited in Folio.\n';
  const fileBytes = new Map([...loaded.fileHashes].map(([id, hash]) => [id, { hash }]));
  const { id: edited } = await store.revisions.create(modelToRevisionInput(loaded.model, { spaceId: space.id, parents: [revA], type: 'edits', fileBytes }));
  await store.spaces.setPrimaryRevision(space.id, edited, { expected: revA });
  return space.id;
}

async function remoteHead(repo: string): Promise<string> {
  return (await runGit(['rev-parse', 'refs/heads/main'], { cwd: path.join(server.root, `${repo}.git`) })).trim();
}

const evictCache = () => rm(path.join(work, 'data', 'git-cache'), { recursive: true, force: true });

async function failureOf(p: Promise<unknown>): Promise<ApplicationFailure> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApplicationFailure);
  return err as ApplicationFailure;
}

beforeAll(async () => {
  bed = await openGitSyncBed('export-base');
  ({ store, server, work, acts } = bed);
  const docs = path.join(work, 'docs');
  await mkdir(docs, { recursive: true });
  await writeFile(path.join(docs, 'README.md'), '# Home\n\nStart.\n');
  for (let i = 1; i <= 3; i++) await writeFile(path.join(docs, `page-${i}.md`), `# Page ${i}\n\nBody ${i}.\n`);
  await server.createBareRepo('deep', { fromDir: docs, branch: 'main', message: 'docs' });
  await server.createBareRepo('rewritten', { fromDir: docs, branch: 'main', message: 'docs' });
});

afterAll(async () => {
  await bed?.close();
});

describe('export conflict check without the synced commit in the cache', () => {
  it('evicted cache, remote moved by many commits: the export deepens and still ends in CONFLICT', async () => {
    const spaceId = await importAndEdit('deep');
    const clone = await mkdtemp(path.join(work, 'clone-'));
    await runGit(['clone', '-q', server.url('deep'), clone]);
    await writeFile(path.join(clone, 'page-1.md'), '# Page 1\n\nEdited on the remote.\n');
    await runGit(['commit', '-qam', 'remote edit'], { cwd: clone });
    // More commits than the first deepening step (16) fetches.
    for (let i = 0; i < 20; i++) {
      await writeFile(path.join(clone, 'page-3.md'), `# Page 3\n\nRevision ${i}.\n`);
      await runGit(['commit', '-qam', `other ${i}`], { cwd: clone });
    }
    await runGit(['push', '-q', 'origin', 'HEAD:main'], { cwd: clone });
    const head = await remoteHead('deep');
    await evictCache();
    const failure = await failureOf(acts.gitExportActivity(request(spaceId, 'deep', 'export')));
    expect(failure.type).toBe('CONFLICT');
    expect(failure.message).toContain('page-1.md');
    expect(await remoteHead('deep')).toBe(head);
  });

  it('evicted cache, remote history rewritten: SYNC_BASE_UNAVAILABLE, the remote untouched; force exports on top of the remote head', async () => {
    const spaceId = await importAndEdit('rewritten');
    // Someone replaces the branch with a new history (no common commit) that also edits page-1.
    const clone = await mkdtemp(path.join(work, 'clone-'));
    await runGit(['clone', '-q', server.url('rewritten'), clone]);
    await runGit(['checkout', '-q', '--orphan', 'fresh'], { cwd: clone });
    await writeFile(path.join(clone, 'page-1.md'), '# Page 1\n\nRewritten on the remote.\n');
    await runGit(['add', '-A'], { cwd: clone });
    await runGit(['commit', '-qm', 'rewritten history'], { cwd: clone });
    await runGit(['push', '-q', '--force', 'origin', 'fresh:main'], { cwd: clone });
    const head = await remoteHead('rewritten');
    await evictCache();

    const failure = await failureOf(acts.gitExportActivity(request(spaceId, 'rewritten', 'export')));
    expect(failure.type).toBe('SYNC_BASE_UNAVAILABLE');
    expect(failure.nonRetryable).toBe(true);
    expect(await remoteHead('rewritten')).toBe(head);

    const forced = await acts.gitExportActivity(request(spaceId, 'rewritten', 'export', { force: true }));
    expect(forced.outcome).toBe('applied');
    const after = await mkdtemp(path.join(work, 'after-'));
    await runGit(['clone', '-q', server.url('rewritten'), after]);
    expect((await runGit(['rev-parse', 'HEAD~1'], { cwd: after })).trim()).toBe(head);
    expect(await readFile(path.join(after, 'page-1.md'), 'utf8')).toContain('Edited in Folio.');
  });
});
