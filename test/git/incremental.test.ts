import { mkdtemp, rm, writeFile, unlink, readdir } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { diffTrees, fetchRef, hasObject, openCache, readTree, type RepoCache } from '../../src/git/index.js';
import { runGit, startGitServer, type GitServer } from '../helpers/git-server.js';
import { loopbackPolicy } from '../helpers/loopback-policy.js';
import { corpusDir } from '../../src/project-root.js';
import { knownTreesOf } from '../../src/git/known-trees.js';

/** Every cache here belongs to one test tenant (organization and space). */
const TEST_SCOPE = { organizationId: 'org-test', spaceId: 'space-test' };

const CORPUS = corpusDir();
let server: GitServer;
let work: string;
let n = 0;

async function cache(name: string): Promise<RepoCache> {
  return openCache({ root: path.join(work, 'caches'), scope: TEST_SCOPE, url: server.url(name), ref: 'main', repoCacheID: `${name}-${n++}` });
}

async function clone(name: string): Promise<string> {
  const dir = path.join(work, `clone-${name}-${n++}`);
  await runGit(['clone', '--quiet', server.url(name), dir]);
  return dir;
}

async function nameStatus(dir: string, a: string, b: string): Promise<{ added: string[]; modified: string[]; deleted: string[] }> {
  const out = (await runGit(['diff', '--name-status', '--no-renames', '-z', a, b], { cwd: dir })).split('\0').filter(Boolean);
  const res = { added: [] as string[], modified: [] as string[], deleted: [] as string[] };
  for (let i = 0; i < out.length; i += 2) {
    const key = out[i] === 'A' ? 'added' : out[i] === 'D' ? 'deleted' : 'modified';
    res[key].push(out[i + 1]!);
  }
  for (const k of ['added', 'modified', 'deleted'] as const) res[k].sort();
  return res;
}

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'folio-git-inc-'));
  server = await startGitServer();
  await server.createBareRepo('inc', { fromDir: path.join(CORPUS, 'GitbookIO+git-sync-normalization') });
  await server.createBareRepo('big', { fromDir: path.join(CORPUS, 'FlowiseAI+FlowiseDocs') });
});

