/**
 * remoteRefCommit (the no-op check of a git import): the commit a branch or an annotated tag points at, from the ref
 * advertisement of the real git HTTP server, as `git rev-parse` says; a missing ref is undefined; the fetch guard and
 * the credentials apply as to a fetch, and the answer is one request.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { remoteRefCommit } from '../../src/git/index.js';
import { runGit, startGitServer, type GitServer } from '../helpers/git-server.js';
import { loopbackPolicy } from '../helpers/loopback-policy.js';

let server: GitServer;
let locked: GitServer;
let work: string;
let head: string;

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'folio-remote-ref-'));
  const src = path.join(work, 'src');
  await runGit(['init', '--quiet', '--initial-branch', 'main', src]);
  await writeFile(path.join(src, 'README.md'), '# Remote ref\n');
  await runGit(['add', '.'], { cwd: src });
  await runGit(['commit', '--quiet', '-m', 'first'], { cwd: src });
  await runGit(['tag', '-a', 'v1', '-m', 'version 1'], { cwd: src });
  head = (await runGit(['rev-parse', 'HEAD'], { cwd: src })).trim();
  server = await startGitServer();
  await server.createBareRepo('docs', { fromDir: src, branch: 'main' });
  await runGit(['push', '--quiet', server.url('docs'), 'refs/tags/v1'], { cwd: src });
  locked = await startGitServer({ auth: { username: 'folio', password: 'right-password' } });
  await locked.createBareRepo('docs', { fromDir: src, branch: 'main' });
});

afterAll(async () => {
  await server?.stop();
  await locked?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('remoteRefCommit', () => {
  it('answers the commit of a branch (short or full name) and of an annotated tag, in one request', async () => {
    const before = server.requests.length;
    expect(await remoteRefCommit({ policy: loopbackPolicy, url: server.url('docs'), ref: 'refs/heads/main' })).toBe(head);
    expect(server.requests.length - before).toBe(1);
    expect(await remoteRefCommit({ policy: loopbackPolicy, url: server.url('docs'), ref: 'main' })).toBe(head);
    expect(await remoteRefCommit({ policy: loopbackPolicy, url: server.url('docs'), ref: 'refs/tags/v1' })).toBe(head);
  });

  it('answers undefined for a ref the remote does not have', async () => {
    expect(await remoteRefCommit({ policy: loopbackPolicy, url: server.url('docs'), ref: 'refs/heads/nope' })).toBeUndefined();
  });

  it('goes through the fetch guard and the credentials like a fetch', async () => {
    const before = server.requests.length;
    await expect(remoteRefCommit({ url: server.url('docs'), ref: 'main' })).rejects.toMatchObject({ code: 'FETCH_PRIVATE_ADDRESS_DENIED' });
    expect(server.requests.length).toBe(before);
    await expect(
      remoteRefCommit({ policy: loopbackPolicy, url: locked.url('docs'), ref: 'main', auth: { username: 'folio', password: 'wrong' } }),
    ).rejects.toMatchObject({ code: 'AUTH_FAILED' });
    expect(
      await remoteRefCommit({ policy: loopbackPolicy, url: locked.url('docs'), ref: 'main', auth: { username: 'folio', password: 'right-password' } }),
    ).toBe(head);
  });
});
