/**
 * The block-level three-way merge over real pages (../shared/corpus): a corpus repository is imported from the
 * loopback git server; for each of its pages with two paragraphs, the primary content edits one and a change
 * request the other, and the merge (src/change-requests/run.ts, each page merged by the parse pool's block merge)
 * gives exactly the page with both edits; the export of the merged revision to git changes exactly that page's file.
 * Then both sides edit the same paragraph: a conflict naming the page and the block, and nothing of either side lost.
 * The git sync activities run directly (no Temporal), as in the other export tests.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitSyncActivities } from '../../activities/git-sync.js';
import { mergeChangeRequest } from '../../src/change-requests/run.js';
import { locate, toEditable, toFileInputs, toPageInputs } from '../../src/change-requests/tree.js';
import { loadConfig } from '../../src/config/config.js';
import { ConflictError } from '../../src/errors.js';
import { parsePageFile } from '../../src/format/index.js';
import { ParsePool } from '../../src/parse-threads/pool.js';
import { corpusDir } from '../../src/project-root.js';
import { flattenPages, loadRevisionModel } from '../../src/revision/records.js';
import type { Store } from '../../src/store/index.js';
import { runGit, startGitServer, type GitServer } from '../helpers/git-server.js';
import { gitSyncRequests } from '../helpers/git-sync-request.js';
import { LOOPBACK_ALLOW_HOSTS } from '../helpers/loopback-policy.js';
import { testLogger } from '../helpers/logger.js';
import { createTestStore } from '../helpers/store.js';

const REPO = 'BlockRazorinc+docs_en';
const PAGES = 8;

let store: Store;
let server: GitServer;
let work: string;
let pool: ParsePool;
let acts: ReturnType<typeof createGitSyncActivities>;
let spaceId: string;
const request = gitSyncRequests((repo) => server.url(repo), Date.UTC(2026, 0, 1));
const bare = () => path.join(server.root, 'docs.git');
const git = (args: string[]) => runGit(args, { cwd: bare() });
const decoder = new TextDecoder();
const mergeBody = (base: string, ours: string, theirs: string) => pool.run('page.merge3', base, ours, theirs);

interface Case {
  id: string;
  file: string;
  body: string;
  /** Start offsets of two paragraphs (top-level blocks of its document) and their block indexes. */
  first: { offset: number; index: number };
  second: { offset: number; index: number };
}

const insert = (text: string, at: number, what: string) => text.slice(0, at) + what + text.slice(at);
const primary = async () => (await store.spaces.get(spaceId))!.revisionId!;

/** A new revision of the space: `revisionId` with the page's markdown replaced. */
async function withBody(revisionId: string, pageId: string, text: string): Promise<string> {
  const pages = toEditable(await store.revisions.pages(revisionId));
  locate(pages, pageId)!.page.bodyHash = await store.blobs.put(new TextEncoder().encode(text));
  const revision = (await store.revisions.get(revisionId))!;
  const { id } = await store.revisions.create({
    spaceId,
    parents: [revisionId],
    type: 'edits',
    data: revision.data,
    pages: toPageInputs(pages),
    files: toFileInputs(await store.revisions.files(revisionId)),
  });
  return id;
}
const bodyOf = async (revisionId: string, pageId: string) => decoder.decode((await store.revisions.pageBody(revisionId, pageId))!);

/** The primary content edits one paragraph of the page, a change request made before that edit another (or the same). */
async function editBothSides(c: Case, ours: { at: number; text: string }, theirs: { at: number; text: string }) {
  const base = await primary();
  const cr = await store.changeRequests.create({ spaceId, subject: `edit ${c.file}`, createdBy: null, revisionId: base });
  const crRevision = await withBody(base, c.id, insert(c.body, theirs.at, theirs.text));
  await store.changeRequests.setRevision(cr.id, crRevision, base);
  const primaryRevision = await withBody(base, c.id, insert(c.body, ours.at, ours.text));
  await store.spaces.setPrimaryRevision(spaceId, primaryRevision, { expected: base });
  return { cr, crRevision, primaryRevision };
}

