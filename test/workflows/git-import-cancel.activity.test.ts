/**
 * The git import activity (gitImportOperation) cancelled while it waits for the pack, in MockActivityEnvironment
 * (no Temporal server): the activity runs against the loopback git server behind a holding proxy, on a test
 * store. The cancel reaches it as the activity's cancellation (a heartbeat's answer): it ends CANCELLED and the
 * space keeps its content; the same import not cancelled stores its revision. The end-to-end counterpart is the
 * cancelled import of git-sync-failures.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { MockActivityEnvironment } from '@temporalio/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openGitSyncBed, type GitSyncBed } from '../helpers/git-sync-bed.js';
import { gitSyncRequests } from '../helpers/git-sync-request.js';
import { startHoldingProxy, type HoldingProxy } from '../gitsync/holding-proxy.js';

let bed: GitSyncBed;
let proxy: HoldingProxy;
let request: ReturnType<typeof gitSyncRequests>;

beforeAll(async () => {
  bed = await openGitSyncBed('import-cancel');
  proxy = await startHoldingProxy(bed.server.port);
  request = gitSyncRequests((repo) => proxy.url(repo));
  const docs = path.join(bed.work, 'docs');
  await mkdir(docs, { recursive: true });
  await writeFile(path.join(docs, 'README.md'), '# Home\n\nStart here.\n');
  await writeFile(path.join(docs, 'page.md'), '# Page\n\nOnly in the cancelled import.\n');
  // A repository per test: the activity's git cache would answer a second import of one without a pack request.
  for (const repo of ['docs-1', 'docs-3']) await bed.server.createBareRepo(repo, { fromDir: docs, branch: 'main', message: 'docs' });
});

afterAll(async () => {
  await proxy?.stop();
  await bed?.close();
});

/** What the space holds that an import could change. */
async function content(spaceId: string) {
  const revisions = (await bed.store.revisions.listForSpace(spaceId, { limit: 100 })).items.map((r) => r.id);
  return { revisions, primary: (await bed.store.spaces.get(spaceId))!.revisionId, lastImport: (await bed.store.gitSync.get(spaceId)).lastImport };
}

const info = (requestId: string) => ({ workflowExecution: { workflowId: `space/x/git-import/${requestId}`, runId: 'run-1' }, heartbeatTimeoutMs: 60_000 });

describe('git import activity cancelled while it waits for the pack (MockActivityEnvironment)', () => {
  it('the cancellation reaches the activity: CANCELLED, nothing stored', async () => {
    const space = await bed.store.spaces.create('org', { title: 'Cancelled' });
    const before = await content(space.id);
    const r = request(space.id, 'docs-1', 'import');
    const env = new MockActivityEnvironment(info(r.requestId));
    const held = proxy.holdNext();
    const run = env.run(bed.acts.gitImportOperation, r);
    run.catch(() => undefined);
    await held;
    env.cancel();
    proxy.release('forward');
    await expect(run).rejects.toMatchObject({ type: 'CANCELLED', nonRetryable: true });
    expect(await content(space.id)).toEqual(before);
  });

  it('the control: not cancelled, the same import stores its revision and makes it primary', async () => {
    const space = await bed.store.spaces.create('org', { title: 'Imported' });
    const r = request(space.id, 'docs-3', 'import');
    const env = new MockActivityEnvironment(info(r.requestId));
    const beats: unknown[] = [];
    env.on('heartbeat', (d: unknown) => beats.push(d));
    const result = await env.run(bed.acts.gitImportOperation, r);
    expect(result).toMatchObject({ outcome: 'applied', revisionId: expect.any(String) });
    expect((await bed.store.spaces.get(space.id))!.revisionId).toBe(result.revisionId);
    // Its progress went out as heartbeats (what lets a dead worker's attempt time out and a cancel reach it).
    expect(beats.length).toBeGreaterThan(0);
  });
});
