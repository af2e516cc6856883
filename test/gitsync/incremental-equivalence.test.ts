/**
 * The incremental paths give what the full ones give (issue 17). On a corpus repository (GitbookIO+public-docs, with
 * SUMMARY.md and assets):
 * - an incremental import (the previous revision's records reused, unchanged pages neither read nor parsed, their
 *   stored bodies kept by hash) of a commit that edits, adds, deletes and renames pages, changes SUMMARY.md and
 *   changes and adds assets stores the same revision as a cold import of that commit into another space (pages,
 *   files, bodies, data; ids compared through what they name), and unchanged pages keep their ids; the pages and
 *   files that did not change (one of them moved to another parent by SUMMARY.md) are copied from the previous
 *   revision inside the store (`fromBase`), the others sent;
 * - a one-page export after an edit in Folio (only the changed blob and the trees on its path written, on top of the
 *   remote head) commits the tree git itself builds from the whole checkout with the same edit.
 * The activities run directly (no Temporal) against the loopback git server and an in-memory store.
 */
import { chmod, cp, mkdtemp, readFile, readdir, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createGitSyncActivities } from '../../activities/git-sync.js';
import { loadConfig } from '../../src/config/config.js';
import { flattenPages, loadRevisionModel, modelToRevisionInput } from '../../src/revision/records.js';
import { corpusDir } from '../../src/project-root.js';
import type { DocumentPage } from '../../src/format/index.js';
import type { PageInput, PageRecord, RevisionInput, Store } from '../../src/store/index.js';
import type { GitSyncRequest } from '../../src/temporal/contract/index.js';
import { runGit, startGitServer, type GitServer } from '../helpers/git-server.js';
import { LOOPBACK_ALLOW_HOSTS } from '../helpers/loopback-policy.js';
import { testLogger } from '../helpers/logger.js';
import { createTestStore } from '../helpers/store.js';

const REPO = 'GitbookIO+public-docs';
const ROOT = 'documentation';

let store: Store;
let server: GitServer;
let work: string;
let clone: string;
let acts: ReturnType<typeof createGitSyncActivities>;
let tick = Date.UTC(2025, 10, 1);
let n = 0;

function request(spaceId: string, direction: 'import' | 'export'): GitSyncRequest {
  return {
    requestId: `${direction}-${++n}`,
    direction,
    spaceId,
    organizationId: 'org',
    url: server.url('docs'),
    ref: 'refs/heads/main',
    timestamp: new Date((tick += 60_000)).toISOString(),
    force: false,
    standalone: false,
    projectDirectory: ROOT,
    receivedAt: new Date().toISOString(),
    ...(direction === 'export' ? { commitMessage: 'from Folio' } : {}),
  };
}

async function makeWritable(dir: string): Promise<void> {
  await chmod(dir, 0o755);
  for (const e of await readdir(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) await makeWritable(p);
    else await chmod(p, 0o644);
  }
}

async function push(message: string): Promise<string> {
  await runGit(['add', '--all'], { cwd: clone });
  await runGit(['commit', '--quiet', '-m', message], { cwd: clone });
  await runGit(['push', '--quiet', 'origin', 'HEAD:main'], { cwd: clone });
  return (await runGit(['rev-parse', 'HEAD'], { cwd: clone })).trim();
}

