/**
 * Git sync failures through the HTTP API and `git/info`, on the real dev server, git http-backend and store:
 * a file over the size limit, bad credentials, unknown repository, unknown ref, push rejected by a protected branch, too many pages, a
 * cancelled operation. Each ends as a typed non-retryable failure (one activity attempt) and leaves the
 * space's content as it was. The whole run's logs are captured (pino to memory, the Temporal SDK's runtime
 * logger included: worker, activity and workflow logs): no password in them, nor in git/info, error messages,
 * workflow histories, memos or search attributes; the vault keeps no credentials of requests that never ran.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { WorkflowFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLogger } from '../../src/log.js';
import { workflowIds } from '../../src/temporal/contract/index.js';
import { startFolio, type TestFolio } from '../helpers/folio.js';
import { routeSdkLogs } from '../helpers/sdk-runtime.js';
import { runGit, startGitServer, type GitServer } from '../helpers/git-server.js';
import { LOOPBACK_ALLOW_HOSTS } from '../helpers/loopback-policy.js';
import { startHoldingProxy, type HoldingProxy } from './holding-proxy.js';
import { waitGitIdle } from '../helpers/git-idle.js';
import { rawSql } from '../../src/store/raw-sql.js';

const AUTH = { username: 'folio', password: 'F41lure-tests-Pa55' };
const WRONG = { username: 'folio', password: 'Wr0ng-but-s3cret-too' };
const SECRETS = [AUTH.password, WRONG.password];
const REF = 'refs/heads/main';
const MAX_PAGES = 5;
/** FOLIO_GIT_MAX_FILE_BYTES in this file: small, so a test repository can exceed it cheaply (the default is 100 MB). */
const MAX_FILE_BYTES = 64 * 1024;

let folio: TestFolio;
let server: GitServer;
let proxy: HoldingProxy;
let work: string;
const logLines: string[] = [];
let unrouteSdkLogs: (() => void) | undefined;
let tick = Date.UTC(2025, 6, 1);
const nextTimestamp = () => new Date((tick += 60_000)).toISOString();

async function writeDocs(dir: string, pages: number): Promise<void> {
  await mkdir(dir, { recursive: true });
  await writeFile(path.join(dir, 'README.md'), '# Home\n\nThe start page.\n');
  for (let i = 1; i < pages; i++) await writeFile(path.join(dir, `page-${i}.md`), `# Page ${i}\n\nText of page ${i}.\n`);
}

const waitIdle = (spaceId: string, timeoutMs = 90_000) => waitGitIdle(folio, spaceId, timeoutMs);

async function send(spaceId: string, direction: 'import' | 'export', url: string, extra: Record<string, unknown> = {}) {
  const res = await folio.request('POST', `/v1/spaces/${spaceId}/git/${direction}`, {
    url,
    ref: REF,
    timestamp: nextTimestamp(),
    ...(direction === 'export' ? { commitMessage: 'from Folio' } : {}),
    ...extra,
  });
  expect(res.status).toBe(204);
}

/** The revisions of a space (ids), to check that a failure created none. */
async function revisionIds(spaceId: string): Promise<string[]> {
  return (await folio.store.revisions.listForSpace(spaceId, { limit: 100 })).items.map((r) => r.id).sort();
}

/** The operation's child workflow failed with `code`, non-retryable, after exactly one activity attempt. */
async function expectTypedFailure(spaceId: string, info: any, code: string): Promise<void> {
  expect(info.operation).toMatchObject({ state: 'failure', errorCode: code });
  const requestId = info.operation.requestId as string;
  const id = info.operation.direction === 'import' ? workflowIds.gitImport(spaceId, requestId) : workflowIds.gitExport(spaceId, requestId);
  const handle = folio.client.workflow.getHandle(id);
  const err = await handle.result().then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(WorkflowFailedError);
  const cause = (err as WorkflowFailedError).cause;
  expect(cause).toBeInstanceOf(ApplicationFailure);
  expect((cause as ApplicationFailure).type).toBe(code);
  expect((cause as ApplicationFailure).nonRetryable).toBe(true);
  const history = await handle.fetchHistory();
  const attempts = (history.events ?? []).filter((e) => e.activityTaskStartedEventAttributes).map((e) => e.activityTaskStartedEventAttributes!.attempt);
  const heavyAttempts = attempts.filter((a) => a !== undefined);
  // Bookkeeping activities plus the git activity: none of them retried.
  expect(heavyAttempts.every((a) => a === 1)).toBe(true);
  const failed = (history.events ?? []).find((e) => e.activityTaskFailedEventAttributes);
  expect(failed?.activityTaskFailedEventAttributes?.failure?.applicationFailureInfo).toMatchObject({ type: code, nonRetryable: true });
}

