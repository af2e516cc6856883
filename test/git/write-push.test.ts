import { mkdtemp, rm, readFile, writeFile, chmod } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  commit,
  fetchRef,
  getTrailer,
  openCache,
  push,
  readCommit,
  readTree,
  readTreeEntries,
  writeTree,
  EMPTY_TREE,
  type RepoCache,
} from '../../src/git/index.js';
import { runGit, startGitServer, type GitServer } from '../helpers/git-server.js';
import { loopbackPolicy } from '../helpers/loopback-policy.js';
import { corpusDir } from '../../src/project-root.js';

/** Every cache here belongs to one test tenant (organization and space). */
const TEST_SCOPE = { organizationId: 'org-test', spaceId: 'space-test' };

const CORPUS = corpusDir();
const AUTHOR = { name: 'Folio', email: 'folio@example.invalid', date: new Date('2026-01-02T03:04:05Z') };
const enc = (s: string): Uint8Array => new TextEncoder().encode(s);

let server: GitServer;
let work: string;
let n = 0;

async function setup(name: string): Promise<{ cache: RepoCache; head: string; bare: string }> {
  const bare = await server.createBareRepo(name, { fromDir: path.join(CORPUS, 'stacks-network+docs') });
  const cache = await openCache({ root: path.join(work, 'caches'), scope: TEST_SCOPE, url: server.url(name), ref: 'main' });
  const { commit: head } = await fetchRef({ policy: loopbackPolicy, cache, url: server.url(name), ref: 'main' });
  return { cache, head, bare };
}

async function cliClone(name: string, branch = 'main'): Promise<string> {
  const dir = path.join(work, `clone-${name}-${n++}`);
  await runGit(['clone', '--quiet', '--branch', branch, server.url(name), dir]);
  return dir;
}

async function caught(p: Promise<unknown>): Promise<{ code: string; message: string; data: Record<string, unknown> }> {
  try {
    await p;
  } catch (err) {
    return err as { code: string; message: string; data: Record<string, unknown> };
  }
  throw new Error('expected a rejection');
}

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'folio-git-write-'));
  server = await startGitServer();
});

