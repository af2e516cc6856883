/**
 * An export reads only the page bodies it needs (`loadRevisionModel(…, { bodies: 'edited' })`): a page whose stored
 * body is exactly its git blob (its recorded `gitBlobSha256`) is not read, and its text comes from the blob only when
 * the page must be written. Checked against the full load, which reads every body: the same changes, byte for byte,
 * for an edited page, a page whose title and description changed through a change request, a page moved by a change
 * request whose links are rewritten in other, unedited pages, a new page, a deleted page, a raw (not UTF-8) page and a
 * page with a BOM; into the synced tree and into an empty one (every page written from its blob); after an
 * incremental import (the pages it reused keep their blob's sha256) and after a previous export. Through the activity,
 * the pushed commit's tree is the synced tree with the full load's changes.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, unlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitSyncActivities } from '../../activities/git-sync.js';
import { applyContentChanges, type ContentChange } from '../../src/change-requests/apply-changes.js';
import { loadConfig } from '../../src/config/config.js';
import { exportRevision, type ExportOptions, type SourceTree } from '../../src/format/index.js';
import { flattenPages, loadRevisionModel, modelToRevisionInput } from '../../src/revision/records.js';
import type { Store } from '../../src/store/index.js';
import { runGit, startGitServer, type GitServer } from '../helpers/git-server.js';
import { LOOPBACK_ALLOW_HOSTS } from '../helpers/loopback-policy.js';
import { testLogger } from '../helpers/logger.js';
import { createTestStore } from '../helpers/store.js';
import { gitSyncRequests } from '../helpers/git-sync-request.js';

const execFileP = promisify(execFile);

let store: Store;
let server: GitServer;
let work: string;
let acts: ReturnType<typeof createGitSyncActivities>;
const REPO = 'partial';
const requests = gitSyncRequests(() => server.url(REPO));
const request = (spaceId: string, direction: 'import' | 'export') => requests(spaceId, REPO, direction);

const bare = () => path.join(server.root, `${REPO}.git`);
const remoteHead = async () => (await runGit(['rev-parse', 'refs/heads/main'], { cwd: bare() })).trim();

/** A commit's files as a SourceTree, read with the git CLI. */
async function treeOf(commit: string): Promise<SourceTree> {
  const out = await runGit(['ls-tree', '-r', '-l', commit], { cwd: bare() });
  const tree: SourceTree = new Map();
  for (const line of out.split('\n').filter(Boolean)) {
    const [meta, p] = line.split('\t') as [string, string];
    const [mode, , oid, size] = meta.split(/\s+/) as [string, string, string, string];
    tree.set(p, {
      oid,
      mode,
      size: Number(size),
      read: async () => new Uint8Array((await execFileP('git', ['cat-file', 'blob', oid], { cwd: bare(), encoding: 'buffer' })).stdout),
    });
  }
  return tree;
}

/** Bytes of any blob of the repository (what the activity's readBlob gives from its cache). */
const readBlob = async (oid: string) => new Uint8Array((await execFileP('git', ['cat-file', 'blob', oid], { cwd: bare(), encoding: 'buffer' })).stdout);

/** The tree id of `commit`'s files with `changes` applied, written by the git CLI. */
async function expectedTree(commit: string, changes: Map<string, Uint8Array | null>): Promise<string> {
  const clone = await mkdtemp(path.join(work, 'expected-'));
  await runGit(['clone', '-q', server.url(REPO), clone]);
  await runGit(['checkout', '-q', commit], { cwd: clone });
  for (const [p, bytes] of changes) {
    const file = path.join(clone, p);
    if (bytes === null) await unlink(file);
    else {
      await mkdir(path.dirname(file), { recursive: true });
      await writeFile(file, bytes);
    }
  }
  await runGit(['add', '-A'], { cwd: clone });
  const tree = (await runGit(['write-tree'], { cwd: clone })).trim();
  await rm(clone, { recursive: true, force: true });
  return tree;
}

type Built = { changes: Map<string, Uint8Array | null>; warnings: unknown[]; inSource: Set<string> };

/**
 * The export of the space's revision into `target` with every body read (`full`) or only the needed ones; with
 * `exportedPaths`, the files the export of `target` wrote for pages whose records do not say so.
 */
async function build(
  revisionId: string,
  target: SourceTree,
  baseRevisionId: string | undefined,
  full: boolean,
  exportedPaths?: ReadonlyMap<string, string>,
): Promise<Built> {
  const loaded = (await loadRevisionModel(store, revisionId, full ? {} : { bodies: 'edited' }))!;
  const base = baseRevisionId ? (await loadRevisionModel(store, baseRevisionId, { bodies: false }))!.model : undefined;
  const options: ExportOptions = {
    readBlob,
    ...(base ? { base } : {}),
    ...(full ? {} : { markdownInSource: loaded.markdownInSource }),
    ...(exportedPaths ? { exportedPaths } : {}),
  };
  const { changes, warnings } = await exportRevision(loaded.model, target, options);
  return { changes, warnings, inSource: loaded.markdownInSource };
}