let spaceId: string;
let baseline: { revisionId: string; revisions: string[]; lastImport: unknown };

async function expectContentIntact(): Promise<void> {
  const space = await folio.store.spaces.get(spaceId);
  expect(space!.revisionId).toBe(baseline.revisionId);
  expect(await revisionIds(spaceId)).toEqual(baseline.revisions);
  expect((await folio.store.gitSync.get(spaceId)).lastImport).toEqual(baseline.lastImport);
}

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'folio-gitsync-failures-'));
  const sink = new Writable({
    write(chunk, _enc, cb) {
      logLines.push(String(chunk));
      cb();
    },
  });
  const logger = createLogger('folio', { level: 'debug', pretty: false, destination: sink });
  // The Temporal SDK's own logs (worker, activity and workflow loggers, from warnings up) into the same capture
  // while this file runs (the SDK's runtime is installed once per test process: ../helpers/sdk-runtime.ts).
  unrouteSdkLogs = routeSdkLogs((line) => logLines.push(line));
  folio = await startFolio({
    env: {
      DATA_DIR: path.join(work, 'data'),
      FOLIO_VAULT_KEY: 'failures-vault-key',
      FETCH_ALLOW_HOSTS: LOOPBACK_ALLOW_HOSTS,
      FOLIO_GIT_MAX_PAGES: String(MAX_PAGES),
      FOLIO_GIT_MAX_FILE_BYTES: String(MAX_FILE_BYTES),
    },
    logger,
  });
  server = await startGitServer({ auth: AUTH });
  proxy = await startHoldingProxy(server.port);
  await writeDocs(path.join(work, 'small'), 3);
  await writeDocs(path.join(work, 'many'), MAX_PAGES + 4);
  await server.createBareRepo('small', { fromDir: path.join(work, 'small'), branch: 'main', message: 'small' });
  await server.createBareRepo('many', { fromDir: path.join(work, 'many'), branch: 'main', message: 'many' });
  await writeDocs(path.join(work, 'big'), 2);
  await mkdir(path.join(work, 'big', '.gitbook', 'assets'), { recursive: true });
  await writeFile(path.join(work, 'big', '.gitbook', 'assets', 'huge.bin'), Buffer.alloc(MAX_FILE_BYTES + 1, 7));
  await server.createBareRepo('big', { fromDir: path.join(work, 'big'), branch: 'main', message: 'big' });
  await server.createBareRepo('protected');
  await server.protectBranch('protected', 'main');

  const created = await folio.request('POST', `/v1/orgs/${folio.organizationId}/spaces`, { title: 'Failures' });
  expect(created.status).toBe(201);
  spaceId = created.body.id;
  await send(spaceId, 'import', server.authedUrl('small'));
  const info = await waitIdle(spaceId);
  expect(info.operation).toMatchObject({ state: 'success', direction: 'import' });
  const space = await folio.store.spaces.get(spaceId);
  baseline = { revisionId: space!.revisionId!, revisions: await revisionIds(spaceId), lastImport: (await folio.store.gitSync.get(spaceId)).lastImport };
  expect(baseline.revisions).toContain(baseline.revisionId);
});

