/**
 * A fetch interrupted in a deepen round, after isomorphic-git wrote the round's shallow list (the server
 * "unshallowed" the commits it deepens) and refs but before the round's pack index: cancelled (the worker stopping)
 * or killed (SIGKILL). The cache holds the first round's commits without their parents; they must stay in the shallow
 * list, or the cache looks complete: the next fetch never deepens to the sync base (seen as a branch rewritten) and a
 * push walks into the missing parents (OBJECT_NOT_FOUND on every retry, as a production-shape export did after
 * `folio start` was SIGKILLed). Before the fix a cancelled fetch restored the list as it was before its first round
 * (none: the cache looked complete), and a killed one left the round's list.
 */
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchRef, isShallow, openCache, readTree, type RepoCache } from '../../src/git/index.js';
import { runGit, startGitServer, type GitServer } from '../helpers/git-server.js';
import { loopbackPolicy } from '../helpers/loopback-policy.js';

const execFileP = promisify(execFile);
const TEST_SCOPE = { organizationId: 'org-test', spaceId: 'space-test' };
let server: GitServer;
let work: string;
/** The repository's commits, oldest first. */
const commits: string[] = [];

const cacheRoot = () => path.join(work, 'caches');

async function cache(id: string): Promise<RepoCache> {
  return openCache({ root: cacheRoot(), scope: TEST_SCOPE, url: server.url('history'), ref: 'main', repoCacheID: id });
}

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'folio-git-interrupted-'));
  server = await startGitServer();
  await server.createBareRepo('history', { branch: 'main' });
  const dir = path.join(work, 'clone');
  await runGit(['clone', '--quiet', server.url('history'), dir]);
  // 40 commits: a base 30 commits below the head needs two deepen rounds after the first fetch (16, then 64).
  for (let i = 0; i < 40; i++) {
    await writeFile(path.join(dir, `page-${i % 5}.md`), `# Page ${i % 5}\n\nVersion ${i}.\n`);
    await runGit(['add', '--all'], { cwd: dir });
    await runGit(['-c', 'user.name=t', '-c', 'user.email=t@example.com', 'commit', '--quiet', '-m', `commit ${i}`], { cwd: dir });
    commits.push((await runGit(['rev-parse', 'HEAD'], { cwd: dir })).trim());
  }
  await runGit(['push', '--quiet', 'origin', 'HEAD:main'], { cwd: dir });
});

afterAll(async () => {
  await server?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

/** The next fetch of the interrupted cache finds the base (deepening again), and the cache reads the head's tree. */
async function expectRecovered(id: string): Promise<void> {
  const c = await cache(id);
  expect(await isShallow(c)).toBe(true);
  const base = commits[9]!;
  const again = await fetchRef({ policy: loopbackPolicy, cache: c, url: server.url('history'), ref: 'main', baseCommit: base });
  expect(again).toMatchObject({ commit: commits.at(-1), baseCommitFound: true });
  expect([...(await readTree(c, commits.at(-1)!)).keys()].sort()).toEqual(['page-0.md', 'page-1.md', 'page-2.md', 'page-3.md', 'page-4.md']);
  await runGit(['--git-dir', c.gitdir, 'fsck', '--no-progress', '--connectivity-only']);
}

describe('a fetch interrupted in a deepen round', () => {
  it('cancelled: the shallow list keeps the commits held without their parents', async () => {
    const c = await cache('cancelled');
    const controller = new AbortController();
    let deepening = false;
    const fetching = fetchRef({
      policy: loopbackPolicy,
      cache: c,
      url: server.url('history'),
      ref: 'main',
      baseCommit: commits[9]!,
      signal: controller.signal,
      onProgress: (p) => {
        if (p.phase === 'Deepening') deepening = true;
        else if (deepening && (p.phase === 'Receiving objects' || p.phase === 'Resolving deltas')) controller.abort();
      },
    });
    await expect(fetching).rejects.toMatchObject({ code: 'CANCELLED' });
    await expectRecovered('cancelled');
  });

  it('killed (SIGKILL): the next fetch repairs the shallow list before it uses it', async () => {
    const child = execFileP(process.execPath, [
      '--import',
      'tsx',
      path.join(import.meta.dirname, 'fetch-and-die.ts'),
      cacheRoot(),
      server.url('history'),
      'killed',
      commits[9]!,
    ]);
    await expect(child).rejects.toMatchObject({ signal: 'SIGKILL' });
    await expectRecovered('killed');
  });
});
