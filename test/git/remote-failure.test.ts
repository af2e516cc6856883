/**
 * A remote whose `git pack-objects` dies (a repository missing an object on the server side): the fetch fails with
 * the remote's own message, classified REMOTE_CORRUPT and not retryable, instead of a retried "not found in the
 * local repository cache". Against a real `git http-backend` on loopback.
 */
import { readdir, rm } from 'node:fs/promises';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchRef, openCache } from '../../src/git/index.js';
import { classifyRemoteMessages } from '../../src/git/errors.js';
import { NON_RETRYABLE_GIT_ERRORS } from '../../src/temporal/contract/index.js';
import { runGit, startGitServer, type GitServer } from '../helpers/git-server.js';
import { loopbackPolicy } from '../helpers/loopback-policy.js';

let server: GitServer;
let work: string;

/** Removes the loose object of one blob of the bare repository's head: the server can no longer pack it. */
async function corrupt(name: string): Promise<string> {
  const gitdir = path.join(server.root, `${name}.git`);
  const blob = (await runGit(['--git-dir', gitdir, 'rev-parse', 'main:guide.md'])).trim();
  const file = path.join(gitdir, 'objects', blob.slice(0, 2), blob.slice(2));
  expect((await readdir(path.dirname(file))).includes(blob.slice(2))).toBe(true);
  await rm(file);
  return blob;
}

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'folio-remote-failure-'));
  server = await startGitServer();
  const src = path.join(work, 'src');
  await runGit(['init', '--quiet', '--initial-branch=main', src]);
  const { writeFile } = await import('node:fs/promises');
  await writeFile(path.join(src, 'README.md'), '# Home\n');
  await writeFile(path.join(src, 'guide.md'), '# Guide\n\nSome text that the broken server cannot send.\n');
  await runGit(['add', '--all'], { cwd: src });
  await runGit(['commit', '--quiet', '-m', 'docs'], { cwd: src });
  await server.createBareRepo('broken', { fromDir: src });
  await server.createBareRepo('intact', { fromDir: src });
});

afterAll(async () => {
  await server?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('a remote whose pack-objects dies', () => {
  it('fails REMOTE_CORRUPT, not retryable, with the remote message, and leaves the cache usable', async () => {
    const blob = await corrupt('broken');
    const cache = await openCache({
      root: path.join(work, 'caches'),
      scope: { organizationId: 'org-a', spaceId: 'space-a' },
      url: server.url('broken'),
      ref: 'main',
      repoCacheID: 'broken-1',
    });
    const err = await fetchRef({ policy: loopbackPolicy, cache, url: server.url('broken'), ref: 'main' }).then(
      () => null,
      (e: unknown) => e as { code: string; message: string; retryable: boolean },
    );
    expect(err).not.toBeNull();
    expect(err!.code).toBe('REMOTE_CORRUPT');
    expect(err!.retryable).toBe(false);
    expect(NON_RETRYABLE_GIT_ERRORS).toContain('REMOTE_CORRUPT');
    // The remote's own words: git upload-pack's abort and pack-objects' complaint about the missing object.
    expect(err!.message).toContain(server.url('broken'));
    expect(err!.message).toMatch(/possible repository corruption on the remote side/);
    expect(err!.message).toContain(blob);
    expect(err!.message).not.toMatch(/local repository cache/);

    // The same cache fetches an intact remote afterwards (nothing half-written was kept).
    const ok = await fetchRef({ policy: loopbackPolicy, cache, url: server.url('intact'), ref: 'main' });
    expect(ok.commit).toMatch(/^[0-9a-f]{40}$/);
  });
});

describe('classifyRemoteMessages', () => {
  const url = 'https://git.example.com/acme/docs.git';
  it('tells corrupt, auth, not found and timeout apart, and keeps transient ones retryable', () => {
    expect(classifyRemoteMessages(url, 'main', ['fatal: bad object 1234', 'aborting due to possible repository corruption on the remote side.'])).toMatchObject(
      {
        code: 'REMOTE_CORRUPT',
        retryable: false,
      },
    );
    expect(classifyRemoteMessages(url, 'main', ['remote: HTTP Basic: Access denied'])).toMatchObject({ code: 'AUTH_FAILED', retryable: false });
    expect(classifyRemoteMessages(url, 'main', ["remote: The project you were looking for could not be found or you don't have permission"])).toMatchObject({
      code: 'REPO_NOT_FOUND',
      retryable: false,
    });
    expect(classifyRemoteMessages(url, 'main', ['error: RPC failed; operation timed out'])).toMatchObject({ code: 'NETWORK', retryable: true });
    expect(classifyRemoteMessages(url, 'main', ['Counting objects: 3, done.'])).toBeNull();
    expect(classifyRemoteMessages(url, 'main', [])).toBeNull();
  });

  it('keeps no secret of the remote message', () => {
    const err = classifyRemoteMessages(url, 'main', [
      'fatal: unable to read https://bot:hunter2@git.example.com/x.git',
      'aborting due to possible repository corruption',
    ]);
    expect(err!.message).not.toContain('hunter2');
  });
});