afterAll(async () => {
  await folio?.stop();
  unrouteSdkLogs?.();
  await proxy?.stop();
  await server?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('git sync failures', () => {
  it('a file over the size limit: FILE_TOO_LARGE', async () => {
    await send(spaceId, 'import', server.authedUrl('big'));
    const info = await waitIdle(spaceId);
    await expectTypedFailure(spaceId, info, 'FILE_TOO_LARGE');
    await expectContentIntact();
  });

  it('bad credentials: AUTH_FAILED', async () => {
    await send(spaceId, 'import', proxy.url('small', WRONG));
    const info = await waitIdle(spaceId);
    await expectTypedFailure(spaceId, info, 'AUTH_FAILED');
    await expectContentIntact();
  });

  it('unknown repository: REPO_NOT_FOUND', async () => {
    await send(spaceId, 'import', server.authedUrl('no-such-repo'));
    const info = await waitIdle(spaceId);
    await expectTypedFailure(spaceId, info, 'REPO_NOT_FOUND');
    await expectContentIntact();
  });

  it('unknown ref: REF_NOT_FOUND', async () => {
    await send(spaceId, 'import', server.authedUrl('small'), { ref: 'refs/heads/no-such-branch' });
    const info = await waitIdle(spaceId);
    await expectTypedFailure(spaceId, info, 'REF_NOT_FOUND');
    expect(info.operation.error).toContain('no-such-branch');
    await expectContentIntact();
  });

  it("a remote whose pack-objects dies: REMOTE_CORRUPT with the remote's own message, not retried", async () => {
    await writeDocs(path.join(work, 'broken'), 3);
    await server.createBareRepo('broken', { fromDir: path.join(work, 'broken'), branch: 'main', message: 'broken' });
    // The loose object of one page's blob removed on the server: its upload-pack can no longer pack the tree.
    const gitdir = path.join(server.root, 'broken.git');
    const blob = (await runGit(['--git-dir', gitdir, 'rev-parse', 'main:page-1.md'])).trim();
    await rm(path.join(gitdir, 'objects', blob.slice(0, 2), blob.slice(2)));
    await send(spaceId, 'import', server.authedUrl('broken'));
    const info = await waitIdle(spaceId);
    await expectTypedFailure(spaceId, info, 'REMOTE_CORRUPT');
    expect(info.operation.error).toMatch(/possible repository corruption on the remote side/);
    expect(info.operation.error).toContain(blob);
    expect(info.operation.error).not.toMatch(/local repository cache/);
    await expectContentIntact();
  });

  it('push rejected by a protected branch: PUSH_REJECTED, the remote unchanged', async () => {
    await send(spaceId, 'export', server.authedUrl('protected'));
    const info = await waitIdle(spaceId);
    await expectTypedFailure(spaceId, info, 'PUSH_REJECTED');
    expect(info.lastExport ?? null).toBeNull();
    await expectContentIntact();
  });

  it(`more than FOLIO_GIT_MAX_PAGES (${MAX_PAGES}) pages: TOO_MANY_PAGES`, async () => {
    await send(spaceId, 'import', server.authedUrl('many'));
    const info = await waitIdle(spaceId);
    await expectTypedFailure(spaceId, info, 'TOO_MANY_PAGES');
    await expectContentIntact();
  });

  it('a cancelled import: CANCELLED in git/info; the held fetch then goes through and still nothing is stored', async () => {
    // A repository this space never imported and that imports fine: only the cancel can keep it out.
    await writeDocs(path.join(work, 'cancel'), 4);
    await writeFile(path.join(work, 'cancel', 'page-1.md'), '# Page 1\n\nOnly in the cancelled import.\n');
    await server.createBareRepo('cancel', { fromDir: path.join(work, 'cancel'), branch: 'main', message: 'cancel' });
    const held = proxy.holdNext();
    await send(spaceId, 'import', proxy.url('cancel', AUTH));
    await held; // the activity runs and waits for the pack
    const running = await folio.request('GET', `/v1/spaces/${spaceId}/git/info`);
    expect(running.body.operation).toMatchObject({ state: 'running', direction: 'import' });
    const requestId = running.body.operation.requestId as string;
    await folio.client.workflow.getHandle(workflowIds.gitImport(spaceId, requestId)).cancel();
    const end = Date.now() + 60_000;
    let info: any;
    for (;;) {
      info = (await folio.request('GET', `/v1/spaces/${spaceId}/git/info`)).body;
      if (info.operation?.requestId === requestId && info.operation.state !== 'running') break;
      if (Date.now() > end) throw new Error(`not cancelled: ${JSON.stringify(info.operation)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    expect(info.operation).toMatchObject({ state: 'failure', errorCode: 'CANCELLED' });
    // The fetch completes after all: the activity (its heartbeats throttled, no cancel seen yet) goes on, and
    // must find out about the cancel before it stores anything.
    proxy.release('forward');
    const until = Date.now() + 90_000;
    while (folio.worker.worker.getStatus().numInFlightActivities > 0) {
      if (Date.now() > until) throw new Error('the cancelled import activity did not finish');
      await new Promise((r) => setTimeout(r, 200));
    }
    info = await waitIdle(spaceId);
    const request = info.requests.find((r: any) => r.requestId === requestId);
    expect(request).toMatchObject({ status: 'failed', code: 'CANCELLED' });
    expect(info.operation).toMatchObject({ requestId, state: 'failure', errorCode: 'CANCELLED' });
    await expectContentIntact();
  });

  it('stale and duplicate requests leave no credentials in the vault', async () => {
    const credentialCount = async () =>
      Number((await rawSql(folio.store).query<{ n: string | number }>('SELECT count(*) AS n FROM vault_secrets WHERE space_id = $1', [spaceId]))[0]!.n);
    await waitIdle(spaceId);
    expect(await credentialCount()).toBe(0);
    // Older than the last applied import: dropped. The same request twice: the second is a duplicate.
    await send(spaceId, 'import', server.authedUrl('small'), { timestamp: '2020-01-01T00:00:00.000Z' });
    const body = { url: server.authedUrl('small'), ref: REF, timestamp: nextTimestamp() };
    for (let i = 0; i < 2; i++) expect((await folio.request('POST', `/v1/spaces/${spaceId}/git/import`, body)).status).toBe(204);
    const end = Date.now() + 90_000;
    let info: any;
    for (;;) {
      info = (await folio.request('GET', `/v1/spaces/${spaceId}/git/info`)).body;
      const statuses = info.requests.map((r: any) => r.status);
      if (
        statuses.includes('dropped-stale') &&
        info.queue?.recent?.some((o: any) => o.status === 'duplicate') &&
        info.queue.running === null &&
        info.queue.pending.length === 0
      )
        break;
      if (Date.now() > end) throw new Error(`not settled: ${JSON.stringify(info).slice(0, 800)}`);
      await new Promise((r) => setTimeout(r, 200));
    }
    // The request log is written by the same activity that deletes the vault entries: wait for it to settle.
    const until = Date.now() + 30_000;
    while ((await credentialCount()) !== 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 200));
    expect(await credentialCount()).toBe(0);
  });

  it('no password anywhere: logs, git/info, error messages, histories, memos, search attributes', async () => {
    const info = await folio.request('GET', `/v1/spaces/${spaceId}/git/info`);
    expect(info.body.requests.length).toBeGreaterThanOrEqual(7);
    const logs = logLines.join('');
    // The logs are real: the queued requests and the failed operations are in them.
    expect(logs).toContain('git request queued');
    expect(logs).toContain('git operation failed');
    // The Temporal SDK's logs are in the capture too: the queue workflow's own log lines among them.
    expect(logLines.some((l) => l.includes('"component":"temporal-sdk"') && l.includes('git operation failed'))).toBe(true);
    let histories = 0;
    let text = JSON.stringify(info.body);
    for await (const wf of folio.client.workflow.list({ query: `SpaceId = '${spaceId}'` })) {
      const handle = folio.client.workflow.getHandle(wf.workflowId, wf.runId);
      text +=
        JSON.stringify(await handle.fetchHistory()) +
        JSON.stringify(wf.memo ?? {}) +
        JSON.stringify(wf.searchAttributes ?? {}) +
        JSON.stringify(wf.typedSearchAttributes ?? {});
      histories++;
    }
    expect(histories).toBeGreaterThanOrEqual(7);
    for (const secret of SECRETS) {
      for (const form of [secret, encodeURIComponent(secret), Buffer.from(`folio:${secret}`).toString('base64')]) {
        expect(logs, 'logs').not.toContain(form);
        expect(text, 'git/info, histories, memos, search attributes').not.toContain(form);
      }
    }
  });
});

describe('ten requests with shuffled timestamps, real activities', () => {
  it("end state is the latest timestamp's; applied in timestamp order, the rest dropped as stale; one revision per applied import", async () => {
    // Ten branches with different content; request i imports branch b<i> with timestamp t0 + i minutes.
    const clone = await mkdtemp(path.join(work, 'shuffle-'));
    await runGit(['clone', '-q', '--branch', 'main', server.authedUrl('small'), clone]);
    for (let i = 0; i < 10; i++) {
      await runGit(['checkout', '-q', '-B', `b${i}`, 'origin/main'], { cwd: clone });
      await writeFile(path.join(clone, 'page-1.md'), `# Page 1\n\nVersion ${i} of page one.\n`);
      await runGit(['commit', '-qam', `version ${i}`], { cwd: clone });
    }
    await runGit(['push', '-q', 'origin', ...Array.from({ length: 10 }, (_, i) => `b${i}`)], { cwd: clone });

    const created = await folio.request('POST', `/v1/orgs/${folio.organizationId}/spaces`, { title: 'Shuffled' });
    const space = created.body.id as string;
    const before = await revisionIds(space);
    const t0 = Date.UTC(2025, 8, 1);
    const order = [7, 2, 9, 0, 5, 3, 8, 1, 6, 4]; // a fixed shuffle
    for (const i of order) {
      const res = await folio.request('POST', `/v1/spaces/${space}/git/import`, {
        url: server.authedUrl('small'),
        ref: `refs/heads/b${i}`,
        timestamp: new Date(t0 + i * 60_000).toISOString(),
      });
      expect(res.status).toBe(204);
    }
    const info = await waitIdle(space, 180_000);
    const byTimestamp = new Map<string, any>(info.requests.map((r: any) => [r.timestamp, r]));
    expect(byTimestamp.size).toBe(10);
    const statuses = order.map((i) => byTimestamp.get(new Date(t0 + i * 60_000).toISOString())!.status);
    for (const st of statuses) expect(['succeeded', 'dropped-stale']).toContain(st);
    const latest = byTimestamp.get(new Date(t0 + 9 * 60_000).toISOString())!;
    expect(latest.status).toBe('succeeded');
    // Applied ones ran in timestamp order; every other one was older than an applied one and was dropped.
    const applied = [...byTimestamp.values()].filter((r) => r.status === 'succeeded').sort((a, b) => a.updatedAt.localeCompare(b.updatedAt));
    expect(applied.map((r) => r.timestamp)).toEqual([...applied.map((r) => r.timestamp)].sort());
    expect(applied.length).toBeGreaterThanOrEqual(2); // at least b7 (first) and b9 (latest)
    // How many were dropped depends on how many were pending when the first one ran; the log tells them apart.
    expect(statuses.filter((st) => st === 'dropped-stale').length).toBe(10 - applied.length);

    const primary = (await folio.store.spaces.get(space))!.revisionId!;
    const after = await revisionIds(space);
    expect(after.filter((id) => !before.includes(id))).toHaveLength(applied.length);
    const rev = await folio.store.revisions.get(primary);
    expect(rev?.git?.ref).toBe('refs/heads/b9');
    const pages = await folio.store.revisions.pages(primary);
    const flat: any[] = [];
    const walk = (ps: any[]) => ps.forEach((p) => (flat.push(p), walk(p.children)));
    walk(pages);
    const one = flat.find((p) => p.path?.includes('page-1'));
    expect(new TextDecoder().decode((await folio.store.revisions.pageBody(primary, one.id))!)).toContain('Version 9 of page one.');
  });
});
