import { mkdtemp, rm, cp, readFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchRef, openCache, push, readBlob, readCommit, readTree, removeCache, type RepoCache } from '../../src/git/index.js';
import { runGit, startGitServer, type GitServer } from '../helpers/git-server.js';
import { loopbackPolicy } from '../helpers/loopback-policy.js';
import { corpusDir } from '../../src/project-root.js';

/** Every cache here belongs to one test tenant (organization and space). */
const TEST_SCOPE = { organizationId: 'org-test', spaceId: 'space-test' };

const CORPUS = corpusDir();
const AUTH = { username: 'folio-bot', password: 'hunter2-Secret!' };

let server: GitServer;
let work: string;

async function newCache(name: string): Promise<RepoCache> {
  return openCache({
    root: path.join(work, 'caches'),
    scope: TEST_SCOPE,
    url: server.url(name),
    ref: 'main',
    repoCacheID: `${name}-${Math.random().toString(36).slice(2)}`,
  });
}

async function caught(p: Promise<unknown>): Promise<{ code: string; message: string; retryable: boolean; stack: string }> {
  try {
    await p;
  } catch (err) {
    const e = err as { code: string; message: string; retryable: boolean; stack?: string };
    return { code: e.code, message: e.message, retryable: e.retryable, stack: e.stack ?? '' };
  }
  throw new Error('expected a rejection');
}

/** `git ls-tree -r -l` of a commit in a bare repo: path → { oid, mode, size }. */
async function lsTree(gitdir: string, rev: string): Promise<Map<string, { oid: string; mode: string; size: number }>> {
  const out = await runGit(['--git-dir', gitdir, 'ls-tree', '-r', '-l', '-z', rev]);
  const map = new Map<string, { oid: string; mode: string; size: number }>();
  for (const rec of out.split('\0')) {
    if (!rec) continue;
    const tab = rec.indexOf('\t');
    const [mode, type, oid, size] = rec.slice(0, tab).split(/\s+/);
    if (type === 'blob') map.set(rec.slice(tab + 1), { oid: oid!, mode: mode!, size: Number(size) });
  }
  return map;
}

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'folio-git-test-'));
  server = await startGitServer({ auth: AUTH });
  // A real corpus repository, as the CLI would commit it.
  const src = path.join(work, 'public-docs');
  await cp(path.join(CORPUS, 'GitbookIO+public-docs'), src, { recursive: true });
  await runGit(['init', '--quiet', '--initial-branch=main'], { cwd: src });
  await runGit(['add', '--all'], { cwd: src });
  await runGit(['commit', '--quiet', '-m', 'Import public-docs'], { cwd: src });
  await server.createBareRepo('public-docs', { fromDir: src });
  await server.createBareRepo('small', { fromDir: path.join(CORPUS, 'GitbookIO+git-sync-normalization') });
});

