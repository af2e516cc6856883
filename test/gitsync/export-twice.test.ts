/**
 * Exporting twice: the second export finds, in the repository, the files the first one wrote for pages whose records
 * do not say where they are (a page created in Folio, a page moved in Folio) and updates them in place: no second
 * copy under a numbered name (`new-1.md`), no old path written again. An import (of the exported commit or of a
 * later one) maps those files to the same pages. A retry that finds its push went through records the same paths.
 * The activities run directly (no Temporal) against the loopback git server and an in-memory store.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitSyncActivities } from '../../activities/git-sync.js';
import { applyContentChanges, type ContentChange } from '../../src/change-requests/apply-changes.js';
import { loadConfig } from '../../src/config/config.js';
import { flattenPages, loadRevisionModel } from '../../src/revision/records.js';
import type { GitSyncPatch, Store } from '../../src/store/index.js';
import type { GitOperationResult } from '../../src/temporal/contract/index.js';
import { runGit, startGitServer, type GitServer } from '../helpers/git-server.js';
import { LOOPBACK_ALLOW_HOSTS } from '../helpers/loopback-policy.js';
import { testLogger } from '../helpers/logger.js';
import { createTestStore } from '../helpers/store.js';
import { gitSyncRequests } from '../helpers/git-sync-request.js';

let store: Store;
let server: GitServer;
let work: string;
let acts: ReturnType<typeof createGitSyncActivities>;

const request = gitSyncRequests((repo) => server.url(repo), Date.UTC(2025, 11, 1));

const bare = (repo: string) => path.join(server.root, `${repo}.git`);
const remoteHead = async (repo: string) => (await runGit(['rev-parse', 'refs/heads/main'], { cwd: bare(repo) })).trim();
/** The files of the branch, sorted. */
const filesOf = async (repo: string) =>
  (await runGit(['ls-tree', '-r', '--name-only', 'refs/heads/main'], { cwd: bare(repo) })).split('\n').filter(Boolean).sort();
const fileText = (repo: string, file: string) => runGit(['show', `refs/heads/main:${file}`], { cwd: bare(repo) });
/** The paths the last commit of the branch added, modified or deleted. */
const lastChanges = async (repo: string) =>
  (await runGit(['diff', '--name-status', 'refs/heads/main~1', 'refs/heads/main'], { cwd: bare(repo) }))
    .split('\n')
    .filter(Boolean)
    .map((l) => l.replace(/\s+/, ' '))
    .sort();

/** Applies `changes` to the space's primary revision and makes the result primary. */
async function edit(spaceId: string, changes: ContentChange[]): Promise<string> {
  const current = (await store.spaces.get(spaceId))!.revisionId!;
  const { revisionId } = await applyContentChanges(store, spaceId, current, changes);
  await store.spaces.setPrimaryRevision(spaceId, revisionId, { expected: current });
  return revisionId;
}

/** The primary revision's document pages: id → git path (or null), and id → title. */
async function pagesOf(spaceId: string): Promise<Array<{ id: string; title: string; git: string | null }>> {
  const loaded = (await loadRevisionModel(store, (await store.spaces.get(spaceId))!.revisionId!, { bodies: false }))!;
  return flattenPages(loaded.model.pages).flatMap((p) => (p.kind === 'document' ? [{ id: p.id, title: p.title, git: p.git?.path ?? null }] : []));
}

async function importedSpace(repo: string): Promise<{ spaceId: string; id: (gitPath: string) => string }> {
  const space = await store.spaces.create('org', { title: repo });
  expect((await acts.gitImportActivity(request(space.id, repo, 'import'))).outcome).toBe('applied');
  const pages = await pagesOf(space.id);
  return { spaceId: space.id, id: (gitPath) => pages.find((p) => p.git === gitPath)!.id };
}

async function exported(spaceId: string, repo: string, activities = acts): Promise<GitOperationResult> {
  const result = await activities.gitExportActivity(request(spaceId, repo, 'export'));
  expect(result.outcome).toBe('applied');
  expect(result.commit).toBe(await remoteHead(repo));
  return result;
}

/** An upstream commit (someone else pushing to the repository). */
async function pushUpstream(repo: string, file: string, text: string): Promise<void> {
  const clone = await mkdtemp(path.join(work, 'upstream-'));
  await runGit(['clone', '-q', server.url(repo), clone]);
  await writeFile(path.join(clone, file), text);
  await runGit(['commit', '-qam', `upstream edit of ${file}`], { cwd: clone });
  await runGit(['push', '-q', 'origin', 'HEAD:main'], { cwd: clone });
  await rm(clone, { recursive: true, force: true });
}

