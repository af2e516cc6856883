/**
 * A remote whose HEAD names a branch that does not exist (a repository holding only other branches: the default
 * branch never pushed or deleted, or Folio's own exports to branches of their own). `git upload-pack` advertises
 * no HEAD then, and isomorphic-git's fetch, having stored the pack, still fails looking for the remote's HEAD.
 * Folio fetches the branch asked for all the same, against a real `git http-backend` on loopback.
 */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchRef, hasObject, openCache } from '../../src/git/index.js';
import { runGit, startGitServer, type GitServer } from '../helpers/git-server.js';
import { loopbackPolicy } from '../helpers/loopback-policy.js';

let server: GitServer;
let work: string;
let feature: string;

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'folio-unborn-head-'));
  server = await startGitServer();
  const src = path.join(work, 'src');
  await runGit(['init', '--quiet', '--initial-branch=feature', src]);
  await writeFile(path.join(src, 'README.md'), '# Home\n');
  await runGit(['add', '--all'], { cwd: src });
  await runGit(['commit', '--quiet', '-m', 'docs'], { cwd: src });
  feature = (await runGit(['rev-parse', 'HEAD'], { cwd: src })).trim();
  // The bare repository's HEAD names `main`, which nobody pushes: only `feature` exists.
  await server.createBareRepo('only-feature', { branch: 'main' });
  await runGit(['push', '--quiet', path.join(server.root, 'only-feature.git'), 'feature:refs/heads/feature'], { cwd: src });
});

afterAll(async () => {
  await server?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('a remote whose HEAD is unborn', () => {
  it('advertises no HEAD, and the branch asked for is fetched, shallow and then incrementally', async () => {
    const advertised = await runGit(['ls-remote', server.url('only-feature')]);
    expect(advertised).not.toMatch(/\tHEAD$/m);
    expect(advertised).toContain(`${feature}\trefs/heads/feature`);
    const cache = await openCache({
      root: path.join(work, 'caches'),
      scope: { organizationId: 'org-a', spaceId: 'space-a' },
      url: server.url('only-feature'),
      ref: 'feature',
      repoCacheID: 'only-feature-1',
    });
    const first = await fetchRef({ policy: loopbackPolicy, cache, url: server.url('only-feature'), ref: 'refs/heads/feature' });
    expect(first.commit).toBe(feature);
    expect(await hasObject(cache, feature)).toBe(true);
    // Again, with the commit as the base: the tracking ref was written, so the fetch is incremental and still works.
    const again = await fetchRef({ policy: loopbackPolicy, cache, url: server.url('only-feature'), ref: 'refs/heads/feature', baseCommit: feature });
    expect(again).toMatchObject({ commit: feature, baseCommitFound: true });
  });
});
