/**
 * PreviousRevisions (each space's latest revision without page bodies, kept in the worker's memory for its next
 * incremental import): what it gives is what the store gives (`loadRevisionModel(…, { bodies: false })`), frozen; it is
 * read ahead after an import (`prewarm`) and then answered without a query; it never gives a revision to another
 * space; it is bounded. Through the import activity on the real git HTTP server: incremental imports answered from
 * memory store the same revisions as imports that read the store each time.
 */
import { appendFile, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitSyncActivities } from '../../activities/git-sync.js';
import { loadConfig } from '../../src/config/config.js';
import { PreviousRevisions } from '../../src/gitsync/previous-revisions.js';
import { loadRevisionModel } from '../../src/revision/records.js';
import type { PageRecord, Store } from '../../src/store/index.js';
import { runGit, startGitServer, type GitServer } from '../helpers/git-server.js';
import { LOOPBACK_ALLOW_HOSTS } from '../helpers/loopback-policy.js';
import { testLogger } from '../helpers/logger.js';
import { createTestStore } from '../helpers/store.js';
import { gitSyncRequests } from '../helpers/git-sync-request.js';

let store: Store;
let server: GitServer;
let work: string;
let src: string;
/** Reads of a revision's page records from the store. */
let pageReads = 0;
let counted: Store;

const requests = gitSyncRequests((repo) => server.url(repo));
const request = (spaceId: string) => requests(spaceId, 'docs', 'import');

const config = () => loadConfig({ DATA_DIR: path.join(work, 'data'), FETCH_ALLOW_HOSTS: LOOPBACK_ALLOW_HOSTS });
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function push(file: string, text: string): Promise<void> {
  await mkdir(path.dirname(path.join(src, file)), { recursive: true });
  await appendFile(path.join(src, file), text);
  await runGit(['add', '-A'], { cwd: src });
  await runGit(['commit', '--quiet', '-m', `edit ${file}`], { cwd: src });
  await runGit(['push', '--quiet', server.url('docs'), 'HEAD:main'], { cwd: src });
}

/** A revision's pages and files as comparable across spaces: by path, without ids. */
async function shape(revisionId: string) {
  const flat: PageRecord[] = [];
  const walk = (list: PageRecord[]) => list.forEach((p) => (flat.push(p), walk(p.children)));
  walk(await store.revisions.pages(revisionId));
  const pages = flat.map((p) => ({
    path: p.path,
    kind: p.kind,
    title: p.title,
    slug: p.slug,
    bodyHash: p.bodyHash,
    children: p.children.length,
    data: JSON.stringify(p.data, (k, v) => (k === 'id' || k === 'pageId' || k === 'fileId' ? undefined : v)),
  }));
  const files = (await store.revisions.files(revisionId)).map((f) => ({ name: f.name, path: f.path, hash: f.hash, git: f.git }));
  return { pages, files };
}

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'folio-previous-revisions-'));
  store = await createTestStore();
  await store.orgs.ensure({ id: 'org', title: 'Org' });
  await store.orgs.ensure({ id: 'other', title: 'Other' });
  counted = new Proxy(store, {
    get(target, prop, receiver) {
      const value = Reflect.get(target, prop, receiver) as unknown;
      if (prop !== 'revisions') return value;
      const revisions = value as Store['revisions'];
      return new Proxy(revisions, {
        get(t, p, r) {
          const v = Reflect.get(t, p, r) as unknown;
          if (p === 'pages') return (id: string) => (pageReads++, revisions.pages(id));
          return typeof v === 'function' ? (v as (...a: unknown[]) => unknown).bind(t) : v;
        },
      });
    },
  });
  server = await startGitServer();
  src = path.join(work, 'src');
  await mkdir(path.join(src, 'guide'), { recursive: true });
  await mkdir(path.join(src, '.gitbook', 'assets'), { recursive: true });
  await runGit(['init', '--quiet', '--initial-branch', 'main', src]);
  await writeFile(path.join(src, 'README.md'), '# Home\n\nSee [the guide](guide/start.md).\n');
  await writeFile(
    path.join(src, 'SUMMARY.md'),
    '# Table of contents\n\n* [Home](README.md)\n\n## Guide\n\n* [Start](guide/start.md)\n  * [Deep](guide/deep.md)\n* [Site](https://example.com)\n',
  );
  await writeFile(path.join(src, 'guide', 'start.md'), '---\ndescription: Start here\n---\n\n# Start\n\n![pic](../.gitbook/assets/pic.png)\n');
  await writeFile(path.join(src, 'guide', 'deep.md'), '# Deep\n\n{% hint style="info" %}\nHint.\n{% endhint %}\n');
  await writeFile(path.join(src, '.gitbook', 'assets', 'pic.png'), new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]));
  await runGit(['add', '-A'], { cwd: src });
  await runGit(['commit', '--quiet', '-m', 'first'], { cwd: src });
  await server.createBareRepo('docs', { fromDir: src, branch: 'main' });
});