/** The revision's records with every page and file id replaced by what it names (a page's file, a file's path). */
async function snapshot(revisionId: string): Promise<{ records: unknown; ids: Map<string, string> }> {
  const [pages, files, revision] = await Promise.all([store.revisions.pages(revisionId), store.revisions.files(revisionId), store.revisions.get(revisionId)]);
  const labels = new Map<string, string>();
  const seen = new Map<string, number>();
  const label = (p: PageRecord) => {
    const git = (p.data as { git?: { path?: string } }).git;
    let name = git?.path ? `page:${git.path}` : `${p.kind}:${p.title}:${String((p.data as { href?: string }).href ?? '')}`;
    const k = seen.get(name) ?? 0;
    seen.set(name, k + 1);
    if (k > 0) name = `${name}#${k}`;
    labels.set(p.id, name);
    for (const c of p.children) label(c);
  };
  for (const p of pages) label(p);
  for (const f of files) labels.set(f.id, `file:${f.path ?? f.name}`);
  const strip = (p: PageRecord): unknown => ({
    id: p.id,
    kind: p.kind,
    title: p.title,
    slug: p.slug,
    path: p.path,
    data: p.data,
    bodyHash: p.bodyHash,
    position: p.position,
    children: p.children.map(strip),
  });
  const replace = (v: unknown): unknown => {
    if (typeof v === 'string') return labels.get(v) ?? v;
    if (Array.isArray(v)) return v.map(replace);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, replace(x)]));
    return v;
  };
  const byLabel = new Map([...labels].map(([id, l]) => [l, id]));
  return {
    records: replace({ pages: pages.map(strip), files, data: revision!.data, pageCount: revision!.pageCount, fileCount: revision!.fileCount }),
    ids: byLabel,
  };
}

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'folio-incremental-'));
  store = await createTestStore();
  await store.orgs.ensure({ id: 'org', title: 'Org' });
  server = await startGitServer();
  const src = path.join(work, 'src');
  await cp(path.join(corpusDir(), REPO), src, { recursive: true });
  await makeWritable(src);
  await server.createBareRepo('docs', { fromDir: src, branch: 'main', message: 'corpus' });
  clone = path.join(work, 'clone');
  await runGit(['clone', '--quiet', '--branch', 'main', server.url('docs'), clone]);
  acts = createGitSyncActivities({
    store,
    config: loadConfig({ DATA_DIR: path.join(work, 'data'), FETCH_ALLOW_HOSTS: LOOPBACK_ALLOW_HOSTS }),
    logger: testLogger('incremental-equivalence'),
  });
}, 120_000);