const asText = (changes: Map<string, Uint8Array | null>) =>
  new Map([...changes].sort(([a], [b]) => a.localeCompare(b)).map(([p, b]) => [p, b === null ? null : Buffer.from(b).toString('base64')]));

/** Full and partial loads export the same changes; returns them (and which pages the partial load did not read). */
async function sameBothWays(revisionId: string, target: SourceTree, baseRevisionId?: string, exportedPaths?: ReadonlyMap<string, string>): Promise<Built> {
  const full = await build(revisionId, target, baseRevisionId, true, exportedPaths);
  const partial = await build(revisionId, target, baseRevisionId, false, exportedPaths);
  expect(full.inSource.size).toBe(0);
  expect(asText(partial.changes)).toEqual(asText(full.changes));
  expect(partial.warnings).toEqual(full.warnings);
  return partial;
}

/** The id of the page titled New in `revisionId`. */
const newPageId = async (revisionId: string) =>
  flattenPages((await loadRevisionModel(store, revisionId, { bodies: false }))!.model.pages).find((p) => p.title === 'New')!.id;

const RAW = new Uint8Array([0x23, 0x20, 0x52, 0x61, 0x77, 0x0a, 0x0a, 0xff, 0xfe, 0x41, 0x0a]);
const BOM = '\uFEFF# Bom\r\n\r\nWith a byte order mark.\r\n';

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'folio-export-partial-'));
  store = await createTestStore();
  await store.orgs.ensure({ id: 'org', title: 'Org' });
  server = await startGitServer();
  const docs = path.join(work, 'docs');
  await mkdir(path.join(docs, '.gitbook', 'assets'), { recursive: true });
  const files: Record<string, string | Uint8Array> = {
    'README.md': '# Home\n\nStart with [C](page-c.md).\n',
    'SUMMARY.md':
      '# Table of contents\n\n* [Home](README.md)\n* [A](page-a.md)\n* [B](page-b.md)\n* [C](page-c.md)\n* [D](page-d.md)\n* [E](page-e.md)\n* [F](page-f.md)\n* [Raw](raw.md)\n* [Bom](bom.md)\n',
    'page-a.md': '# A\n\nAlpha.\n',
    'page-b.md': '---\ndescription: Old description\n---\n\n# B\n\nBeta, see [A](page-a.md).\n',
    'page-c.md': '# C\n\nGamma ![picture](.gitbook/assets/pic.png)\n',
    'page-d.md': '# D\n\nA link to [C](page-c.md) and one to [A](page-a.md).\n',
    'page-e.md': '# E\n\n[C, part two](./page-c.md#part-two)\n',
    'page-f.md': '# F\n\nTo be deleted.\n',
    'raw.md': RAW,
    'bom.md': BOM,
    '.gitbook/assets/pic.png': new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3]),
  };
  for (const [p, content] of Object.entries(files)) await writeFile(path.join(docs, p), content);
  await server.createBareRepo(REPO, { fromDir: docs, branch: 'main', message: 'docs' });
  acts = createGitSyncActivities({
    store,
    config: loadConfig({ DATA_DIR: path.join(work, 'data'), FETCH_ALLOW_HOSTS: LOOPBACK_ALLOW_HOSTS }),
    logger: testLogger('export-partial'),
  });
});