afterAll(async () => {
  await server?.stop();
  await store?.close();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('PreviousRevisions', () => {
  it('gives what the store gives, frozen, and a second time without a query; never to another space', async () => {
    const space = await store.spaces.create('org', { id: 'direct' });
    const acts = createGitSyncActivities({ store, config: config(), logger: testLogger('git') });
    const { revisionId } = await acts.gitImportOperation(request(space.id));
    const cache = new PreviousRevisions(counted);
    const scope = { organizationId: 'org', spaceId: space.id };
    const before = pageReads;
    const first = await cache.load(scope, revisionId!);
    const second = await cache.load(scope, revisionId!);
    expect(pageReads - before).toBe(1);
    expect(cache.stats).toEqual({ hits: 1, loads: 1 });
    expect(second).toBe(first);
    // Exactly the store's answer.
    expect(JSON.parse(JSON.stringify({ ...first, records: [...first!.records.pages.values()] }))).toEqual(
      JSON.parse(
        JSON.stringify(await loadRevisionModel(store, revisionId!, { bodies: false }).then((l) => ({ ...l, records: [...l!.records.pages.values()] }))),
      ),
    );
    expect(Object.isFrozen(first!.model.pages[0])).toBe(true);
    expect(() => {
      (first!.model.pages[0] as { title: string }).title = 'changed';
    }).toThrow(TypeError);
    // Another space (of this organization or another one) asking for this revision gets nothing.
    const other = await store.spaces.create('other', { id: 'elsewhere' });
    expect(await cache.load({ organizationId: 'other', spaceId: other.id }, revisionId!)).toBeNull();
    expect(await cache.load({ organizationId: 'org', spaceId: 'direct-not' }, revisionId!)).toBeNull();
  });

  it('reads ahead (prewarm) and keeps at most maxSpaces spaces', async () => {
    const acts = createGitSyncActivities({ store, config: config(), logger: testLogger('git') });
    const cache = new PreviousRevisions(counted, { maxSpaces: 2, prewarmDelayMs: 0 });
    const spaces: Array<{ scope: { organizationId: string; spaceId: string }; revisionId: string }> = [];
    for (const id of ['bound-a', 'bound-b', 'bound-c']) {
      const space = await store.spaces.create('org', { id });
      const { revisionId } = await acts.gitImportOperation(request(space.id));
      spaces.push({ scope: { organizationId: 'org', spaceId: space.id }, revisionId: revisionId! });
      cache.prewarm(spaces.at(-1)!.scope, revisionId!);
      await sleep(200);
    }
    expect(cache.stats.loads).toBe(3);
    const before = pageReads;
    await cache.load(spaces[2]!.scope, spaces[2]!.revisionId);
    await cache.load(spaces[1]!.scope, spaces[1]!.revisionId);
    expect(pageReads - before).toBe(0);
    // The first space's entry was the least recently used of three: read again.
    await cache.load(spaces[0]!.scope, spaces[0]!.revisionId);
    expect(pageReads - before).toBe(1);
  });

  it('through the import activity: imports answered from memory store the same revisions as imports that read the store', async () => {
    const cached = await store.spaces.create('org', { id: 'cached' });
    const control = await store.spaces.create('org', { id: 'control' });
    // One set of activities for the cached space (its memory is kept); new activities for each control import.
    const acts = createGitSyncActivities({ store: counted, config: config(), logger: testLogger('git') });
    const fresh = () => createGitSyncActivities({ store, config: config(), logger: testLogger('git') });
    await acts.gitImportOperation(request(cached.id));
    await fresh().gitImportOperation(request(control.id));
    const edits: Array<[string, string]> = [
      ['guide/deep.md', '\nMore depth.\n'],
      ['README.md', '\nWelcome back.\n'],
      ['guide/new.md', '# New\n\nA page not in the summary.\n'],
      ['guide/start.md', '\n![again](../.gitbook/assets/pic.png)\n'],
      ['.gitbook/assets/other.png', 'not really a png'],
      ['guide/deep.md', '\n![other](../.gitbook/assets/other.png)\n'],
    ];
    let reads = 0;
    for (const [file, text] of edits) {
      await push(file, text);
      await sleep(700); // the previous import's revision is read ahead (500 ms after it answered)
      const before = pageReads;
      const a = await acts.gitImportOperation(request(cached.id));
      reads += pageReads - before;
      const b = await fresh().gitImportOperation(request(control.id));
      expect(a.outcome).toBe('applied');
      expect(b.outcome).toBe('applied');
      const [sa, sb] = [await shape(a.revisionId!), await shape(b.revisionId!)];
      expect(sa).toEqual(sb);
      expect(sa.files.length).toBeGreaterThan(0);
    }
    // Each import after the first found the previous revision in memory (read ahead, not on its path).
    expect(reads).toBe(0);
  });
});
