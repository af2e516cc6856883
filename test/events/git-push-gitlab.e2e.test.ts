/**
 * Issue 28, push-triggered sync with GitLab's hook (`X-Gitlab-Token`, the space's secret): a push to the loopback git
 * server imports the new commit without any API call; a forged token is refused and starts nothing. Pushes of
 * Folio's own exports, announced by either host, are recognised and not imported: the commit the last export wrote,
 * and an earlier export whose hook arrives after a later one (by its `Folio-Space` trailer).
 */
import { createHmac } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedFolio, type TestFolio } from '../helpers/folio.js';
import { waitGitIdle } from '../helpers/git-idle.js';
import { runGit, startGitServer, type GitServer } from '../helpers/git-server.js';

const SECRET = 'gitlab-token-of-the-space';
let folio: TestFolio;
let git: GitServer;
let work: string;
let tick = Date.parse('2026-01-01T00:00:00Z');

async function until<T>(what: string, probe: () => Promise<T | undefined>, timeoutMs = 120_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

async function pageText(spaceId: string): Promise<string | undefined> {
  const res = await folio.request('GET', `/v1/spaces/${spaceId}/content/path/guide?format=markdown`);
  return res.status === 200 ? (res.body.markdown as string) : undefined;
}

function gitlabHook(spaceId: string, payload: unknown, token: string | null = SECRET, event = 'Push Hook') {
  return fetch(`${folio.baseUrl}/hooks/gitlab/spaces/${spaceId}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-gitlab-event': event, ...(token !== null ? { 'x-gitlab-token': token } : {}) },
    body: JSON.stringify(payload),
  });
}

function githubHook(spaceId: string, payload: unknown) {
  const body = JSON.stringify(payload);
  return fetch(`${folio.baseUrl}/hooks/github/spaces/${spaceId}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-github-event': 'push',
      'x-hub-signature-256': `sha256=${createHmac('sha256', SECRET).update(body).digest('hex')}`,
    },
    body,
  });
}

/** GitLab's push hook body for `commit` (its message and time as the host sends them). */
const gitlabPush = (commit: string, message: string, ref = 'refs/heads/main') => ({
  object_kind: 'push',
  ref,
  before: '0'.repeat(40),
  after: commit,
  checkout_sha: commit,
  commits: [{ id: commit, message, timestamp: new Date().toISOString() }],
});

/** Appends a paragraph to the guide in a new primary revision. */
async function editGuide(spaceId: string, text: string): Promise<void> {
  const { loadRevisionModel, modelToRevisionInput, flattenPages } = await import('../../src/revision/records.js');
  const current = (await folio.store.spaces.get(spaceId))!.revisionId!;
  const loaded = (await loadRevisionModel(folio.store, current))!;
  const page = flattenPages(loaded.model.pages).find((p) => (p as { git?: { path: string } }).git?.path === 'guide.md') as { markdown: string };
  page.markdown += `\n${text}\n`;
  const fileBytes = new Map<string, { hash: string }>([...loaded.fileHashes].map(([id, hash]) => [id, { hash }]));
  const { id } = await folio.store.revisions.create(modelToRevisionInput(loaded.model, { spaceId, parents: [current], type: 'edits', fileBytes }));
  await folio.store.spaces.setPrimaryRevision(spaceId, id, { expected: current });
}

async function exportSpace(spaceId: string): Promise<{ commit: string; message: string }> {
  const res = await folio.request('POST', `/v1/spaces/${spaceId}/git/export`, {
    url: git.url('docs'),
    ref: 'refs/heads/main',
    timestamp: new Date((tick += 60_000)).toISOString(),
    commitMessage: 'Docs from Folio',
  });
  expect(res.status, JSON.stringify(res.body)).toBe(204);
  const info = await waitGitIdle(folio, spaceId);
  expect(info.operation, JSON.stringify(info.operation)).toMatchObject({ state: 'success', direction: 'export' });
  const commit = (await folio.store.gitSync.get(spaceId)).lastExport!.commit;
  const clone = await mkdtemp(path.join(work, 'export-'));
  await runGit(['clone', '-q', '--branch', 'main', git.url('docs'), clone]);
  return { commit, message: await runGit(['log', '-1', '--format=%B', commit], { cwd: clone }) };
}

