/**
 * The round trips of an export: it asks receive-pack for the branch's head (the advertisement its push starts from,
 * kept for it: advertisement-memo.ts); when the space's cache holds that commit it fetches nothing, so a one-page
 * export makes the two requests of `git push`. When the branch moved to a commit the cache does not hold, it fetches,
 * keeps the remote's change and pushes on top of it.
 * The activities run directly (no Temporal) against the loopback git server and an in-memory store.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { applyContentChanges } from '../../src/change-requests/apply-changes.js';
import { flattenPages, loadRevisionModel } from '../../src/revision/records.js';
import type { Store } from '../../src/store/index.js';
import { runGit, type GitServer } from '../helpers/git-server.js';
import { openGitSyncBed, type GitSyncBed } from '../helpers/git-sync-bed.js';
import { gitSyncRequests } from '../helpers/git-sync-request.js';

let bed: GitSyncBed;
let store: Store;
let server: GitServer;
let work: string;
let acts: GitSyncBed['acts'];
const request = gitSyncRequests((repo) => server.url(repo), Date.UTC(2025, 11, 5));
const bare = (repo: string) => path.join(server.root, `${repo}.git`);
const remoteHead = async (repo: string) => (await runGit(['rev-parse', 'refs/heads/main'], { cwd: bare(repo) })).trim();
const fileText = (repo: string, file: string) => runGit(['show', `refs/heads/main:${file}`], { cwd: bare(repo) });

/** The smart-HTTP requests made since `from`, as `GET upload-pack`, `POST git-receive-pack`, … */
const requestsSince = (from: number) =>
  server.requests.slice(from).map((r) => (r.method === 'GET' ? `GET ${r.service ?? r.path}` : `${r.method} ${path.basename(r.path)}`));

async function editPage(spaceId: string, gitPath: string, markdown: string): Promise<void> {
  const current = (await store.spaces.get(spaceId))!.revisionId!;
  const loaded = (await loadRevisionModel(store, current, { bodies: false }))!;
  const page = flattenPages(loaded.model.pages).find((p) => p.kind === 'document' && p.git?.path === gitPath)!;
  const { revisionId } = await applyContentChanges(store, spaceId, current, [{ operation: 'update_page', page: page.id, document: { markdown } }]);
  await store.spaces.setPrimaryRevision(spaceId, revisionId, { expected: current });
}

beforeAll(async () => {
  bed = await openGitSyncBed('export-round-trips');
  ({ store, server, work, acts } = bed);
  const docs = path.join(work, 'docs');
  await mkdir(docs, { recursive: true });
  await writeFile(path.join(docs, 'README.md'), '# Home\n\nStart.\n');
  await writeFile(path.join(docs, 'SUMMARY.md'), '# Table of contents\n\n* [Home](README.md)\n* [A](page-a.md)\n* [B](page-b.md)\n');
  await writeFile(path.join(docs, 'page-a.md'), '# A\n\nAlpha.\n');
  await writeFile(path.join(docs, 'page-b.md'), '# B\n\nBeta.\n');
  await server.createBareRepo('docs', { fromDir: docs, branch: 'main', message: 'docs' });
});

afterAll(async () => {
  await bed?.close();
});

describe('the round trips of an export', () => {
  it('the cache holds the head: the advertisement and the pack of a push, nothing fetched; the branch moved: fetched and kept', async () => {
    const space = await store.spaces.create('org', { title: 'round trips' });
    expect((await acts.gitImportActivity(request(space.id, 'docs', 'import'))).outcome).toBe('applied');

    await editPage(space.id, 'page-a.md', '# A\n\nAlpha, edited in Folio.\n');
    let from = server.requests.length;
    const first = await acts.gitExportActivity(request(space.id, 'docs', 'export'));
    expect(first.outcome).toBe('applied');
    expect(first.commit).toBe(await remoteHead('docs'));
    expect(requestsSince(from)).toEqual(['GET git-receive-pack', 'POST git-receive-pack']);
    expect(await fileText('docs', 'page-a.md')).toContain('edited in Folio');

    // Someone else pushes: the head receive-pack advertises is not in the cache, so the export fetches it first.
    const clone = path.join(work, 'upstream');
    await runGit(['clone', '-q', server.url('docs'), clone]);
    await writeFile(path.join(clone, 'page-b.md'), '# B\n\nBeta, edited upstream.\n');
    await runGit(['commit', '-qam', 'upstream edit'], { cwd: clone });
    await runGit(['push', '-q', 'origin', 'HEAD:main'], { cwd: clone });
    const upstream = await remoteHead('docs');
    await editPage(space.id, 'page-a.md', '# A\n\nAlpha, edited twice.\n');
    from = server.requests.length;
    const second = await acts.gitExportActivity(request(space.id, 'docs', 'export'));
    expect(second.outcome).toBe('applied');
    const seen = requestsSince(from);
    expect(seen.filter((r) => r === 'GET git-receive-pack')).toHaveLength(1);
    expect(seen).toContain('GET git-upload-pack');
    expect(seen).toContain('POST git-upload-pack');
    expect(seen.at(-1)).toBe('POST git-receive-pack');
    // On top of the upstream commit, which it keeps.
    expect((await runGit(['rev-parse', 'refs/heads/main~1'], { cwd: bare('docs') })).trim()).toBe(upstream);
    expect(await fileText('docs', 'page-b.md')).toContain('edited upstream');
    expect(await fileText('docs', 'page-a.md')).toContain('edited twice');

    // Nothing new since: a no-op asks receive-pack only.
    from = server.requests.length;
    expect((await acts.gitExportActivity(request(space.id, 'docs', 'export'))).outcome).toBe('noop');
    expect(requestsSince(from)).toEqual(['GET git-receive-pack']);
  });
});
