/**
 * Issue 16: an export to a branch that does not exist yet starts from the repository's default branch (the remote
 * HEAD), never from an empty tree: the new branch keeps every other file of the repository, and only the space's
 * files change. The real `git http-backend` server and the `git` CLI check the result; nothing is force-pushed.
 */
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedFolio, type TestFolio } from '../helpers/folio.js';
import { runGit, startGitServer, type GitServer } from '../helpers/git-server.js';
import { waitGitIdle } from '../helpers/git-idle.js';
import { assertContract } from '../helpers/openapi-contract.js';

const PASSWORD = 'n3w-branch-pw';
let folio: TestFolio;
let server: GitServer;
let work: string;
let tick = Date.UTC(2025, 7, 1);
const nextTimestamp = () => new Date((tick += 60_000)).toISOString();

/** Files of the repository that are not the documentation (outside the `.gitbook.yaml` root `./docs/`). */
const OTHER_FILES: Record<string, string> = {
  'README.md': '# The product\n\nThe code lives in src/.\n',
  'src/index.js': 'export const answer = 42;\n',
  'package.json': '{ "name": "product", "version": "1.0.0" }\n',
  '.github/workflows/ci.yml': 'on: push\njobs: {}\n',
};
const DOC_FILES: Record<string, string> = {
  '.gitbook.yaml': 'root: ./docs/\n',
  'docs/README.md': '# Welcome\n\nThe handbook.\n',
  'docs/SUMMARY.md': '# Table of contents\n\n* [Welcome](README.md)\n* [Guide](guide.md)\n',
  'docs/guide.md': '# Guide\n\nStep one.\n',
};

async function writeTreeTo(dir: string, files: Record<string, string>): Promise<void> {
  for (const [name, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(dir, name)), { recursive: true });
    await writeFile(path.join(dir, name), text);
  }
}

/**
 * A repository whose default branch is `trunk` (the remote HEAD) with the docs and other files, and a branch
 * `other` whose head differs (so that "the default branch" is told apart from "some branch").
 */
async function productRepo(name: string): Promise<{ trunkHead: string }> {
  const dir = await mkdtemp(path.join(work, `src-${name}-`));
  await runGit(['init', '-q', '--initial-branch=trunk', dir]);
  await writeTreeTo(dir, { ...OTHER_FILES, ...DOC_FILES });
  await runGit(['add', '-A'], { cwd: dir });
  await runGit(['commit', '-qm', 'product and docs'], { cwd: dir });
  await runGit(['checkout', '-qb', 'other'], { cwd: dir });
  await writeFile(path.join(dir, 'only-on-other.txt'), 'not on trunk\n');
  await runGit(['add', '-A'], { cwd: dir });
  await runGit(['commit', '-qm', 'other work'], { cwd: dir });
  await runGit(['checkout', '-q', 'trunk'], { cwd: dir });
  await server.createBareRepo(name, { fromDir: dir, branch: 'trunk' });
  await runGit(['push', '-q', path.join(server.root, `${name}.git`), 'other:refs/heads/other'], { cwd: dir });
  return { trunkHead: (await runGit(['rev-parse', 'trunk'], { cwd: dir })).trim() };
}

async function newSpace(): Promise<string> {
  const created = await folio.request('POST', `/v1/orgs/${folio.organizationId}/spaces`, { title: 'Product docs' });
  expect(created.status).toBe(201);
  return created.body.id as string;
}

async function sync(spaceId: string, direction: 'import' | 'export', repo: string, ref: string, extra: Record<string, unknown> = {}) {
  const res = await folio.request('POST', `/v1/spaces/${spaceId}/git/${direction}`, {
    url: server.authedUrl(repo),
    ref,
    timestamp: nextTimestamp(),
    ...(direction === 'export' ? { commitMessage: 'Docs from Folio' } : {}),
    ...extra,
  });
  expect(res.status, JSON.stringify(res.body)).toBe(204);
  return waitGitIdle(folio, spaceId);
}

/** Appends a paragraph to the page at `gitPath` in a new primary revision. */
async function editPage(spaceId: string, gitPath: string, text: string): Promise<void> {
  const { loadRevisionModel, modelToRevisionInput, flattenPages } = await import('../../src/revision/records.js');
  const current = (await folio.store.spaces.get(spaceId))!.revisionId!;
  const loaded = (await loadRevisionModel(folio.store, current))!;
  const page = flattenPages(loaded.model.pages).find((p) => (p as { git?: { path: string } }).git?.path === gitPath) as { markdown: string };
  page.markdown += `\n${text}\n`;
  const fileBytes = new Map<string, { hash: string }>([...loaded.fileHashes].map(([id, hash]) => [id, { hash }]));
  const { id } = await folio.store.revisions.create(modelToRevisionInput(loaded.model, { spaceId, parents: [current], type: 'edits', fileBytes }));
  await folio.store.spaces.setPrimaryRevision(spaceId, id, { expected: current });
}

async function cloneBranch(repo: string, branch: string): Promise<string> {
  const dir = await mkdtemp(path.join(work, `clone-${repo}-`));
  await runGit(['clone', '-q', '--branch', branch, server.authedUrl(repo), dir]);
  return dir;
}

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'folio-new-branch-'));
  folio = await sharedFolio({ loopback: true });
  server = await startGitServer({ auth: { username: 'folio', password: PASSWORD } });
});