afterAll(async () => {
  await store?.close();
  await server?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('export with only the needed page bodies loaded', () => {
  it('gives the same changes and commit as the full load', async () => {
    const space = await store.spaces.create('org', { title: 'Partial' });
    expect((await acts.gitImportActivity(request(space.id, 'import'))).outcome).toBe('applied');

    // An upstream edit of one page, imported incrementally: the other pages are reused without reading their blobs.
    const clone = await mkdtemp(path.join(work, 'upstream-'));
    await runGit(['clone', '-q', server.url(REPO), clone]);
    await writeFile(path.join(clone, 'bom.md'), `${BOM}More.\r\n`);
    await runGit(['commit', '-qam', 'upstream edit'], { cwd: clone });
    await runGit(['push', '-q', 'origin', 'HEAD:main'], { cwd: clone });
    const incremental = await acts.gitImportActivity(request(space.id, 'import'));
    expect(incremental.outcome).toBe('applied');
    expect(incremental.detail).toMatch(/\d+ reused/);
    const imported = (await store.spaces.get(space.id))!.revisionId!;
    const synced = await remoteHead();

    // Every text page of the import is known to be its blob: nothing is read.
    const importLoad = (await loadRevisionModel(store, imported, { bodies: 'edited' }))!;
    const byPath = new Map(flattenPages(importLoad.model.pages).flatMap((p) => (p.kind === 'document' && p.git ? [[p.git.path, p] as const] : [])));
    const id = (p: string) => byPath.get(p)!.id;
    const textPages = ['README.md', 'page-a.md', 'page-b.md', 'page-c.md', 'page-d.md', 'page-e.md', 'page-f.md', 'bom.md'];
    expect([...importLoad.markdownInSource].sort()).toEqual(textPages.map(id).sort());
    expect(byPath.get('raw.md')!.kind === 'document' && byPath.get('raw.md')!.markdown).toBe(null);

    // C moved: a new slug with its stored URL path kept (a revision written from the model, every body re-encoded).
    const full0 = (await loadRevisionModel(store, imported))!;
    const c = flattenPages(full0.model.pages).find((p) => p.id === id('page-c.md'))!;
    c.slug = 'gamma';
    const fileBytes = new Map([...full0.fileHashes].map(([fileId, hash]) => [fileId, { hash }]));
    const { id: movedRev } = await store.revisions.create(
      modelToRevisionInput(full0.model, { spaceId: space.id, parents: [imported], type: 'edits', fileBytes }),
    );
    // Then a change request: A edited, B's title and description, a new page, F deleted.
    const changes: ContentChange[] = [
      { operation: 'update_page', page: id('page-a.md'), document: { markdown: '# A\n\nAlpha, edited in Folio.\n' } },
      { operation: 'update_page', page: id('page-b.md'), title: 'B renamed', description: 'New description' },
      { operation: 'insert_page', title: 'New', document: { markdown: '# New\n\nA new page.\n' } },
      { operation: 'delete_page', page: id('page-f.md') },
    ];
    const { revisionId: edited } = await applyContentChanges(store, space.id, movedRev, changes);
    await store.spaces.setPrimaryRevision(space.id, edited, { expected: imported });

    // Into the synced tree: only the edited and the new page are read.
    const target = await treeOf(synced);
    const built = await sameBothWays(edited, target, imported);
    expect([...built.inSource].sort()).toEqual(['README.md', 'page-b.md', 'page-c.md', 'page-d.md', 'page-e.md', 'bom.md'].map(id).sort());
    const paths = [...built.changes.keys()].sort();
    expect(paths).toEqual(['README.md', 'SUMMARY.md', 'gamma.md', 'new.md', 'page-a.md', 'page-b.md', 'page-c.md', 'page-d.md', 'page-e.md', 'page-f.md']);
    const text = (p: string) => new TextDecoder().decode(built.changes.get(p)!);
    expect(built.changes.get('page-c.md')).toBe(null);
    expect(built.changes.get('page-f.md')).toBe(null);
    expect(text('page-d.md')).toContain('[C](gamma.md)');
    expect(text('page-e.md')).toContain('(./gamma.md#part-two)');
    expect(text('README.md')).toContain('[C](gamma.md)');
    expect(text('page-b.md')).toContain('New description');
    expect(text('gamma.md')).toBe('# C\n\nGamma ![picture](.gitbook/assets/pic.png)\n');

    // Into an empty tree (a new repository): every page written, unedited ones from their blobs, the raw one as it is.
    const fresh = await sameBothWays(edited, new Map());
    expect(Buffer.from(fresh.changes.get('raw.md')!).equals(Buffer.from(RAW))).toBe(true);
    expect(fresh.changes.get('bom.md')).toEqual(new TextEncoder().encode(`${BOM}More.\r\n`));

    // The activity (partial load) pushes the synced tree with the full load's changes.
    const full = await build(edited, target, imported, true);
    const exported = await acts.gitExportActivity(request(space.id, 'export'));
    expect(exported.outcome).toBe('applied');
    expect((await runGit(['rev-parse', `${exported.commit}^{tree}`], { cwd: bare() })).trim()).toBe(await expectedTree(synced, full.changes));

    // A second change request after that export: D edited. The pages the first export wrote (A, B, the moved C, the
    // new page) are exported again from the same records (the store does not learn their new blobs), against the
    // exported commit, which holds the moved and the new page where the first export recorded it wrote them.
    const { revisionId: second } = await applyContentChanges(store, space.id, edited, [
      { operation: 'update_page', page: id('page-d.md'), document: { markdown: '# D\n\nRewritten, with [A](page-a.md).\n' } },
    ]);
    await store.spaces.setPrimaryRevision(space.id, second, { expected: edited });
    const exportedTree = await treeOf(exported.commit!);
    const recorded = (await store.gitSync.get(space.id)).lastExport?.exportedPaths ?? {};
    expect(recorded).toEqual({ [id('page-c.md')]: 'gamma.md', [await newPageId(edited)]: 'new.md' });
    const exportedPaths = new Map(Object.entries(recorded));
    const again = await sameBothWays(second, exportedTree, edited, exportedPaths);
    expect(again.changes.has('page-d.md')).toBe(true);
    const full2 = await build(second, exportedTree, edited, true, exportedPaths);
    const exported2 = await acts.gitExportActivity(request(space.id, 'export'));
    expect(exported2.outcome).toBe('applied');
    expect((await runGit(['rev-parse', `${exported2.commit}^{tree}`], { cwd: bare() })).trim()).toBe(await expectedTree(exported.commit!, full2.changes));
    // The moved and the new page are where the first export put them: no second copy, no old path written again.
    expect([...(await treeOf(exported2.commit!)).keys()].filter((p) => p.endsWith('.md')).sort()).toEqual([
      'README.md',
      'SUMMARY.md',
      'bom.md',
      'gamma.md',
      'new.md',
      'page-a.md',
      'page-b.md',
      'page-d.md',
      'page-e.md',
      'raw.md',
    ]);
  });
});
