/**
 * Nothing from a repository is dropped silently (issue 10, item 6), through the real path: a repository served by
 * `git http-backend` on loopback, imported by the git workflows on the dev server, exported to a new repository
 * and cloned with the git CLI. Pages Folio cannot read as pages (10 MB, invalid UTF-8, binary) keep their bytes
 * and come back unchanged; every loss or set-aside is a typed warning in `git/info`, in the import workflow's
 * result and in the run's details/memo (Temporal UI); a repository without GitBook content fails, typed, and the
 * space keeps its content.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { workflowIds } from '../../src/temporal/contract/index.js';
import type { GitOperationResult } from '../../src/temporal/contract/index.js';
import { sharedFolio, type TestFolio } from '../helpers/folio.js';
import { runGit, startGitServer, type GitServer } from '../helpers/git-server.js';
import { waitGitIdle } from '../helpers/git-idle.js';

const REF = 'refs/heads/main';
const PASSWORD = 'lossless-pw';
const enc = (s: string) => new TextEncoder().encode(s);

let folio: TestFolio;
let server: GitServer;
let work: string;
let tick = Date.UTC(2025, 8, 1);
const nextTimestamp = () => new Date((tick += 60_000)).toISOString();

/** The files of the repository with unreadable pages. */
const BIG = (() => {
  const head = enc('# Big\n\n');
  const line = enc('A line of a page far too large to parse, repeated until it weighs ten mebibytes.\n');
  const out = new Uint8Array(10 * 1024 * 1024);
  out.set(head);
  for (let at = head.length; at < out.length; at += line.length) out.set(line.subarray(0, Math.min(line.length, out.length - at)), at);
  return out;
})();
/** Three bytes that are not UTF-8 (Latin-1 é, ï, é). */
const LATIN = new Uint8Array([...enc('# Caf'), 0xe9, ...enc('\n\nNa'), 0xef, ...enc('ve r'), 0xe9, ...enc('sum.\n')]);
/** A "page" that is binary: a PNG signature and NUL bytes. */
const BINARY = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d, ...enc('IHDR'), 0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0]);
const SUMMARY = '# Table of contents\n\n* [Home](README.md)\n* [Big](big.md)\n* [Latin](latin.md)\n* [Binary](binary.md)\n* [Gone](gone.md)\n';

async function writeRepo(dir: string, files: Record<string, Uint8Array | string>): Promise<void> {
  for (const [name, bytes] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), bytes);
  }
}

async function newSpace(): Promise<string> {
  const created = await folio.request('POST', `/v1/orgs/${folio.organizationId}/spaces`, { title: 'Lossless' });
  expect(created.status).toBe(201);
  return created.body.id;
}

const waitIdle = (spaceId: string, timeoutMs = 180_000) => waitGitIdle(folio, spaceId, timeoutMs);

async function sync(direction: 'import' | 'export', spaceId: string, repo: string): Promise<any> {
  const res = await folio.request('POST', `/v1/spaces/${spaceId}/git/${direction}`, {
    url: server.authedUrl(repo),
    ref: REF,
    timestamp: nextTimestamp(),
    ...(direction === 'export' ? { commitMessage: 'Export from Folio' } : {}),
  });
  expect(res.status).toBe(204);
  return waitIdle(spaceId);
}

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'folio-lossless-'));
  folio = await sharedFolio({ loopback: true });
  server = await startGitServer({ auth: { username: 'folio', password: PASSWORD } });
});

