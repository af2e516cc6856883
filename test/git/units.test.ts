import { spawnSync } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile, access } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendTrailers, cacheKey, getTrailer, openCache, parseTrailers, removeCache, resolveRemote, toGitError, withCacheLock } from '../../src/git/index.js';
import { authHandlers } from '../../src/git/credentials.js';

/** Every cache here belongs to one test tenant (organization and space). */
const TEST_SCOPE = { organizationId: 'org-test', spaceId: 'space-test' };

let work: string;
beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'folio-git-units-'));
});
afterAll(async () => {
  await rm(work, { recursive: true, force: true });
});

describe('credentials', () => {
  it('moves basic-auth userinfo out of the URL; explicit credentials win', () => {
    expect(resolveRemote('https://bot:p%40ss%3Aword@git.example.com/org/repo.git')).toEqual({
      url: 'https://git.example.com/org/repo.git',
      auth: { username: 'bot', password: 'p@ss:word' },
    });
    expect(resolveRemote('https://git.example.com/org/repo.git/')).toEqual({ url: 'https://git.example.com/org/repo.git' });
    expect(resolveRemote('https://x-access-token@git.example.com/r.git').auth).toEqual({ username: 'x-access-token', password: '' });
    expect(resolveRemote('https://a:b@git.example.com/r.git', { username: 'c', password: 'd' })).toEqual({
      url: 'https://git.example.com/r.git',
      auth: { username: 'c', password: 'd' },
    });
    expect(() => resolveRemote('ssh://git@example.com/r.git')).toThrow(/scheme/);
    expect(() => resolveRemote('not a url with secret:pw@')).toThrow();
    try {
      resolveRemote('::bad://user:topsecret@x');
    } catch (err) {
      expect(String(err)).not.toContain('topsecret');
    }
  });

  it('offers a credential once, then cancels (no retry loop)', async () => {
    const h = authHandlers({ username: 'u', password: 'pw-123' });
    expect(await h.onAuth('http://x', {})).toEqual({ username: 'u', password: 'pw-123' });
    expect(h.rejected).toBe(false);
    expect(await h.onAuthFailure('http://x', {})).toEqual({ cancel: true });
    expect(h.rejected).toBe(true);
    expect(h.secrets).toContain('pw-123');
  });

  it('scrubs secrets from mapped errors', () => {
    const err = toGitError(new Error('boom https://u:pw-secret-9@host/x and pw-secret-9'), {
      url: 'https://host/x',
      operation: 'fetch',
      secrets: ['pw-secret-9'],
    });
    expect(err.code).toBe('GIT_PROTOCOL');
    expect(err.message).not.toContain('pw-secret-9');
    const http = Object.assign(new Error('HTTP Error: 503'), { code: 'HttpError', data: { statusCode: 503 } });
    expect(toGitError(http, { url: 'u', operation: 'fetch' })).toMatchObject({ code: 'NETWORK', retryable: true });
    const nff = Object.assign(new Error('x'), { code: 'GitPushError' });
    expect(toGitError(Object.assign(nff, { message: 'refs/heads/main: failed to update ref' }), { url: 'u', operation: 'push' }).code).toBe('PUSH_REJECTED');
    expect(
      toGitError(Object.assign(new Error('x'), { code: 'GitPushError', message: ' - refs/heads/main: fetch first' }), { url: 'u', operation: 'push' }).code,
    ).toBe('NON_FAST_FORWARD');
  });
});