afterAll(async () => {
  await store?.close();
  await server?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('incremental import and export give what the full ones give', () => {
  it('an incremental import of edits, additions, deletions, a rename, a SUMMARY change and asset changes stores what a cold import stores', async () => {
    const space = await store.spaces.create('org', { title: 'incremental' });
    const first = await acts.gitImportActivity(request(space.id, 'import'));
    expect(first.outcome).toBe('applied');
    const before = await snapshot(first.revisionId!);
    const beforePages = await store.revisions.pages(first.revisionId!);

    const docs = path.join(clone, ROOT);
    const summaryPath = path.join(docs, 'SUMMARY.md');
    let summary = await readFile(summaryPath, 'utf8');
    // Edit a page.
    await writeFile(
      path.join(docs, 'getting-started/quickstart.md'),
      (await readFile(path.join(docs, 'getting-started/quickstart.md'), 'utf8')) + '\nEdited on the remote.\n',
    );
    // Add a page (listed in SUMMARY.md).
    await writeFile(path.join(docs, 'getting-started/new-page.md'), '# A new page\n\nIt links to [the quickstart](quickstart.md).\n');
    summary = summary.replace(
      '* [Quickstart](getting-started/quickstart.md)\n',
      '* [Quickstart](getting-started/quickstart.md)\n* [A new page](getting-started/new-page.md)\n',
    );
    // Delete a page (and its SUMMARY.md entry).
    await rm(path.join(docs, 'getting-started/import.md'));
    summary = summary.replace('* [Migrate to GitBook](getting-started/import.md)\n', '');
    // Rename a page.
    await rename(path.join(docs, 'getting-started/sites-first.md'), path.join(docs, 'getting-started/site-workspace.md'));
    summary = summary.replace('(getting-started/sites-first.md)', '(getting-started/site-workspace.md)');
    // Move unchanged pages under other parents (one keeps its URL path: the SUMMARY groups add no segment; the other
    // does not), relabel another one.
    summary = summary.replace('* [LLM-ready docs](getting-started/llm-ready-docs.md)\n', '');
    summary = summary.replace('## Create content\n\n', '## Create content\n\n* [LLM-ready docs](getting-started/llm-ready-docs.md)\n');
    summary = summary.replace('    * [Tags](create-content/content-structure/page/tags.md)\n', '');
    summary = summary.replace(
      '  * [Markdown](create-content/formatting/markdown.md)\n',
      '  * [Markdown](create-content/formatting/markdown.md)\n  * [Tags](create-content/content-structure/page/tags.md)\n',
    );
    summary = summary.replace('* [Quotes](create-content/blocks/quote.md)', '* [Block quotes](create-content/blocks/quote.md)');
    expect(summary).toContain('  * [Markdown](create-content/formatting/markdown.md)\n  * [Tags]');
    expect(summary).toContain('[Block quotes]');
    expect(summary).toContain('## Create content\n\n* [LLM-ready docs]');
    expect(summary).toContain('getting-started/new-page.md');
    expect(summary).toContain('getting-started/site-workspace.md');
    await writeFile(summaryPath, summary);
    // Change an asset, add another.
    const assets = path.join(docs, '.gitbook/assets');
    const changedAsset = (await readdir(assets)).filter((f) => f.endsWith('.svg')).sort()[0]!;
    await writeFile(path.join(assets, changedAsset), (await readFile(path.join(assets, changedAsset), 'utf8')).replace('<svg', '<svg data-edited="1"'));
    await writeFile(path.join(assets, 'added-by-test.txt'), 'new asset\n');
    await push('edit, add, delete, rename, summary, assets');

    // What the import asks the store to create (the pages and files it marks as copies of the previous revision).
    const inputs: RevisionInput[] = [];
    const create = store.revisions.create;
    store.revisions.create = async (input) => (inputs.push(input), create(input));
    const incremental = await acts.gitImportActivity(request(space.id, 'import')).finally(() => (store.revisions.create = create));
    expect(incremental.outcome).toBe('applied');
    // Only the edited and the added page were read and parsed; every other page was reused.
    expect(incremental.pagesChanged).toBe(2);
    expect(incremental.detail).toMatch(/\d+ reused/);
    // Only the changed and the added asset were read.
    expect(incremental.filesChanged).toBe(2);

    const other = await store.spaces.create('org', { title: 'cold' });
    const cold = await acts.gitImportActivity(request(other.id, 'import'));
    expect(cold.outcome).toBe('applied');
    expect(cold.commit).toBe(incremental.commit);

    const inc = await snapshot(incremental.revisionId!);
    const full = await snapshot(cold.revisionId!);
    expect(inc.records).toEqual(full.records);
    // Most pages and files were copied inside the store; the edited, added and relabelled pages and the changed and
    // added assets were not; the page moved to another group was copied, at its new place.
    expect(inputs).toHaveLength(1);
    expect(inputs[0]!.base).toBe(first.revisionId);
    const sent: PageInput[] = [];
    const parentOf = new Map<string, string | null>();
    const flatten = (list: PageInput[], parent: string | null) =>
      list.forEach((p) => (sent.push(p), parentOf.set(p.id, parent), flatten(p.children ?? [], p.id)));
    flatten(inputs[0]!.pages, null);
    const copied = sent.filter((p) => p.fromBase);
    const notCopied = new Set(sent.filter((p) => !p.fromBase).map((p) => p.id));
    const idOf = (file: string) => inc.ids.get(`page:${ROOT}/${file}`)!;
    expect(copied.length).toBeGreaterThan(sent.length * 0.8);
    for (const f of ['getting-started/quickstart.md', 'getting-started/new-page.md', 'create-content/blocks/quote.md'])
      expect(notCopied.has(idOf(f)), f).toBe(true);
    const moved = idOf('getting-started/llm-ready-docs.md');
    expect(sent.find((p) => p.id === moved)?.fromBase).toBe(true);
    const beforeParent = new Map<string, string | null>();
    const walkBefore = (list: PageRecord[]) => list.forEach((p) => (beforeParent.set(p.id, p.parentId), walkBefore(p.children)));
    walkBefore(beforePages);
    expect(parentOf.get(moved)).not.toBe(beforeParent.get(moved));
    const filesCopied = inputs[0]!.files.filter((f) => f.fromBase);
    expect(filesCopied.length).toBe(inputs[0]!.files.length - 2);
    // Unchanged and edited pages keep their ids, the renamed page too; the deleted one is gone.
    for (const p of ['README.md', 'getting-started/quickstart.md', 'getting-started/llm-ready-docs.md', 'create-content/blocks/README.md'])
      expect(inc.ids.get(`page:${ROOT}/${p}`)).toBe(before.ids.get(`page:${ROOT}/${p}`));
    expect(inc.ids.get(`page:${ROOT}/getting-started/site-workspace.md`)).toBe(before.ids.get(`page:${ROOT}/getting-started/sites-first.md`));
    expect(inc.ids.has(`page:${ROOT}/getting-started/import.md`)).toBe(false);
    expect(inc.ids.get(`file:${ROOT}/.gitbook/assets/${changedAsset}`)).toBe(before.ids.get(`file:${ROOT}/.gitbook/assets/${changedAsset}`));
    // The stored bodies are the files' bytes (reused ones by hash, without reading them).
    const pages = await store.revisions.pages(incremental.revisionId!);
    const flat: PageRecord[] = [];
    const walk = (list: PageRecord[]) => list.forEach((p) => (flat.push(p), walk(p.children)));
    walk(pages);
    for (const p of flat.filter((x) => x.kind === 'document').slice(0, 40)) {
      const file = (p.data as { git: { path: string } }).git.path;
      const body = await store.revisions.pageBody(incremental.revisionId!, p.id);
      expect(Buffer.from(body!).equals(await readFile(path.join(clone, file))), file).toBe(true);
    }
  }, 240_000);

  it('a one-page export commits the tree git builds from the whole checkout with the same edit', async () => {
    const space = await store.spaces.create('org', { title: 'export' });
    await acts.gitImportActivity(request(space.id, 'import'));
    const revA = (await store.spaces.get(space.id))!.revisionId!;
    const loaded = (await loadRevisionModel(store, revA))!;
    const page = flattenPages(loaded.model.pages).find((p) => p.kind === 'document' && p.git?.path === `${ROOT}/create-content/blocks/hint.md`) as DocumentPage;
    expect(page).toBeDefined();
    const edited = `${page.markdown!}\nEdited in Folio.\n`;
    page.markdown = edited;
    const fileBytes = new Map([...loaded.fileHashes].map(([id, hash]) => [id, { hash }]));
    const { id: revB } = await store.revisions.create(modelToRevisionInput(loaded.model, { spaceId: space.id, parents: [revA], type: 'edits', fileBytes }));
    await store.spaces.setPrimaryRevision(space.id, revB, { expected: revA });

    await runGit(['pull', '--quiet', '--ff-only', 'origin', 'main'], { cwd: clone });
    const before = (await runGit(['rev-parse', 'HEAD'], { cwd: clone })).trim();
    const exported = await acts.gitExportActivity(request(space.id, 'export'));
    expect(exported.outcome).toBe('applied');
    expect(exported.filesChanged).toBe(1);

    // git's own tree of the whole checkout with the same edit.
    await writeFile(path.join(clone, ROOT, 'create-content/blocks/hint.md'), edited);
    await runGit(['add', '--all'], { cwd: clone });
    const expected = (await runGit(['write-tree'], { cwd: clone })).trim();
    await runGit(['fetch', '--quiet', 'origin', 'main'], { cwd: clone });
    const [tree, parent] = (await runGit(['log', '-1', '--format=%T %P', 'FETCH_HEAD'], { cwd: clone })).trim().split(' ');
    expect(parent).toBe(before);
    expect(tree).toBe(expected);
    await runGit(['reset', '--quiet', '--hard', 'FETCH_HEAD'], { cwd: clone });
  }, 240_000);
});