afterAll(async () => {
  await server?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('writeTree + commit + push', () => {
  it('pushes exactly the changes; the CLI clone agrees and fsck --strict is clean', async () => {
    const { cache, head, bare } = await setup('write');
    const before = await readTree(cache, head);
    const existing = [...before.keys()].filter((p) => p.endsWith('.md'));
    const modified = existing[3]!;
    const deleted = existing[7]!;
    const changes = new Map<string, Uint8Array | null>([
      [modified, enc('# Rewritten by Folio\n')],
      [deleted, null],
      ['docs/build/new-section/page.md', enc('# New page\n\nHello.\n')],
      ['top-level.md', enc('top\n')],
    ]);
    const tree = await writeTree(cache, head, changes);
    // Untouched subtrees keep their ids (no rewrite of unrelated directories).
    const rootBefore = new Map((await readTreeEntries(cache, (await readCommit(cache, head)).tree)).map((e) => [e.path, e.oid]));
    const rootAfter = new Map((await readTreeEntries(cache, tree)).map((e) => [e.path, e.oid]));
    const touchedTop = new Set([...changes.keys()].map((p) => p.split('/')[0]));
    for (const [name, oid] of rootBefore) if (!touchedTop.has(name)) expect(rootAfter.get(name), name).toBe(oid);
    // Same changes again → same tree; no changes → the base tree.
    expect(await writeTree(cache, head, changes)).toBe(tree);
    expect(await writeTree(cache, head, new Map())).toBe((await readCommit(cache, head)).tree);

    const oid = await commit(cache, { tree, parents: [head], message: 'Update from Folio', author: AUTHOR, trailers: { 'Folio-Revision': 'rev_123' } });
    const info = await readCommit(cache, oid);
    expect(info.trailers).toEqual([{ key: 'Folio-Revision', value: 'rev_123' }]);
    expect(getTrailer(info.message, 'folio-revision')).toBe('rev_123');

    const res = await push({ policy: loopbackPolicy, cache, url: server.url('write'), ref: 'main', commit: oid });
    expect(res).toMatchObject({ ref: 'refs/heads/main', previous: head, created: false, updated: true });
    expect((await runGit(['--git-dir', bare, 'rev-parse', 'main'])).trim()).toBe(oid);
    await runGit(['--git-dir', bare, 'fsck', '--strict', '--no-progress']);

    const clone = await cliClone('write');
    const status = (await runGit(['diff', '--name-status', '--no-renames', 'HEAD~1', 'HEAD'], { cwd: clone })).trim().split('\n').sort();
    expect(status).toEqual([`A\tdocs/build/new-section/page.md`, `A\ttop-level.md`, `D\t${deleted}`, `M\t${modified}`].sort());
    expect(await readFile(path.join(clone, modified), 'utf8')).toBe('# Rewritten by Folio\n');
    expect((await runGit(['log', '-1', '--format=%an <%ae>%n%(trailers:key=Folio-Revision,valueonly)'], { cwd: clone })).trim()).toBe(
      'Folio <folio@example.invalid>\nrev_123',
    );
    await runGit(['fsck', '--strict', '--no-progress'], { cwd: clone });

    // Pushing the same commit again is a no-op.
    expect(await push({ policy: loopbackPolicy, cache, url: server.url('write'), ref: 'main', commit: oid })).toMatchObject({ updated: false, previous: oid });
  });

  it('deleting every file of a directory removes the directory; an empty change set on null base gives the empty tree', async () => {
    const { cache, head } = await setup('dirs');
    const tree = await readTree(cache, head);
    const dir = 'docs/build/get-started';
    const inDir = [...tree.keys()].filter((p) => p.startsWith(`${dir}/`));
    expect(inDir.length).toBeGreaterThan(0);
    const t1 = await writeTree(cache, head, new Map(inDir.map((p) => [p, null])));
    const after = await readTree(cache, await commit(cache, { tree: t1, parents: [head], message: 'rm', author: AUTHOR }));
    expect([...after.keys()].some((p) => p.startsWith(`${dir}/`))).toBe(false);
    expect(after.size).toBe(tree.size - inDir.length);
    // Deleting the directory itself does the same.
    expect(await writeTree(cache, head, new Map([[dir, null]]))).toBe(t1);
    expect(await writeTree(cache, null, new Map())).toBe(EMPTY_TREE);
    await expect(writeTree(cache, head, new Map([['../escape.md', enc('x')]]))).rejects.toMatchObject({ code: 'INVALID_PATH' });
    await expect(writeTree(cache, head, new Map([['.git/config', enc('x')]]))).rejects.toMatchObject({ code: 'INVALID_PATH' });
  });

  it('creates a new branch', async () => {
    const { cache, head } = await setup('branch');
    const tree = await writeTree(cache, head, new Map([['branch-file.md', enc('on a branch\n')]]));
    const oid = await commit(cache, { tree, parents: [head], message: 'On a branch', author: AUTHOR });
    const res = await push({ policy: loopbackPolicy, cache, url: server.url('branch'), ref: 'folio/feature', commit: oid });
    expect(res).toMatchObject({ ref: 'refs/heads/folio/feature', previous: null, created: true });
    const clone = await cliClone('branch', 'folio/feature');
    expect(await readFile(path.join(clone, 'branch-file.md'), 'utf8')).toBe('on a branch\n');
    expect((await runGit(['rev-parse', 'HEAD~1'], { cwd: clone })).trim()).toBe(head);
  });

  it('refuses a non-fast-forward push (remote commit kept) unless forced', async () => {
    const { cache, head, bare } = await setup('nff');
    // Someone else pushes first.
    const other = await cliClone('nff');
    await runGit(['commit', '--quiet', '--allow-empty', '-m', 'concurrent change'], { cwd: other });
    await runGit(['push', '--quiet', 'origin', 'main'], { cwd: other });
    const theirs = (await runGit(['rev-parse', 'HEAD'], { cwd: other })).trim();

    const tree = await writeTree(cache, head, new Map([['mine.md', enc('mine\n')]]));
    const ours = await commit(cache, { tree, parents: [head], message: 'Ours', author: AUTHOR });
    const err = await caught(push({ policy: loopbackPolicy, cache, url: server.url('nff'), ref: 'main', commit: ours }));
    expect(err.code).toBe('NON_FAST_FORWARD');
    expect((await runGit(['--git-dir', bare, 'rev-parse', 'main'])).trim()).toBe(theirs);

    const forced = await push({ policy: loopbackPolicy, cache, url: server.url('nff'), ref: 'main', commit: ours, force: true });
    expect(forced).toMatchObject({ previous: theirs, updated: true });
    expect((await runGit(['--git-dir', bare, 'rev-parse', 'main'])).trim()).toBe(ours);
  });

  it('a protected branch → PUSH_REJECTED, remote unchanged', async () => {
    const { cache, head, bare } = await setup('protected');
    await server.protectBranch('protected', 'main');
    const tree = await writeTree(cache, head, new Map([['x.md', enc('x\n')]]));
    const oid = await commit(cache, { tree, parents: [head], message: 'x', author: AUTHOR });
    const err = await caught(push({ policy: loopbackPolicy, cache, url: server.url('protected'), ref: 'main', commit: oid }));
    expect(err.code).toBe('PUSH_REJECTED');
    expect(err.message).toMatch(/hook declined/);
    expect(String(err.data.remoteMessages)).toMatch(/refs\/heads\/main is a protected branch/);
    expect((await runGit(['--git-dir', bare, 'rev-parse', 'main'])).trim()).toBe(head);
    // Other branches still accept pushes.
    await expect(push({ policy: loopbackPolicy, cache, url: server.url('protected'), ref: 'other', commit: oid })).resolves.toMatchObject({ created: true });
  });

  it('a remote that moves during the push (lost race) → NON_FAST_FORWARD, their commit kept', async () => {
    const { cache, head, bare } = await setup('race');
    const other = await cliClone('race');
    await runGit(['commit', '--quiet', '--allow-empty', '-m', 'theirs'], { cwd: other });
    await runGit(['push', '--quiet', 'origin', 'HEAD:refs/heads/side'], { cwd: other });
    const theirs = (await runGit(['rev-parse', 'HEAD'], { cwd: other })).trim();
    // The hook moves main after our push has read the refs and before receive-pack updates it.
    const hook = path.join(bare, 'hooks', 'pre-receive');
    await writeFile(hook, `#!/bin/sh\ncat >/dev/null\nenv -u GIT_QUARANTINE_PATH git update-ref refs/heads/main ${theirs}\nexit 0\n`);
    await chmod(hook, 0o755);
    const tree = await writeTree(cache, head, new Map([['race.md', enc('race\n')]]));
    const ours = await commit(cache, { tree, parents: [head], message: 'Ours', author: AUTHOR });
    const err = await caught(push({ policy: loopbackPolicy, cache, url: server.url('race'), ref: 'main', commit: ours }));
    expect(err.code, JSON.stringify(err.message)).toBe('NON_FAST_FORWARD');
    expect((await runGit(['--git-dir', bare, 'rev-parse', 'main'])).trim()).toBe(theirs);
  });

  it('exports into an empty repository (root commit, new branch)', async () => {
    const bare = await server.createBareRepo('empty');
    const cache = await openCache({ root: path.join(work, 'caches'), scope: TEST_SCOPE, url: server.url('empty'), ref: 'main' });
    await expect(fetchRef({ policy: loopbackPolicy, cache, url: server.url('empty'), ref: 'main' })).rejects.toMatchObject({ code: 'REF_NOT_FOUND' });
    const files = new Map<string, Uint8Array | null>([
      ['README.md', enc('# Space\n')],
      ['guides/intro.md', enc('# Intro\n')],
      ['guides/deep/nested/page.md', enc('# Nested\n')],
      ['.gitbook/assets/logo.svg', enc('<svg/>')],
    ]);
    const tree = await writeTree(cache, null, files);
    const oid = await commit(cache, { tree, parents: [], message: 'Initial export', author: AUTHOR, trailers: { 'Folio-Revision': 'r0' } });
    expect(await push({ policy: loopbackPolicy, cache, url: server.url('empty'), ref: 'main', commit: oid })).toMatchObject({ created: true, previous: null });
    await runGit(['--git-dir', bare, 'fsck', '--strict', '--no-progress']);
    const clone = await cliClone('empty');
    expect((await runGit(['ls-files'], { cwd: clone })).trim().split('\n').sort()).toEqual([...files.keys()].sort());
    expect(await readFile(path.join(clone, 'guides/deep/nested/page.md'), 'utf8')).toBe('# Nested\n');
    // And it reads back through the same API.
    const again = await fetchRef({ policy: loopbackPolicy, cache, url: server.url('empty'), ref: 'main' });
    expect(again.commit).toBe(oid);
    expect([...(await readTree(cache, oid)).keys()].sort()).toEqual([...files.keys()].sort());
  });
});