describe('trailers', () => {
  it('parses the trailer block of the last paragraph only', () => {
    const msg = 'Update docs\n\nBody with Key: not a trailer\nmore text\n\nFolio-Revision: rev_1\nCo-authored-by: A <a@x>\n  continued\n';
    expect(parseTrailers(msg)).toEqual([
      { key: 'Folio-Revision', value: 'rev_1' },
      { key: 'Co-authored-by', value: 'A <a@x> continued' },
    ]);
    expect(parseTrailers('Subject: only a subject line')).toEqual([]);
    expect(parseTrailers('Subject\n\nplain paragraph\nFolio-Revision: x')).toEqual([]);
    expect(getTrailer(msg, 'folio-revision')).toBe('rev_1');
    expect(getTrailer(msg, 'Missing')).toBeUndefined();
  });

  it('appends trailers so that they parse back', () => {
    const m1 = appendTrailers('GITBOOK-12: Edit page', { 'Folio-Revision': 'r1' });
    expect(m1).toBe('GITBOOK-12: Edit page\n\nFolio-Revision: r1\n');
    const m2 = appendTrailers(m1, [{ key: 'Folio-Space', value: 's1' }]);
    expect(parseTrailers(m2)).toEqual([
      { key: 'Folio-Revision', value: 'r1' },
      { key: 'Folio-Space', value: 's1' },
    ]);
    expect(() => appendTrailers('x', { 'bad key': 'v' })).toThrow();
    expect(() => appendTrailers('x', { K: 'multi\nline' })).toThrow();
  });
});

describe('cache', () => {
  it('keys by repoCacheID, else by credential-free URL + ref', () => {
    const a = cacheKey({ url: 'https://u:p@h/r.git', ref: 'main' });
    expect(a).toBe(cacheKey({ url: 'https://other:creds@h/r.git', ref: 'main' }));
    expect(a).not.toBe(cacheKey({ url: 'https://h/r.git', ref: 'dev' }));
    expect(cacheKey({ url: 'https://h/r.git', ref: 'main', repoCacheID: 'space-1' })).toBe('id-space-1');
    expect(cacheKey({ url: 'x', ref: 'y', repoCacheID: '../../etc' })).toMatch(/^id-[0-9a-f]{32}$/);
  });

  it('serialises writers in one process', async () => {
    const cache = await openCache({ root: work, scope: TEST_SCOPE, url: 'https://h/r.git', ref: 'main', repoCacheID: 'serial' });
    const events: string[] = [];
    const task = (name: string) =>
      withCacheLock(cache, async () => {
        events.push(`${name}+`);
        await new Promise((r) => setTimeout(r, 20));
        events.push(`${name}-`);
      });
    await Promise.all([task('a'), task('b'), task('c')]);
    expect(events).toEqual(['a+', 'a-', 'b+', 'b-', 'c+', 'c-']);
    await expect(
      withCacheLock(cache, async () => {
        throw new Error('inner');
      }),
    ).rejects.toThrow('inner');
    await expect(withCacheLock(cache, async () => 42)).resolves.toBe(42);
  });

  it("waits for a live foreign lock (CACHE_LOCKED on timeout) and takes over a dead owner's", async () => {
    const cache = await openCache({ root: work, scope: TEST_SCOPE, url: 'https://h/r.git', ref: 'main', repoCacheID: 'foreign' });
    const lock = path.join(cache.root, 'id-foreign.lock');
    await mkdir(lock);
    await writeFile(path.join(lock, 'owner'), JSON.stringify({ pid: process.ppid, at: Date.now() })); // alive, not us
    await expect(withCacheLock(cache, async () => 1, { timeoutMs: 300 })).rejects.toMatchObject({ code: 'CACHE_LOCKED', retryable: true });
    const dead = spawnSync(process.execPath, ['-e', '0']).pid!;
    await writeFile(path.join(lock, 'owner'), JSON.stringify({ pid: dead, at: Date.now() }));
    await expect(withCacheLock(cache, async () => 2, { timeoutMs: 5000 })).resolves.toBe(2);
    await expect(access(lock)).rejects.toThrow();
  });

  it('removeCache deletes the directory', async () => {
    const cache = await openCache({ root: work, scope: TEST_SCOPE, url: 'https://h/r.git', ref: 'main', repoCacheID: 'gone' });
    await access(path.join(cache.gitdir, 'config'));
    await removeCache(cache);
    await expect(access(cache.gitdir)).rejects.toThrow();
    await removeCache(cache); // idempotent
  });
});
