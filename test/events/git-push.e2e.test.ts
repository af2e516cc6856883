/**
 * Issue 28, push-triggered sync: a push to the loopback git server, announced by a GitHub-shaped webhook signed with
 * the space's secret, imports the new commit without any API call; a forged signature is refused and starts nothing;
 * a push of another branch is ignored.
 */
import { createHmac } from 'node:crypto';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedFolio, type TestFolio } from '../helpers/folio.js';
import { runGit, startGitServer, type GitServer } from '../helpers/git-server.js';

const SECRET = 'push-secret-of-the-space';
let folio: TestFolio;
let git: GitServer;
let work: string;

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

function hook(spaceId: string, payload: unknown, secret = SECRET, event = 'push') {
  const body = JSON.stringify(payload);
  return fetch(`${folio.baseUrl}/hooks/github/spaces/${spaceId}`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      'x-github-event': event,
      'x-hub-signature-256': `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`,
    },
    body,
  });
}

beforeAll(async () => {
  // The fork's Folio of the loopback files (a vault key, loopback servers allowed), in an organization of this file's own.
  folio = await sharedFolio({ loopback: true });
  git = await startGitServer();
  work = await mkdtemp(path.join(tmpdir(), 'folio-git-push-'));
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

describe('push-triggered sync', () => {
  it('a signed push imports the new commit; a forged one and another branch start nothing', async () => {
    const space = (await folio.request('POST', `/v1/orgs/${folio.organizationId}/spaces`, { title: 'Pushed' })).body.id as string;
    expect((await folio.request('PUT', `/v1/spaces/${space}/git/push-secret`, { secret: SECRET })).status).toBe(204);
    // The first import names the space's repository and branch (git/info).
    expect((await folio.request('POST', `/v1/spaces/${space}/git/import`, { url: git.url('docs'), ref: 'refs/heads/main' })).status).toBe(204);
    await until('the first import', async () => ((await pageText(space))?.includes('First version') ? true : undefined));

    const clone = path.join(work, 'clone');
    await runGit(['clone', '-q', '--branch', 'main', git.url('docs'), clone]);
    await writeFile(path.join(clone, 'guide.md'), '# Guide\n\nPushed version.\n');
    await runGit(['commit', '-q', '-am', 'second'], { cwd: clone });
    await runGit(['push', '-q', 'origin', 'main'], { cwd: clone });
    const after = (await runGit(['rev-parse', 'HEAD'], { cwd: clone })).trim();
    const payload = { ref: 'refs/heads/main', after, deleted: false, head_commit: { id: after, timestamp: new Date().toISOString() } };

    const requestsBefore = (await folio.store.gitRequests.list(space)).length;
    const forged = await hook(space, payload, 'not-the-secret-at-all');
    expect(forged.status).toBe(401);
    const otherBranch = await hook(space, { ...payload, ref: 'refs/heads/feature' });
    expect(otherBranch.status).toBe(202);
    expect(await otherBranch.json()).toMatchObject({ queued: false });
    // Nothing queued: no request logged, the page unchanged.
    await new Promise((r) => setTimeout(r, 1500));
    expect((await folio.store.gitRequests.list(space)).length).toBe(requestsBefore);
    expect(await pageText(space)).toContain('First version');

    const signed = await hook(space, payload);
    expect(signed.status).toBe(202);
    expect(await signed.json()).toMatchObject({ queued: true });
    await until('the pushed commit imported', async () => ((await pageText(space))?.includes('Pushed version') ? true : undefined));
    expect((await folio.store.gitSync.get(space)).lastImport?.commit).toBe(after);
  }, 300_000);
});