beforeAll(async () => {
  // The fork's Folio of the loopback files (a vault key, loopback servers allowed), in an organization of this file's own.
  folio = await sharedFolio({ loopback: true });
  git = await startGitServer();
  work = await mkdtemp(path.join(tmpdir(), 'folio-git-push-gitlab-'));
  const src = path.join(work, 'src');
  await runGit(['init', '-q', '-b', 'main', src]);
  await writeFile(path.join(src, 'README.md'), '# Home\n\nWelcome.\n');
  await writeFile(path.join(src, 'guide.md'), '# Guide\n\nFirst version.\n');
  await runGit(['add', '-A'], { cwd: src });
  await runGit(['commit', '-q', '-m', 'first'], { cwd: src });
  await git.createBareRepo('docs', { fromDir: src, branch: 'main' });
});
afterAll(async () => {
  await folio?.stop();
  await git?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('push-triggered sync from GitLab', () => {
  it('a push with the space’s token imports the new commit; a forged token starts nothing; Folio’s own exports are not imported', async () => {
    const space = (await folio.request('POST', `/v1/orgs/${folio.organizationId}/spaces`, { title: 'Pushed' })).body.id as string;
    expect((await folio.request('PUT', `/v1/spaces/${space}/git/push-secret`, { secret: SECRET })).status).toBe(204);
    expect(
      (await folio.request('POST', `/v1/spaces/${space}/git/import`, { url: git.url('docs'), ref: 'refs/heads/main', timestamp: new Date(tick).toISOString() }))
        .status,
    ).toBe(204);
    await until('the first import', async () => ((await pageText(space))?.includes('First version') ? true : undefined));

    const clone = path.join(work, 'clone');
    await runGit(['clone', '-q', '--branch', 'main', git.url('docs'), clone]);
    await writeFile(path.join(clone, 'guide.md'), '# Guide\n\nPushed version.\n');
    await runGit(['commit', '-q', '-am', 'second'], { cwd: clone });
    await runGit(['push', '-q', 'origin', 'main'], { cwd: clone });
    const after = (await runGit(['rev-parse', 'HEAD'], { cwd: clone })).trim();
    const payload = { ...gitlabPush(after, 'second\n'), commits: [{ id: after, message: 'second\n', timestamp: new Date((tick += 60_000)).toISOString() }] };

    const requestsBefore = (await folio.store.gitRequests.list(space)).length;
    for (const token of ['not-the-token-at-all', null, `${SECRET}x`, SECRET.slice(0, -1)]) {
      const forged = await gitlabHook(space, payload, token);
      expect(forged.status, String(token)).toBe(401);
      expect(((await forged.json()) as { error: { message: string } }).error.message).toMatch(/X-Gitlab-Token/);
    }
    expect(await (await gitlabHook(space, payload, SECRET, 'Tag Push Hook')).json()).toMatchObject({ queued: false });
    expect(await (await gitlabHook(space, gitlabPush(after, 'second\n', 'refs/heads/feature'))).json()).toMatchObject({ queued: false });
    await new Promise((r) => setTimeout(r, 1500));
    expect((await folio.store.gitRequests.list(space)).length).toBe(requestsBefore);
    expect(await pageText(space)).toContain('First version');

    const signed = await gitlabHook(space, payload);
    expect(signed.status).toBe(202);
    expect(await signed.json()).toMatchObject({ queued: true });
    await until('the pushed commit imported', async () => ((await pageText(space))?.includes('Pushed version') ? true : undefined));
    expect((await folio.store.gitSync.get(space)).lastImport?.commit).toBe(after);
    await waitGitIdle(folio, space);

    // Two exports; the hooks of both arrive after the second: neither is imported, by either host.
    await editGuide(space, 'Edited in Folio once.');
    const first = await exportSpace(space);
    await editGuide(space, 'Edited in Folio twice.');
    const second = await exportSpace(space);
    expect(first.commit).not.toBe(second.commit);
    const requestsAfterExports = (await folio.store.gitRequests.list(space)).length;
    for (const exported of [second, first]) {
      for (const res of [
        await gitlabHook(space, gitlabPush(exported.commit, exported.message)),
        await githubHook(space, { ref: 'refs/heads/main', after: exported.commit, head_commit: { id: exported.commit, message: exported.message } }),
      ]) {
        expect(res.status).toBe(202);
        expect(await res.json()).toEqual({ queued: false, reason: 'Folio’s own export' });
      }
    }
    expect((await folio.store.gitRequests.list(space)).length).toBe(requestsAfterExports);
  }, 300_000);
});