let cases: Case[] = [];

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'folio-block-merge-'));
  store = await createTestStore();
  await store.orgs.ensure({ id: 'org', title: 'Org' });
  server = await startGitServer();
  await server.createBareRepo('docs', { fromDir: path.join(corpusDir(), REPO), branch: 'main', message: 'corpus' });
  pool = new ParsePool({ threads: 1, preload: [] });
  acts = createGitSyncActivities({
    store,
    config: loadConfig({ DATA_DIR: path.join(work, 'data'), FETCH_ALLOW_HOSTS: LOOPBACK_ALLOW_HOSTS }),
    logger: testLogger('block-merge-corpus'),
  });
  spaceId = (await store.spaces.create('org', { title: 'corpus' })).id;
  expect((await acts.gitImportActivity(request(spaceId, 'docs', 'import'))).outcome).toBe('applied');
  // The first export records where each page is; later exports are compared with it.
  expect((await acts.gitExportActivity(request(spaceId, 'docs', 'export'))).outcome).toMatch(/applied|noop/);
  const revisionId = await primary();
  const loaded = (await loadRevisionModel(store, revisionId, { bodies: false }))!;
  for (const page of flattenPages(loaded.model.pages)) {
    if (page.kind !== 'document' || !page.git?.path) continue;
    const body = await bodyOf(revisionId, page.id);
    if (body.startsWith('\uFEFF') || body.includes('\r')) continue;
    const children = parsePageFile(body).document.children;
    const paragraphs = children.flatMap((n, index) => (n.type === 'paragraph' && n.position ? [{ offset: n.position.start.offset!, index }] : []));
    if (paragraphs.length < 2) continue;
    cases.push({ id: page.id, file: page.git.path, body, first: paragraphs[0]!, second: paragraphs[paragraphs.length - 1]! });
  }
  cases = cases.slice(0, PAGES);
}, 300_000);

afterAll(async () => {
  await pool?.close();
  await store?.close();
  await server?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

describe(`block-level three-way merge over ${REPO}`, () => {
  it(`has ${PAGES} pages with two paragraphs to edit`, () => {
    expect(cases.length).toBe(PAGES);
  });

  it.each(Array.from({ length: PAGES }, (_, i) => i))(
    'page %i: edits of two blocks merge to the page with both, and the export changes its file only',
    async (i) => {
      const c = cases[i]!;
      const { cr } = await editBothSides(c, { at: c.first.offset, text: 'Primary edit. ' }, { at: c.second.offset, text: 'Change request edit. ' });
      const done = await mergeChangeRequest(store, { spaceId, changeRequestId: cr.id, mergedBy: null }, { mergeBody });
      expect(done.outcome).toBe('done');
      const merged = await primary();
      const expected = insert(insert(c.body, c.second.offset, 'Change request edit. '), c.first.offset, 'Primary edit. ');
      expect(await bodyOf(merged, c.id)).toBe(expected);
      expect((await store.changeRequests.get(spaceId, cr.id))!.status).toBe('merged');

      const before = (await git(['rev-parse', 'refs/heads/main'])).trim();
      expect((await acts.gitExportActivity(request(spaceId, 'docs', 'export'))).outcome).toBe('applied');
      const changed = (await git(['diff', '--name-status', before, 'refs/heads/main'])).split('\n').filter(Boolean);
      expect(changed).toEqual([`M\t${c.file}`]);
      expect(await git(['show', `refs/heads/main:${c.file}`])).toBe(expected);
    },
  );

  it.each(Array.from({ length: PAGES }, (_, i) => i))(
    'page %i: edits of the same block are a conflict naming the page and the block; nothing is lost',
    async (i) => {
      const c = cases[i]!;
      const base = await primary();
      const body = await bodyOf(base, c.id);
      const at = parsePageFile(body).document.children[c.first.index]!.position!.start.offset!;
      const { cr, crRevision, primaryRevision } = await editBothSides(
        { ...c, body },
        { at, text: 'Primary wording. ' },
        { at, text: 'Change request wording. ' },
      );
      const err = await mergeChangeRequest(store, { spaceId, changeRequestId: cr.id, mergedBy: null }, { mergeBody }).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(ConflictError);
      const conflicts = (err as ConflictError).data.conflicts as Array<{ kind: string; id: string; blocks?: unknown[] }>;
      expect(conflicts).toEqual([
        expect.objectContaining({
          kind: 'page',
          id: c.id,
          blocks: [{ primary: { from: c.first.index, to: c.first.index + 1 }, changeRequest: { from: c.first.index, to: c.first.index + 1 } }],
        }),
      ]);
      expect((err as Error).message).toContain(c.id);
      // Nothing of either side is lost: the primary content and the change request are as they were.
      expect(await primary()).toBe(primaryRevision);
      const after = (await store.changeRequests.get(spaceId, cr.id))!;
      expect(after).toMatchObject({ status: 'open', revisionId: crRevision });
      expect(await bodyOf(crRevision, c.id)).toBe(insert(body, at, 'Change request wording. '));
      expect(await bodyOf(primaryRevision, c.id)).toBe(insert(body, at, 'Primary wording. '));
    },
  );
});