afterAll(async () => {
  await server?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('fetchRef + readTree against git http-backend', () => {
  it('reads exactly the tree `git ls-tree -r` shows, with sizes and contents', async () => {
    const cache = await newCache('public-docs');
    const progress: string[] = [];
    const res = await fetchRef({
      policy: loopbackPolicy,
      cache,
      url: server.url('public-docs'),
      auth: AUTH,
      ref: 'main',
      onProgress: (p) => progress.push(p.phase),
    });
    const remoteHead = (await runGit(['--git-dir', path.join(server.root, 'public-docs.git'), 'rev-parse', 'main'])).trim();
    expect(res.commit).toBe(remoteHead);
    expect(progress).toContain('Connecting');
    expect(progress).toContain('Done');
    const expected = await lsTree(path.join(server.root, 'public-docs.git'), 'main');
    const tree = await readTree(cache, res.commit);
    expect([...tree.keys()].sort()).toEqual([...expected.keys()].sort());
    expect(tree.size).toBeGreaterThan(300);
    for (const [p, e] of expected) {
      const f = tree.get(p)!;
      expect(f.oid, p).toBe(e.oid);
      expect(f.mode, p).toBe(e.mode);
      expect(f.size, p).toBe(e.size);
    }
    // Contents, byte for byte, for a sample spread over the tree.
    const paths = [...expected.keys()].filter((_, i) => i % 25 === 0);
    for (const p of paths) {
      const bytes = await tree.get(p)!.read();
      const onDisk = await readFile(path.join(work, 'public-docs', p));
      expect(Buffer.from(bytes).equals(onDisk), p).toBe(true);
    }
    // Prefix: only that directory, keys stay repository-relative.
    const docs = await readTree(cache, res.commit, { prefix: 'documentation' });
    expect(docs.size).toBe([...expected.keys()].filter((p) => p.startsWith('documentation/')).length);
    expect([...docs.keys()].every((p) => p.startsWith('documentation/'))).toBe(true);
    expect((await readTree(cache, res.commit, { prefix: 'no/such/dir' })).size).toBe(0);
    // The cache is a valid git repository for the CLI too.
    await runGit(['--git-dir', cache.gitdir, 'fsck', '--strict', '--no-progress']);
    // A blob over the limit is refused before it is handed out.
    const big = [...expected.entries()].find(([, e]) => e.size > 1000)!;
    const err = await caught(readBlob(cache, big[1].oid, { path: big[0], maxFileBytes: 1000 }));
    expect(err.code).toBe('FILE_TOO_LARGE');
    const err2 = await caught((await readTree(cache, res.commit, { maxFileBytes: 1000 })).get(big[0])!.read());
    expect(err2.code).toBe('FILE_TOO_LARGE');
  });

  it('fetches with credentials given in the URL, and shallow by default', async () => {
    const cache = await newCache('small');
    const res = await fetchRef({ policy: loopbackPolicy, cache, url: server.authedUrl('small'), ref: 'refs/heads/main' });
    expect(res.shallow).toBe(false); // one commit: nothing is cut off
    const info = await readCommit(cache, res.commit);
    expect(info.message).toContain('Import');
    await removeCache(cache);
    await expect(readCommit(cache, res.commit)).rejects.toMatchObject({ code: 'OBJECT_NOT_FOUND' });
  });
});

describe('errors', () => {
  it('bad password → AUTH_FAILED without looping, and the password appears nowhere', async () => {
    const cache = await newCache('small');
    const bad = { username: AUTH.username, password: 'wrong-Pa55word-xyz' };
    const before = server.requests.length;
    const err = await caught(fetchRef({ policy: loopbackPolicy, cache, url: server.url('small'), ref: 'main', auth: bad }));
    expect(err.code).toBe('AUTH_FAILED');
    expect(err.retryable).toBe(false);
    // one anonymous probe, one attempt with the credential, then stop
    expect(server.requests.length - before).toBeLessThanOrEqual(2);
    const inUrl = await caught(
      fetchRef({ policy: loopbackPolicy, cache, url: `http://${bad.username}:${bad.password}@127.0.0.1:${server.port}/small.git`, ref: 'main' }),
    );
    expect(inUrl.code).toBe('AUTH_FAILED');
    for (const e of [err, inUrl]) {
      expect(e.message).not.toContain(bad.password);
      expect(e.stack).not.toContain(bad.password);
      expect(e.message).toContain(`127.0.0.1:${server.port}/small.git`);
    }
    const pushErr = await caught(
      push({
        policy: loopbackPolicy,
        cache,
        url: server.url('small'),
        ref: 'main',
        commit: (await fetchRef({ policy: loopbackPolicy, cache, url: server.url('small'), ref: 'main', auth: AUTH })).commit,
        auth: bad,
      }),
    );
    expect(pushErr.code).toBe('AUTH_FAILED');
    expect(pushErr.message).not.toContain(bad.password);
    const none = await caught(fetchRef({ policy: loopbackPolicy, cache, url: server.url('small'), ref: 'main' }));
    expect(none.code).toBe('AUTH_FAILED');
  });

  it('unknown repository → REPO_NOT_FOUND, unknown ref → REF_NOT_FOUND', async () => {
    const cache = await newCache('small');
    expect((await caught(fetchRef({ policy: loopbackPolicy, cache, url: server.url('does-not-exist'), ref: 'main', auth: AUTH }))).code).toBe('REPO_NOT_FOUND');
    const ref = await caught(fetchRef({ policy: loopbackPolicy, cache, url: server.url('small'), ref: 'no-such-branch', auth: AUTH }));
    expect(ref.code).toBe('REF_NOT_FOUND');
    expect(ref.message).toContain('no-such-branch');
  });

  it('a refused connection → NETWORK (retryable)', async () => {
    const cache = await newCache('small');
    const err = await caught(fetchRef({ policy: loopbackPolicy, cache, url: 'http://127.0.0.1:9/x.git', ref: 'main', auth: AUTH }));
    expect(err.code).toBe('NETWORK');
    expect(err.retryable).toBe(true);
  });
});
