import { access, mkdir, mkdtemp, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openCache, removeLegacyCaches, removeSpaceCaches, spaceCacheDir, withCacheLock } from '../../src/git/index.js';

const exists = (p: string) =>
  access(p).then(
    () => true,
    () => false,
  );

describe('git cache layout: <root>/orgs/<organization>/<space>/<key>', () => {
  let root: string;
  beforeEach(async () => {
    root = await mkdtemp(path.join(tmpdir(), 'folio-cache-layout-'));
  });
  afterEach(async () => {
    await rm(root, { recursive: true, force: true });
  });
  const A = { organizationId: 'org-a', spaceId: 'space-1' };
  const remote = { url: 'https://h/r.git', ref: 'refs/heads/main' };

  it('the same repoCacheID or remote in another space or organization is another repository', async () => {
    const a = await openCache({ root, scope: A, ...remote, repoCacheID: 'shared' });
    const otherSpace = await openCache({ root, scope: { ...A, spaceId: 'space-2' }, ...remote, repoCacheID: 'shared' });
    const otherOrg = await openCache({ root, scope: { ...A, organizationId: 'org-b' }, ...remote, repoCacheID: 'shared' });
    const byUrl = await openCache({ root, scope: A, ...remote });
    const byUrlElsewhere = await openCache({ root, scope: { organizationId: 'org-b', spaceId: 'space-9' }, ...remote });
    expect(a.gitdir).toBe(path.join(root, 'orgs', 'org-a', 'space-1', 'id-shared'));
    expect(new Set([a.gitdir, otherSpace.gitdir, otherOrg.gitdir, byUrl.gitdir, byUrlElsewhere.gitdir]).size).toBe(5);
    // Within one space the client's id keeps its meaning: the same id is the same cache.
    expect((await openCache({ root, scope: A, url: 'https://other/x.git', ref: 'refs/heads/dev', repoCacheID: 'shared' })).gitdir).toBe(a.gitdir);
    // A repoCacheID can neither climb out of the space nor pose as a lock.
    for (const id of ['../../org-b/space-1/id-shared', '..', 'x.lock']) {
      expect(path.dirname((await openCache({ root, scope: A, ...remote, repoCacheID: id })).gitdir)).toBe(spaceCacheDir(root, A));
      expect((await openCache({ root, scope: A, ...remote, repoCacheID: id })).key).toMatch(/^id-[0-9a-f]{32}$/);
    }
  });

  it('refuses scope ids that are not store ids', async () => {
    for (const bad of ['', '..', 'a/b', 'a\\b', '.', 'x'.repeat(65)]) {
      await expect(openCache({ root, scope: { organizationId: bad, spaceId: 's' }, ...remote })).rejects.toThrow(TypeError);
      await expect(openCache({ root, scope: { organizationId: 'o', spaceId: bad }, ...remote })).rejects.toThrow(TypeError);
    }
  });

  it('removeSpaceCaches removes every cache of the space (whatever its key) and nothing else', async () => {
    const one = await openCache({ root, scope: A, ...remote, repoCacheID: 'one' });
    await openCache({ root, scope: A, ...remote });
    const keep = await openCache({ root, scope: { ...A, spaceId: 'space-2' }, ...remote, repoCacheID: 'one' });
    await mkdir(path.join(one.root, 'id-one.lock.stale-1234'));
    expect(await removeSpaceCaches(root, A)).toBe(2);
    expect(await exists(spaceCacheDir(root, A))).toBe(false);
    expect(await exists(path.join(keep.gitdir, 'config'))).toBe(true);
    expect(await readdir(path.join(root, 'orgs', 'org-a'))).toEqual(['space-2']);
    expect(await removeSpaceCaches(root, A)).toBe(0); // idempotent
  });

  it('removeSpaceCaches waits for a writer holding a cache lock', async () => {
    const cache = await openCache({ root, scope: A, ...remote, repoCacheID: 'busy' });
    let release!: () => void;
    const held = new Promise<void>((r) => (release = r));
    const events: string[] = [];
    const writer = withCacheLock(cache, async () => {
      events.push('writer+');
      await held;
      events.push('writer-');
    });
    await new Promise((r) => setTimeout(r, 50));
    const removal = removeSpaceCaches(root, A).then(() => events.push('removed'));
    await new Promise((r) => setTimeout(r, 50));
    release();
    await Promise.all([writer, removal]);
    expect(events).toEqual(['writer+', 'writer-', 'removed']);
  });

  it('removeLegacyCaches removes what the pre-tenant layout left at the top and keeps the tenant tree', async () => {
    const cache = await openCache({ root, scope: A, ...remote, repoCacheID: 'kept' });
    await mkdir(path.join(root, 'id-shared'), { recursive: true });
    await writeFile(path.join(root, 'id-shared', 'config'), '[core]\n');
    await mkdir(path.join(root, '0123456789abcdef0123456789abcdef.lock'));
    await mkdir(path.join(root, '.trash-id-x-00ff00ff'));
    await mkdir(path.join(root, '.legacy-deadbeef')); // an earlier removal interrupted
    expect((await removeLegacyCaches(root)).sort()).toEqual(['.trash-id-x-00ff00ff', '0123456789abcdef0123456789abcdef.lock', 'id-shared']);
    expect(await readdir(root)).toEqual(['orgs']);
    expect(await exists(path.join(cache.gitdir, 'config'))).toBe(true);
    expect(await removeLegacyCaches(path.join(root, 'missing'))).toEqual([]);
  });
});