afterAll(async () => {
  await folio?.stop();
  await server?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('export to a branch that does not exist yet', () => {
  it('branches from the default branch: the other files are there, the parent is the default head, only the edited page differs', async () => {
    const { trunkHead } = await productRepo('product');
    const spaceId = await newSpace();
    const imported = await sync(spaceId, 'import', 'product', 'refs/heads/trunk');
    expect(imported.operation).toMatchObject({ state: 'success', direction: 'import' });
    await editPage(spaceId, 'docs/guide.md', 'Step two, written in Folio.');

    const exported = await sync(spaceId, 'export', 'product', 'refs/heads/folio/guide-edit');
    expect(exported.operation, JSON.stringify(exported)).toMatchObject({ state: 'success', direction: 'export' });
    assertContract('GET', `/v1/spaces/${spaceId}/git/info`, 200, exported);

    const dir = await cloneBranch('product', 'folio/guide-edit');
    // One parent, the default branch's head: not an orphan commit, not `other`.
    expect((await runGit(['log', '-1', '--format=%P'], { cwd: dir })).trim()).toBe(trunkHead);
    expect((await runGit(['log', '-1', '--format=%s'], { cwd: dir })).trim()).toBe('Docs from Folio');
    for (const [name, text] of Object.entries(OTHER_FILES)) expect(await readFile(path.join(dir, name), 'utf8'), name).toBe(text);
    await expect(readFile(path.join(dir, 'only-on-other.txt'))).rejects.toThrow();
    expect((await runGit(['diff', '--name-only', trunkHead, 'HEAD'], { cwd: dir })).trim().split('\n')).toEqual(['docs/guide.md']);
    expect(await readFile(path.join(dir, 'docs/guide.md'), 'utf8')).toContain('Step two, written in Folio.');
    await runGit(['fsck', '--full', '--strict'], { cwd: dir });

    // The default branch itself did not move (nothing is ever force-pushed, nothing but the new branch is written).
    const trunk = await cloneBranch('product', 'trunk');
    expect((await runGit(['rev-parse', 'HEAD'], { cwd: trunk })).trim()).toBe(trunkHead);

    // Exporting the same revision again finds the branch and changes nothing.
    const again = await sync(spaceId, 'export', 'product', 'refs/heads/folio/guide-edit');
    expect(again.operation).toMatchObject({ state: 'success' });
    const after = await cloneBranch('product', 'folio/guide-edit');
    expect((await runGit(['rev-parse', 'HEAD'], { cwd: after })).trim()).toBe((await runGit(['rev-parse', 'HEAD'], { cwd: dir })).trim());
  });

  it('a new branch with nothing to change starts at the default head, without an empty commit', async () => {
    const { trunkHead } = await productRepo('unchanged');
    const spaceId = await newSpace();
    await sync(spaceId, 'import', 'unchanged', 'refs/heads/trunk');
    const exported = await sync(spaceId, 'export', 'unchanged', 'refs/heads/folio/same');
    expect(exported.operation).toMatchObject({ state: 'success', direction: 'export' });
    const dir = await cloneBranch('unchanged', 'folio/same');
    expect((await runGit(['rev-parse', 'HEAD'], { cwd: dir })).trim()).toBe(trunkHead);
  });

  it('a space that never synced with the repository writes only its own files on the new branch, where the repository keeps its docs', async () => {
    const { trunkHead } = await productRepo('fresh');
    const spaceId = await newSpace();
    const space = (await folio.store.spaces.get(spaceId))!;
    const { id: revision } = await folio.store.revisions.create({
      spaceId,
      parents: [space.revisionId!],
      type: 'edits',
      pages: [{ id: 'pnotes', kind: 'document', title: 'Notes', slug: 'notes', path: 'notes', body: new TextEncoder().encode('# Notes\n\nFrom Folio.\n') }],
      files: [],
    });
    await folio.store.spaces.setPrimaryRevision(spaceId, revision);
    const exported = await sync(spaceId, 'export', 'fresh', 'refs/heads/folio/notes', { repoProjectDirectory: 'notes-space' });
    expect(exported.operation, JSON.stringify(exported)).toMatchObject({ state: 'success', direction: 'export' });
    const dir = await cloneBranch('fresh', 'folio/notes');
    expect((await runGit(['log', '-1', '--format=%P'], { cwd: dir })).trim()).toBe(trunkHead);
    const changed = (await runGit(['diff', '--name-only', trunkHead, 'HEAD'], { cwd: dir })).trim().split('\n');
    expect(changed.length).toBeGreaterThan(0);
    for (const p of changed) expect(p.startsWith('notes-space/'), p).toBe(true);
    expect(changed.sort()).toEqual(['notes-space/SUMMARY.md', 'notes-space/notes.md']);
    for (const [name, text] of Object.entries({ ...OTHER_FILES, ...DOC_FILES })) expect(await readFile(path.join(dir, name), 'utf8'), name).toBe(text);

    // Without a project directory, the repository's `.gitbook.yaml` (root ./docs/) says where the docs live: the
    // space's pages replace the docs there, and nothing outside docs/ changes.
    const intoDocs = await sync(spaceId, 'export', 'fresh', 'refs/heads/folio/docs');
    expect(intoDocs.operation, JSON.stringify(intoDocs)).toMatchObject({ state: 'success', direction: 'export' });
    const docs = await cloneBranch('fresh', 'folio/docs');
    expect((await runGit(['log', '-1', '--format=%P'], { cwd: docs })).trim()).toBe(trunkHead);
    const docsChanged = (await runGit(['diff', '--name-only', trunkHead, 'HEAD'], { cwd: docs })).trim().split('\n');
    expect(docsChanged).toContain('docs/notes.md');
    for (const p of docsChanged) expect(p.startsWith('docs/'), p).toBe(true);
    for (const [name, text] of Object.entries(OTHER_FILES)) expect(await readFile(path.join(docs, name), 'utf8'), name).toBe(text);
    expect(await readFile(path.join(docs, '.gitbook.yaml'), 'utf8')).toBe(DOC_FILES['.gitbook.yaml']);
  });
});