afterAll(async () => {
  await server?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('incremental fetch', () => {
  it('fetches a new remote commit into the same cache; diffTrees lists exactly the changed paths', async () => {
    const c = await cache('inc');
    const first = await fetchRef({ policy: loopbackPolicy, cache: c, url: server.url('inc'), ref: 'main' });
    const dir = await clone('inc');
    const files = (await runGit(['ls-files'], { cwd: dir })).trim().split('\n');
    const md = files.filter((f) => f.endsWith('.md'));
    await writeFile(path.join(dir, md[0]!), 'changed\n');
    await writeFile(path.join(dir, md[1]!), 'changed too\n');
    await unlink(path.join(dir, md[2]!));
    await writeFile(path.join(dir, 'brand-new.md'), '# new\n');
    await runGit(['add', '--all'], { cwd: dir });
    await runGit(['commit', '--quiet', '-m', 'edit'], { cwd: dir });
    await runGit(['push', '--quiet', 'origin', 'main'], { cwd: dir });
    const head = (await runGit(['rev-parse', 'HEAD'], { cwd: dir })).trim();

    const second = await fetchRef({ policy: loopbackPolicy, cache: c, url: server.url('inc'), ref: 'main', baseCommit: first.commit });
    expect(second.commit).toBe(head);
    expect(second.baseCommitFound).toBe(true);
    const diff = await diffTrees(c, first.commit, second.commit);
    expect(diff).toEqual(await nameStatus(dir, first.commit, head));
    expect(diff.added).toEqual(['brand-new.md']);
    expect(diff.modified.length + diff.deleted.length).toBe(3);
    // Limited to a prefix, and the empty diff of a commit with itself.
    expect(await diffTrees(c, first.commit, second.commit, { prefix: 'no-such-dir' })).toEqual({ added: [], modified: [], deleted: [] });
    expect(await diffTrees(c, head, head)).toEqual({ added: [], modified: [], deleted: [] });
    await runGit(['--git-dir', c.gitdir, 'fsck', '--no-progress']);
  });

  it('reads only the changed trees of a new commit: the unchanged subtrees come from the trees read before, and the result is git ls-tree', async () => {
    const c = await cache('big');
    const first = await fetchRef({ policy: loopbackPolicy, cache: c, url: server.url('big'), ref: 'main' });
    const lsTree = async (commit: string) =>
      (await runGit(['--git-dir', c.gitdir, 'ls-tree', '-r', '-z', commit]))
        .split('\0')
        .filter(Boolean)
        .map((line) => {
          const [meta, p] = line.split('\t');
          const [mode, , oid] = meta!.split(' ');
          return [p, oid, mode];
        })
        .sort();
    const listed = async (commit: string) => [...(await readTree(c, commit))].map(([p, e]) => [p, e.oid, e.mode]).sort();
    expect(await listed(first.commit)).toEqual(await lsTree(first.commit));
    const treesBefore = knownTreesOf(c.gitdir).trees.size;
    const { reads, hits } = knownTreesOf(c.gitdir);
    const dirs = Number((await runGit(['--git-dir', c.gitdir, 'ls-tree', '-r', '-d', '--name-only', first.commit])).trim().split('\n').length);
    expect(treesBefore).toBe(dirs + 1);
    // One file changed three directories deep, one file deleted one directory deep (on the same path).
    const dir = await clone('big');
    const files = (await runGit(['ls-files'], { cwd: dir })).trim().split('\n');
    const deep = files.find((f) => f.split('/').length === 4 && f.endsWith('.md'))!;
    await writeFile(path.join(dir, deep), 'changed deep down\n');
    await unlink(
      path.join(
        dir,
        files.find((f) => f.split('/').length === 2)!,
      ),
    );
    await runGit(['commit', '--quiet', '-am', 'deep edit'], { cwd: dir });
    await runGit(['push', '--quiet', 'origin', 'main'], { cwd: dir });
    const second = await fetchRef({ policy: loopbackPolicy, cache: c, url: server.url('big'), ref: 'main', baseCommit: first.commit });
    expect(await listed(second.commit)).toEqual(await lsTree(second.commit));
    // The root and the three directories on the changed path were read; every other tree was known.
    expect(knownTreesOf(c.gitdir).trees.size).toBe(treesBefore + 4);
    expect(knownTreesOf(c.gitdir).reads - reads).toBe(4);
    expect(knownTreesOf(c.gitdir).hits - hits).toBeGreaterThan(0);
  });

  it('deepens a shallow fetch until the base commit is there (and reports when it never is)', async () => {
    await server.createBareRepo('deep', { fromDir: path.join(CORPUS, 'GitbookIO+git-sync-normalization') });
    const dir = await clone('deep');
    const base = (await runGit(['rev-parse', 'HEAD'], { cwd: dir })).trim();
    for (let i = 0; i < 20; i++) {
      await writeFile(path.join(dir, `step-${i}.md`), `step ${i}\n`);
      await runGit(['add', '--all'], { cwd: dir });
      await runGit(['commit', '--quiet', '-m', `step ${i}`], { cwd: dir });
    }
    await runGit(['push', '--quiet', 'origin', 'main'], { cwd: dir });
    const c = await cache('deep');
    const phases: string[] = [];
    const res = await fetchRef({
      policy: loopbackPolicy,
      cache: c,
      url: server.url('deep'),
      ref: 'main',
      baseCommit: base,
      onProgress: (p) => phases.push(p.phase),
    });
    expect(res.baseCommitFound).toBe(true);
    expect(phases).toContain('Deepening');
    const diff = await diffTrees(c, base, res.commit);
    expect(diff.added).toEqual(Array.from({ length: 20 }, (_, i) => `step-${i}.md`).sort());
    expect(diff.modified).toEqual([]);

    const plain = await cache('deep');
    const shallow = await fetchRef({ policy: loopbackPolicy, cache: plain, url: server.url('deep'), ref: 'main' });
    expect(shallow.shallow).toBe(true);
    expect(await hasObject(plain, base)).toBe(false);
    const unknown = await fetchRef({ policy: loopbackPolicy, cache: plain, url: server.url('deep'), ref: 'main', baseCommit: 'f'.repeat(40) });
    expect(unknown).toMatchObject({ baseCommitFound: false, shallow: false });
    expect(await hasObject(plain, base)).toBe(true);
  });

  it('two activities fetching into the same cache at once both succeed', async () => {
    const a = await openCache({ root: path.join(work, 'shared'), scope: TEST_SCOPE, url: server.url('inc'), ref: 'main' });
    const b = await openCache({ root: path.join(work, 'shared'), scope: TEST_SCOPE, url: server.url('inc'), ref: 'main' });
    expect(b.gitdir).toBe(a.gitdir);
    const [ra, rb] = await Promise.all([
      fetchRef({ policy: loopbackPolicy, cache: a, url: server.url('inc'), ref: 'main' }),
      fetchRef({ policy: loopbackPolicy, cache: b, url: server.url('inc'), ref: 'main' }),
    ]);
    expect(ra.commit).toBe(rb.commit);
    expect((await readTree(a, ra.commit)).size).toBe((await readTree(b, rb.commit)).size);
    await runGit(['--git-dir', a.gitdir, 'fsck', '--no-progress']);
  });
});

describe('cancellation', () => {
  it('an already-aborted signal fails fast with CANCELLED and sends nothing', async () => {
    const c = await cache('big');
    const before = server.requests.length;
    await expect(fetchRef({ policy: loopbackPolicy, cache: c, url: server.url('big'), ref: 'main', signal: AbortSignal.abort() })).rejects.toMatchObject({
      code: 'CANCELLED',
    });
    expect(server.requests.length).toBe(before);
  });

  it('aborting mid-fetch → CANCELLED, the cache stays consistent and a later fetch succeeds', async () => {
    const c = await cache('big');
    const ctl = new AbortController();
    const seen: string[] = [];
    const err = await fetchRef({
      policy: loopbackPolicy,
      cache: c,
      url: server.url('big'),
      ref: 'main',
      signal: ctl.signal,
      onProgress: (p) => {
        seen.push(p.phase);
        if (p.phase !== 'Connecting') ctl.abort();
      },
    }).then(
      () => null,
      (e: unknown) => e as { code: string },
    );
    expect(err?.code).toBe('CANCELLED');
    expect(seen.length).toBeGreaterThan(1);
    const packs = await readdir(path.join(c.gitdir, 'objects', 'pack'));
    expect(packs.filter((f) => f.endsWith('.pack')).length).toBe(packs.filter((f) => f.endsWith('.idx')).length);
    const res = await fetchRef({ policy: loopbackPolicy, cache: c, url: server.url('big'), ref: 'main' });
    expect((await readTree(c, res.commit)).size).toBeGreaterThan(800);
    await runGit(['--git-dir', c.gitdir, 'fsck', '--no-progress']);
  });
});