afterAll(async () => {
  await folio?.stop();
  await server?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('nothing lost silently on import', () => {
  it('a 10 MB page, invalid UTF-8, a binary .md and a missing SUMMARY entry: typed warnings in git/info, the result and the Temporal UI; the pages keep their bytes and export unchanged', async () => {
    const src = path.join(work, 'unreadable');
    await writeRepo(src, { 'README.md': '# Home\n\nWelcome.\n', 'SUMMARY.md': SUMMARY, 'big.md': BIG, 'latin.md': LATIN, 'binary.md': BINARY });
    const bare = await server.createBareRepo('unreadable', { fromDir: src, branch: 'main', message: 'unreadable pages' });
    const spaceId = await newSpace();
    const info = await sync('import', spaceId, 'unreadable');

    // git/info: the operation succeeded, with its typed warnings (errors first), and the last import keeps them.
    expect(info.operation).toMatchObject({ state: 'success', direction: 'import' });
    const report = info.operation.warnings;
    expect(report.counts).toMatchObject({ FORMAT_PAGE_TOO_LARGE: 1, FORMAT_PAGE_INVALID_UTF8: 1, FORMAT_PAGE_BINARY: 1, FORMAT_SUMMARY_MISSING_FILE: 1 });
    const byCode = Object.fromEntries(report.warnings.map((w: { code: string }) => [w.code, w]));
    expect(byCode.FORMAT_PAGE_TOO_LARGE).toMatchObject({ severity: 'error', path: 'big.md' });
    expect(byCode.FORMAT_PAGE_TOO_LARGE.message).toContain(`${BIG.byteLength} bytes`);
    expect(byCode.FORMAT_PAGE_INVALID_UTF8).toMatchObject({ severity: 'error', path: 'latin.md' });
    expect(byCode.FORMAT_PAGE_INVALID_UTF8.message).toContain('3 invalid bytes');
    expect(byCode.FORMAT_PAGE_BINARY).toMatchObject({ severity: 'error', path: 'binary.md' });
    expect(byCode.FORMAT_SUMMARY_MISSING_FILE).toMatchObject({ severity: 'error', path: 'SUMMARY.md' });
    expect(byCode.FORMAT_SUMMARY_MISSING_FILE.message).toContain('gone.md');
    expect(info.lastImport.warnings).toEqual(report);

    // The import workflow's result and the Temporal UI (memo, current details of the run).
    const requestId = info.operation.requestId as string;
    const handle = folio.client.workflow.getHandle(workflowIds.gitImport(spaceId, requestId));
    const result = (await handle.result()) as GitOperationResult;
    expect(result.outcome).toBe('applied');
    expect(result.warnings).toEqual(report);
    expect(result.detail).toContain(`${report.total} warning`);
    const desc = await handle.describe();
    expect(desc.memo).toMatchObject({ warningCount: report.total, warningCodes: report.counts });
    const details = (await handle.query<{ currentDetails?: string }>('__temporal_workflow_metadata')).currentDetails ?? '';
    for (const code of ['FORMAT_PAGE_TOO_LARGE', 'FORMAT_PAGE_INVALID_UTF8', 'FORMAT_PAGE_BINARY', 'FORMAT_SUMMARY_MISSING_FILE'])
      expect(details).toContain(code);
    expect(details).toContain('big.md');

    // The API shows each such page as what it is (raw, with the reason); the store holds its bytes as they are.
    const revisionId = (await folio.store.spaces.get(spaceId))!.revisionId!;
    const pages = (await folio.request('GET', `/v1/spaces/${spaceId}/content/pages`)).body.pages as Array<{ id: string; path: string; raw?: unknown }>;
    const expected: Record<string, [string, Uint8Array]> = {
      big: ['FORMAT_PAGE_TOO_LARGE', BIG],
      latin: ['FORMAT_PAGE_INVALID_UTF8', LATIN],
      binary: ['FORMAT_PAGE_BINARY', BINARY],
    };
    for (const [slug, [reason, bytes]] of Object.entries(expected)) {
      const page = pages.find((p) => p.path === slug)!;
      expect(page, slug).toBeDefined();
      expect(page.raw).toEqual({ reason, size: bytes.byteLength });
      const one = await folio.request('GET', `/v1/spaces/${spaceId}/content/page/${page.id}?format=markdown`);
      expect(one.status).toBe(200);
      expect(one.body.raw).toEqual({ reason, size: bytes.byteLength });
      expect(one.body.markdown).toBeUndefined();
      const stored = await folio.store.revisions.pageBody(revisionId, page.id);
      expect(stored && Buffer.from(stored).equals(Buffer.from(bytes)), `${slug}: stored bytes`).toBe(true);
    }

    // Export to a new, empty repository: the git CLI finds the very same blobs.
    await server.createBareRepo('unreadable-out');
    const exported = await sync('export', spaceId, 'unreadable-out');
    expect(exported.operation).toMatchObject({ state: 'success', direction: 'export' });
    const clone = await mkdtemp(path.join(work, 'clone-'));
    await runGit(['clone', '-q', '--branch', 'main', server.authedUrl('unreadable-out'), clone]);
    for (const file of ['big.md', 'latin.md', 'binary.md', 'README.md']) {
      const original = (await runGit(['rev-parse', `main:${file}`], { cwd: bare })).trim();
      expect((await runGit(['rev-parse', `HEAD:${file}`], { cwd: clone })).trim(), file).toBe(original);
      expect((await runGit(['hash-object', file], { cwd: clone })).trim(), file).toBe(original);
    }
    expect(Buffer.from(await readFile(path.join(clone, 'latin.md'))).equals(Buffer.from(LATIN))).toBe(true);
    await runGit(['fsck', '--full', '--strict'], { cwd: clone });

    // A raw page edited through a change request becomes a page of text with the new markdown.
    const latin = pages.find((p) => p.path === 'latin')!;
    const cr = await folio.request('POST', `/v1/spaces/${spaceId}/change-requests`, { subject: 'fix encoding' });
    expect(cr.status).toBe(201);
    const fixed = '# Café\n\nNaïve résumé.\n';
    const edit = await folio.request('POST', `/v1/spaces/${spaceId}/change-requests/${cr.body.id}/content`, {
      changes: [{ operation: 'update_page', page: latin.id, document: { markdown: fixed } }],
    });
    expect(edit.status, JSON.stringify(edit.body)).toBe(200);
    expect((await folio.request('POST', `/v1/spaces/${spaceId}/change-requests/${cr.body.id}/merge`)).status).toBe(200);
    const after = await folio.request('GET', `/v1/spaces/${spaceId}/content/page/${latin.id}?format=markdown`);
    expect(after.body.raw).toBeUndefined();
    expect(after.body.markdown).toBe(fixed);
    const { loadRevisionModel } = await import('../../src/revision/records.js');
    const model = (await loadRevisionModel(folio.store, (await folio.store.spaces.get(spaceId))!.revisionId!))!.model;
    const { documents } = await import('../../src/format/index.js');
    expect([...documents(model.pages)].find((p) => p.id === latin.id)).toMatchObject({ markdown: fixed });
  }, 300_000);

  it('a repository with no GitBook content (no SUMMARY.md, no Markdown) fails FORMAT_NO_CONTENT, typed and not retried; the space keeps its content', async () => {
    const good = path.join(work, 'good');
    await writeRepo(good, { 'README.md': '# Home\n\nKept.\n', 'SUMMARY.md': '# Table of contents\n\n* [Home](README.md)\n' });
    await server.createBareRepo('good', { fromDir: good, branch: 'main', message: 'good' });
    const nothing = path.join(work, 'nothing');
    await writeRepo(nothing, { 'notes.txt': 'not a page\n', 'images/logo.png': BINARY });
    await server.createBareRepo('nothing', { fromDir: nothing, branch: 'main', message: 'no gitbook content' });

    const spaceId = await newSpace();
    expect((await sync('import', spaceId, 'good')).operation).toMatchObject({ state: 'success' });
    const before = (await folio.store.spaces.get(spaceId))!.revisionId;
    const info = await sync('import', spaceId, 'nothing');
    expect(info.operation).toMatchObject({ state: 'failure', direction: 'import', errorCode: 'FORMAT_NO_CONTENT' });
    expect(info.operation.error).toMatch(/no GitBook content.*2 other files.*keeps its content/);
    const requestId = info.operation.requestId as string;
    expect(info.requests.find((r: { requestId: string }) => r.requestId === requestId)).toMatchObject({ status: 'failed', code: 'FORMAT_NO_CONTENT' });
    // Not retried: one attempt of the import activity.
    const history = await folio.client.workflow.getHandle(workflowIds.gitImport(spaceId, requestId)).fetchHistory();
    const started = (history.events ?? []).filter((e) => e.activityTaskStartedEventAttributes && e.activityTaskStartedEventAttributes.attempt !== undefined);
    expect(started.filter((e) => (e.activityTaskStartedEventAttributes!.attempt ?? 1) > 1)).toEqual([]);
    // The space keeps its content.
    expect((await folio.store.spaces.get(spaceId))!.revisionId).toBe(before);
    const pages = (await folio.request('GET', `/v1/spaces/${spaceId}/content/pages`)).body.pages;
    expect(pages.map((p: { title: string }) => p.title)).toEqual(['Home']);
  }, 180_000);
});
