import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fetchRef, hasObject, openCache, readCommit, readTree } from '../../src/git/index.js';
import { atomicFs } from '../../src/git/atomic-fs.js';
import { readFsOf } from '../../src/git/read-fs.js';
import { runGit, startGitServer, type GitServer } from '../helpers/git-server.js';
import { loopbackPolicy } from '../helpers/loopback-policy.js';

/** Issue 17: the object readers ask the file system once per cache, not once per blob, and still see new objects. */
describe("the object readers' file system client", () => {
  let server: GitServer;
  let work: string;
  let src: string;
  beforeAll(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'folio-read-fs-'));
    server = await startGitServer();
    src = path.join(work, 'src');
    await mkdir(src, { recursive: true });
    for (let i = 0; i < 30; i++) await writeFile(path.join(src, `page-${i}.md`), `# Page ${i}\n\nText ${i}.\n`);
    await server.createBareRepo('r', { fromDir: src, branch: 'main', message: 'first' });
  });
  afterAll(async () => {
    await server?.stop();
    if (work) await rm(work, { recursive: true, force: true });
  });

  it('reads 30 blobs with one listing of the pack directory and one stat of the git directory, and finds objects fetched later', async () => {
    const cache = await openCache({
      root: path.join(work, 'caches'),
      scope: { organizationId: 'o', spaceId: 's' },
      url: server.url('r'),
      ref: 'refs/heads/main',
    });
    const first = await fetchRef({ policy: loopbackPolicy, cache, url: server.url('r'), ref: 'refs/heads/main' });
    const tree = await readTree(cache, first.commit);
    const texts = await Promise.all([...tree.values()].map(async (e) => new TextDecoder().decode(await e.read())));
    expect(texts).toHaveLength(30);
    expect(texts.filter((t) => t.startsWith('# Page '))).toHaveLength(30);
    const { counts } = readFsOf(cache);
    expect(counts.packListings).toBe(1);
    expect(counts.directoryStats).toBe(1);
    const looseBefore = counts.looseReads;
    await readTree(cache, first.commit).then((t) => Promise.all([...t.values()].map((e) => e.read())));
    expect(counts.looseReads).toBe(looseBefore); // a loose object known to be absent is not looked for again
    expect(counts.packListings).toBe(1);

    // A new commit fetched into the same cache (a new pack): found, the readers having forgotten the old listing.
    const clone = path.join(work, 'clone');
    await runGit(['clone', '--quiet', server.url('r'), clone]);
    await writeFile(path.join(clone, 'page-0.md'), '# Page 0\n\nChanged.\n');
    await writeFile(path.join(clone, 'new.md'), '# New\n');
    await runGit(['add', '-A'], { cwd: clone });
    await runGit(['commit', '--quiet', '-m', 'second'], { cwd: clone });
    await runGit(['push', '--quiet', 'origin', 'HEAD:main'], { cwd: clone });
    const second = await fetchRef({ policy: loopbackPolicy, cache, url: server.url('r'), ref: 'refs/heads/main', baseCommit: first.commit });
    expect(await hasObject(cache, second.commit)).toBe(true);
    expect((await readCommit(cache, second.commit)).message.trim()).toBe('second');
    const next = await readTree(cache, second.commit);
    expect(new TextDecoder().decode(await next.get('new.md')!.read())).toBe('# New\n');
    expect(new TextDecoder().decode(await next.get('page-0.md')!.read())).toBe('# Page 0\n\nChanged.\n');
    expect(await hasObject(cache, '0'.repeat(40))).toBe(false);
  });

  it("answers isomorphic-git's readFile() probe without the disk (a file named 'undefined' in the working directory is never opened)", async () => {
    const dir = await mkdtemp(path.join(work, 'cwd-'));
    await writeFile(path.join(dir, 'undefined'), 'not a git object');
    const cwd = process.cwd();
    process.chdir(dir);
    try {
      const cache = await openCache({
        root: path.join(work, 'probe'),
        scope: { organizationId: 'o', spaceId: 'p' },
        url: server.url('r'),
        ref: 'refs/heads/main',
      });
      for (const client of [readFsOf(cache).fs, atomicFs]) {
        const probe = (client.promises.readFile as (file?: string) => Promise<unknown>)();
        const [a, b] = await Promise.all([
          probe.catch((e: unknown) => e),
          (client.promises.readFile as (file?: string) => Promise<unknown>)().catch((e: unknown) => e),
        ]);
        expect(a).toBeInstanceOf(TypeError);
        // One shared error, not one built per probe.
        expect(b).toBe(a);
      }
    } finally {
      process.chdir(cwd);
    }
  });
});
