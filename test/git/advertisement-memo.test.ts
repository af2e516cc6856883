/**
 * AdvertisementMemo (an import's ref check and its fetch share the remote's ref advertisement): against the real git
 * HTTP server, the fetch after `remoteRefCommit` makes one request less (the advertisement, then the pack, as `git
 * pull`), brings exactly the advertised commit, still authenticates its own pack request, and a kept answer serves
 * one request only.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdvertisementMemo, fetchRef, remoteRefCommit } from '../../src/git/index.js';
import { openCache } from '../../src/git/cache.js';
import { runGit, startGitServer, type GitServer } from '../helpers/git-server.js';
import { loopbackPolicy } from '../helpers/loopback-policy.js';

let server: GitServer;
let locked: GitServer;
let work: string;
let src: string;
let head: string;
const auth = { username: 'folio', password: 'right-password' };

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'folio-advertisement-memo-'));
  src = path.join(work, 'src');
  await runGit(['init', '--quiet', '--initial-branch', 'main', src]);
  await writeFile(path.join(src, 'README.md'), '# Memo\n');
  await runGit(['add', '.'], { cwd: src });
  await runGit(['commit', '--quiet', '-m', 'first'], { cwd: src });
  head = (await runGit(['rev-parse', 'HEAD'], { cwd: src })).trim();
  server = await startGitServer();
  await server.createBareRepo('docs', { fromDir: src, branch: 'main' });
  locked = await startGitServer({ auth });
  await locked.createBareRepo('docs', { fromDir: src, branch: 'main' });
});

afterAll(async () => {
  await server?.stop();
  await locked?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

let caches = 0;
const newCache = () =>
  openCache({
    root: path.join(work, 'caches'),
    scope: { organizationId: 'org', spaceId: `space-${++caches}` },
    url: 'http://example.invalid/cache.git',
    ref: 'main',
    repoCacheID: `c${caches}`,
  });
const advertisementsOf = (s: GitServer, from: number) => s.requests.slice(from).filter((r) => r.method === 'GET' && r.path.endsWith('/info/refs'));
const packsOf = (s: GitServer, from: number) => s.requests.slice(from).filter((r) => r.method === 'POST' && r.path.endsWith('/git-upload-pack'));

describe('AdvertisementMemo', () => {
  it('lets the fetch after a ref check use the advertisement that check received: one request less', async () => {
    const url = server.url('docs');
    // Without a memo: the check and the fetch each ask for the advertisement.
    let from = server.requests.length;
    expect(await remoteRefCommit({ policy: loopbackPolicy, url, ref: 'main' })).toBe(head);
    expect((await fetchRef({ policy: loopbackPolicy, cache: await newCache(), url, ref: 'main' })).commit).toBe(head);
    expect(advertisementsOf(server, from)).toHaveLength(2);
    expect(packsOf(server, from)).toHaveLength(1);
    // With one: one advertisement, one pack.
    from = server.requests.length;
    const advertisements = new AdvertisementMemo();
    expect(await remoteRefCommit({ advertisements, policy: loopbackPolicy, url, ref: 'main' })).toBe(head);
    expect((await fetchRef({ advertisements, policy: loopbackPolicy, cache: await newCache(), url, ref: 'main' })).commit).toBe(head);
    expect(advertisementsOf(server, from)).toHaveLength(1);
    expect(packsOf(server, from)).toHaveLength(1);
    expect(advertisements.served).toBe(1);
  });

  it('fetches the advertised commit, even when the branch moved in between, and serves a kept answer once', async () => {
    const url = server.url('docs');
    const advertisements = new AdvertisementMemo();
    expect(await remoteRefCommit({ advertisements, policy: loopbackPolicy, url, ref: 'main' })).toBe(head);
    await writeFile(path.join(src, 'next.md'), '# Next\n');
    await runGit(['add', '.'], { cwd: src });
    await runGit(['commit', '--quiet', '-m', 'next'], { cwd: src });
    const next = (await runGit(['rev-parse', 'HEAD'], { cwd: src })).trim();
    await runGit(['push', '--quiet', url, 'main:main'], { cwd: src });
    // The fetch answers for the moment of the check, as a fetch answers for the moment of its own advertisement.
    expect((await fetchRef({ advertisements, policy: loopbackPolicy, cache: await newCache(), url, ref: 'main' })).commit).toBe(head);
    // The kept answer is gone: the next fetch asks the remote and gets the new head.
    const from = server.requests.length;
    expect((await fetchRef({ advertisements, policy: loopbackPolicy, cache: await newCache(), url, ref: 'main' })).commit).toBe(next);
    expect(advertisementsOf(server, from)).toHaveLength(1);
    expect(advertisements.served).toBe(1);
    head = next;
  });

  it('with credentials: the fetch still authenticates (its pack request too), and one advertisement is saved', async () => {
    const url = locked.url('docs');
    let from = locked.requests.length;
    expect(await remoteRefCommit({ policy: loopbackPolicy, url, ref: 'main', auth })).toBeDefined();
    await fetchRef({ policy: loopbackPolicy, cache: await newCache(), url, ref: 'main', auth });
    const without = advertisementsOf(locked, from).filter((r) => r.status === 200).length;
    from = locked.requests.length;
    const advertisements = new AdvertisementMemo();
    const commit = await remoteRefCommit({ advertisements, policy: loopbackPolicy, url, ref: 'main', auth });
    const fetched = await fetchRef({ advertisements, policy: loopbackPolicy, cache: await newCache(), url, ref: 'main', auth });
    expect(fetched.commit).toBe(commit);
    expect(advertisementsOf(locked, from).filter((r) => r.status === 200).length).toBe(without - 1);
    expect(packsOf(locked, from).every((r) => r.status === 200)).toBe(true);
    expect(advertisements.served).toBe(1);
  });

  it('never answers a request without credentials with an advertisement fetched with them', async () => {
    const url = locked.url('docs');
    const advertisements = new AdvertisementMemo();
    await remoteRefCommit({ advertisements, policy: loopbackPolicy, url, ref: 'main', auth });
    await expect(fetchRef({ advertisements, policy: loopbackPolicy, cache: await newCache(), url, ref: 'main' })).rejects.toMatchObject({
      code: 'AUTH_FAILED',
    });
    expect(advertisements.served).toBe(0);
  });
});