const DOCS: Record<string, string> = {
  'README.md': '# Home\n\nStart.\n',
  'SUMMARY.md': '# Table of contents\n\n* [Home](README.md)\n* [A](page-a.md)\n* [B](page-b.md)\n* [C](page-c.md)\n',
  'page-a.md': '# A\n\nAlpha.\n',
  'page-b.md': '# B\n\nBeta, see [A](page-a.md).\n',
  'page-c.md': '# C\n\nGamma.\n',
};

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'folio-export-twice-'));
  store = await createTestStore();
  await store.orgs.ensure({ id: 'org', title: 'Org' });
  server = await startGitServer();
  const docs = path.join(work, 'docs');
  await mkdir(docs, { recursive: true });
  for (const [p, text] of Object.entries(DOCS)) await writeFile(path.join(docs, p), text);
  for (const repo of ['new-page', 'moved-pages', 'retry']) await server.createBareRepo(repo, { fromDir: docs, branch: 'main', message: 'docs' });
  const other = path.join(work, 'other');
  await mkdir(other, { recursive: true });
  await writeFile(path.join(other, 'LICENSE'), 'Not the space’s.\n');
  await server.createBareRepo('api-space', { fromDir: other, branch: 'main', message: 'a repository without docs' });
  acts = createGitSyncActivities({
    store,
    config: loadConfig({ DATA_DIR: path.join(work, 'data'), FETCH_ALLOW_HOSTS: LOOPBACK_ALLOW_HOSTS }),
    logger: testLogger('export-twice'),
  });
});

afterAll(async () => {
  await store?.close();
  await server?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('a second export of pages the first one wrote', () => {
  it('a page created in Folio: one file, updated in place; imports map it to the same page', async () => {
    const repo = 'new-page';
    const { spaceId, id } = await importedSpace(repo);
    await edit(spaceId, [{ operation: 'insert_page', title: 'New', document: { markdown: '# New\n\nA new page.\n' } }]);
    const newId = (await pagesOf(spaceId)).find((p) => p.title === 'New')!.id;
    await exported(spaceId, repo);
    expect(await filesOf(repo)).toEqual(['README.md', 'SUMMARY.md', 'new.md', 'page-a.md', 'page-b.md', 'page-c.md']);

    // Something else changes: the new page's file is left as it is.
    await edit(spaceId, [{ operation: 'update_page', page: id('page-a.md'), document: { markdown: '# A\n\nAlpha, edited in Folio.\n' } }]);
    await exported(spaceId, repo);
    expect(await filesOf(repo)).toEqual(['README.md', 'SUMMARY.md', 'new.md', 'page-a.md', 'page-b.md', 'page-c.md']);
    expect(await lastChanges(repo)).toEqual(['M page-a.md']);

    // The new page's text changes: its file is updated in place.
    await edit(spaceId, [{ operation: 'update_page', page: newId, document: { markdown: '# New\n\nRewritten in Folio.\n' } }]);
    await exported(spaceId, repo);
    expect(await filesOf(repo)).toEqual(['README.md', 'SUMMARY.md', 'new.md', 'page-a.md', 'page-b.md', 'page-c.md']);
    expect(await lastChanges(repo)).toEqual(['M new.md']);
    expect(await fileText(repo, 'new.md')).toContain('Rewritten in Folio.');

    // An import of that very commit while the space moved on (a newer revision): the file is the same page.
    await edit(spaceId, [{ operation: 'update_page', page: id('page-c.md'), document: { markdown: '# C\n\nGamma, edited.\n' } }]);
    const before = await pagesOf(spaceId);
    expect((await acts.gitImportActivity(request(spaceId, repo, 'import'))).outcome).toBe('applied');
    const afterOwn = await pagesOf(spaceId);
    expect(afterOwn.filter((p) => p.title === 'New')).toEqual([{ id: newId, title: 'New', git: 'new.md' }]);
    expect(afterOwn.map((p) => p.id).sort()).toEqual(before.map((p) => p.id).sort());

    // Another page created and exported, then an upstream commit imported: both files keep their pages.
    await edit(spaceId, [{ operation: 'insert_page', title: 'Other', document: { markdown: '# Other\n\nAnother one.\n' } }]);
    const otherId = (await pagesOf(spaceId)).find((p) => p.title === 'Other')!.id;
    await exported(spaceId, repo);
    await pushUpstream(repo, 'page-b.md', '# B\n\nBeta, edited upstream.\n');
    expect((await acts.gitImportActivity(request(spaceId, repo, 'import'))).outcome).toBe('applied');
    const afterUpstream = await pagesOf(spaceId);
    expect(afterUpstream.filter((p) => p.title === 'New' || p.title === 'Other').sort((a, b) => a.title.localeCompare(b.title))).toEqual([
      { id: newId, title: 'New', git: 'new.md' },
      { id: otherId, title: 'Other', git: 'other.md' },
    ]);
    expect(afterUpstream).toHaveLength(before.length + 1);
  });

  it('pages moved in Folio (renamed, and into another page): the old paths go once, the new ones are written once', async () => {
    const repo = 'moved-pages';
    const { spaceId, id } = await importedSpace(repo);
    const [a, b, c] = [id('page-a.md'), id('page-b.md'), id('page-c.md')];
    await edit(spaceId, [
      { operation: 'update_page', page: c, slug: 'gamma' },
      { operation: 'update_page', page: b, into: a },
    ]);
    await exported(spaceId, repo);
    const layout = ['README.md', 'SUMMARY.md', 'gamma.md', 'page-a.md', 'page-a/page-b.md'];
    expect(await filesOf(repo)).toEqual(layout);
    // B's link to A follows B into its new folder.
    expect(await fileText(repo, 'page-a/page-b.md')).toContain('[A](../page-a.md)');

    // Something else changes: the moved pages stay where the first export put them.
    await edit(spaceId, [{ operation: 'update_page', page: a, document: { markdown: '# A\n\nAlpha, edited in Folio.\n' } }]);
    await exported(spaceId, repo);
    expect(await filesOf(repo)).toEqual(layout);
    expect(await lastChanges(repo)).toEqual(['M page-a.md']);

    // A moved page's text changes: its file is updated in place.
    await edit(spaceId, [{ operation: 'update_page', page: c, document: { markdown: '# C\n\nGamma, edited in Folio.\n' } }]);
    await exported(spaceId, repo);
    expect(await filesOf(repo)).toEqual(layout);
    expect(await lastChanges(repo)).toEqual(['M gamma.md']);

    // Moved again: from where the first export put it.
    await edit(spaceId, [{ operation: 'update_page', page: c, slug: 'delta' }]);
    await exported(spaceId, repo);
    expect(await filesOf(repo)).toEqual(['README.md', 'SUMMARY.md', 'delta.md', 'page-a.md', 'page-a/page-b.md']);

    // An upstream commit imported: the moved files keep their pages.
    const before = await pagesOf(spaceId);
    await pushUpstream(repo, 'README.md', '# Home\n\nStart, edited upstream.\n');
    expect((await acts.gitImportActivity(request(spaceId, repo, 'import'))).outcome).toBe('applied');
    const after = await pagesOf(spaceId);
    expect(after.map((p) => p.id).sort()).toEqual(before.map((p) => p.id).sort());
    expect(after.find((p) => p.id === b)!.git).toBe('page-a/page-b.md');
    expect(after.find((p) => p.id === c)!.git).toBe('delta.md');
  });

  it('a space written through the API (no page from git): every page stays in the file the first export wrote', async () => {
    const repo = 'api-space';
    const space = await store.spaces.create('org', { title: repo });
    const { id: empty } = await store.revisions.create({ spaceId: space.id, parents: [], type: 'edits', pages: [], files: [] });
    await store.spaces.setPrimaryRevision(space.id, empty);
    await edit(space.id, [
      { operation: 'insert_page', title: 'Welcome', document: { markdown: '# Welcome\n\nHello.\n' } },
      { operation: 'insert_page', title: 'Guide', ref: 'guide', document: { markdown: '# Guide\n\nRead on.\n' } },
    ]);
    const guide = (await pagesOf(space.id)).find((p) => p.title === 'Guide')!.id;
    await edit(space.id, [{ operation: 'insert_page', title: 'Step', into: guide, document: { markdown: '# Step\n\nOne.\n' } }]);
    await exported(space.id, repo);
    const layout = await filesOf(repo);
    expect(layout).toEqual(['LICENSE', 'SUMMARY.md', 'guide/README.md', 'guide/step.md', 'welcome.md']);

    await edit(space.id, [{ operation: 'update_page', page: guide, document: { markdown: '# Guide\n\nRead on, edited.\n' } }]);
    await exported(space.id, repo);
    expect(await filesOf(repo)).toEqual(layout);
    expect(await lastChanges(repo)).toEqual(['M guide/README.md']);
  });

  it('a retry whose push went through records the paths the push wrote', async () => {
    const repo = 'retry';
    const { spaceId, id } = await importedSpace(repo);
    await edit(spaceId, [{ operation: 'insert_page', title: 'Late', document: { markdown: '# Late\n\nA new page.\n' } }]);
    // The first attempt pushes, then fails before recording the export (a worker lost after the push).
    let failed = false;
    const failingStore: Store = {
      ...store,
      gitSync: {
        ...store.gitSync,
        update: async (spaceId: string, patch: GitSyncPatch, options?: Parameters<Store['gitSync']['update']>[2]) => {
          if (!failed && patch.lastExport?.commit && patch.lastExport.commit === (await remoteHead(repo))) {
            failed = true;
            throw new Error('worker lost after the push');
          }
          return store.gitSync.update(spaceId, patch, options);
        },
      },
    };
    const crashing = createGitSyncActivities({
      store: failingStore,
      config: loadConfig({ DATA_DIR: path.join(work, 'data'), FETCH_ALLOW_HOSTS: LOOPBACK_ALLOW_HOSTS }),
      logger: testLogger('export-twice'),
    });
    const req = request(spaceId, repo, 'export');
    await expect(crashing.gitExportActivity(req)).rejects.toThrow();
    expect(failed).toBe(true);
    expect(await filesOf(repo)).toContain('late.md');
    const retried = await acts.gitExportActivity(req);
    expect(retried.outcome).toBe('applied');

    await edit(spaceId, [{ operation: 'update_page', page: id('page-a.md'), document: { markdown: '# A\n\nAlpha, edited in Folio.\n' } }]);
    await exported(spaceId, repo);
    expect(await filesOf(repo)).toEqual(['README.md', 'SUMMARY.md', 'late.md', 'page-a.md', 'page-b.md', 'page-c.md']);
  });
});
