/**
 * Git sync end to end: the API, the queue and child workflows on the real dev server, isomorphic-git against
 * a real `git http-backend` server on loopback with basic auth, the converter on a corpus repository, the store.
 */
import { cp, mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OperationAttribute, OrganizationIdAttribute, SpaceIdAttribute, workflowIds } from '../../src/temporal/contract/index.js';
import { gitProgressQuery } from '../../workflows/git-definitions.js';
import { corpusDir } from '../../src/project-root.js';
import { rawSql } from '../../src/store/raw-sql.js';
import { sharedFolio, type TestFolio } from '../helpers/folio.js';
import { runGit, startGitServer, type GitServer } from '../helpers/git-server.js';
import { startHoldingProxy, type HoldingProxy } from './holding-proxy.js';
import { waitGitIdle } from '../helpers/git-idle.js';

const CORPUS = path.join(corpusDir(), 'GitbookIO+git-sync-normalization');
const PASSWORD = 'Sup3r-s3cret-pw';
const REF = 'refs/heads/main';

let folio: TestFolio;
let server: GitServer;
let proxy: HoldingProxy;
let work: string;
let tick = Date.UTC(2025, 5, 1);
const nextTimestamp = () => new Date((tick += 60_000)).toISOString();

async function listFiles(dir: string, base = dir): Promise<string[]> {
  const out: string[] = [];
  for (const e of await readdir(dir, { withFileTypes: true })) {
    if (e.name === '.git') continue;
    const p = path.join(dir, e.name);
    if (e.isDirectory()) out.push(...(await listFiles(p, base)));
    else out.push(path.relative(base, p));
  }
  return out.sort();
}

async function newSpace(): Promise<string> {
  const created = await folio.request('POST', `/v1/orgs/${folio.organizationId}/spaces`, { title: 'Git' });
  expect(created.status).toBe(201);
  return created.body.id;
}

const waitIdle = (spaceId: string, timeoutMs = 90_000) => waitGitIdle(folio, spaceId, timeoutMs);

async function gitImport(spaceId: string, repo: string, extra: Record<string, unknown> = {}) {
  const res = await folio.request('POST', `/v1/spaces/${spaceId}/git/import`, { url: server.authedUrl(repo), ref: REF, timestamp: nextTimestamp(), ...extra });
  expect(res.status).toBe(204);
  return waitIdle(spaceId);
}

async function gitExport(spaceId: string, repo: string, extra: Record<string, unknown> = {}) {
  const res = await folio.request('POST', `/v1/spaces/${spaceId}/git/export`, {
    url: server.authedUrl(repo),
    ref: REF,
    timestamp: nextTimestamp(),
    commitMessage: 'Update from Folio',
    ...extra,
  });
  expect(res.status).toBe(204);
  return waitIdle(spaceId);
}

async function clone(repo: string): Promise<string> {
  const dir = await mkdtemp(path.join(work, `clone-${repo}-`));
  await runGit(['clone', '-q', '--branch', 'main', server.authedUrl(repo), dir]);
  return dir;
}

/** The repository paths the revision holds: pages, files (assets, includes), the table of contents and `.gitbook.yaml`. */
async function heldPaths(revisionId: string): Promise<string[]> {
  const { loadRevisionModel, flattenPages } = await import('../../src/revision/records.js');
  const { model } = (await loadRevisionModel(folio.store, revisionId))!;
  const paths = new Set<string>();
  for (const p of flattenPages(model.pages)) if ((p as { git?: { path: string } }).git) paths.add((p as { git: { path: string } }).git.path);
  for (const f of model.files) if (f.git) paths.add(f.git.path);
  if (model.summary.git) paths.add(model.summary.git.path);
  if (model.config.configPath && model.config.configText !== undefined) paths.add(model.config.configPath);
  return [...paths].sort();
}

/**
 * Import `corpus` (with its project directory), export the space to a new empty repository, `git clone` it with
 * the git CLI: the clone holds exactly the files the space holds (assets included), byte for byte equal to the
 * corpus, and `git fsck` is clean. Corpus files the space does not hold can only be pages outside the table of
 * contents or dotfiles other than `.gitbook.yaml` (written into a new repository): never an asset. Returns the space.
 */
async function roundTrip(corpus: string): Promise<{ spaceId: string; dir: string; cloned: string[] }> {
  const source = path.join(corpusDir(), corpus);
  const root = (await readFile(`${source}.source`, 'utf8')).match(/^root:\s*(.*)$/m)?.[1]?.trim() ?? '.';
  const repoProjectDirectory = root === '.' ? '' : root.replace(/^\.\//, '').replace(/\/$/, '');
  const name = corpus.replace(/[^A-Za-z0-9._-]/g, '_');
  const src = path.join(work, `src-${name}`);
  await cp(source, src, { recursive: true });
  await server.createBareRepo(name, { fromDir: src, branch: 'main', message: 'corpus' });
  await server.createBareRepo(`${name}-empty`);
  const spaceId = await newSpace();
  const info = await gitImport(spaceId, name, { repoProjectDirectory });
  expect(info.operation, corpus).toMatchObject({ state: 'success', direction: 'import' });
  const revisionId = (await folio.store.spaces.get(spaceId))!.revisionId!;
  const exported = await gitExport(spaceId, `${name}-empty`, { repoProjectDirectory });
  expect(exported.operation, corpus).toMatchObject({ state: 'success', direction: 'export' });
  const dir = await clone(`${name}-empty`);
  const cloned = await listFiles(dir);
  const corpusFiles = await listFiles(source);
  const held = await heldPaths(revisionId);
  expect(held.length, corpus).toBeGreaterThan(0);
  expect(cloned, corpus).toEqual(held);
  for (const f of cloned) expect(await readFile(path.join(dir, f)), `${corpus}: ${f}`).toEqual(await readFile(path.join(source, f)));
  const notHeld = corpusFiles.filter((f) => !held.includes(f));
  for (const f of notHeld) expect(f.endsWith('.md') || path.basename(f).startsWith('.'), `${corpus}: ${f} is not in the export`).toBe(true);
  // The space's .gitbook.yaml (root, structure, redirects) is in the new repository, byte for byte.
  const projectConfig = path.posix.join(repoProjectDirectory, '.gitbook.yaml');
  if (corpusFiles.includes(projectConfig)) expect(cloned, `${corpus}: ${projectConfig}`).toContain(projectConfig);
  // Every asset of the corpus is in the export.
  for (const f of corpusFiles.filter((c) => c.includes('.gitbook/assets/'))) expect(cloned, `${corpus}: asset ${f}`).toContain(f);
  await runGit(['fsck', '--full', '--strict'], { cwd: dir });
  return { spaceId, dir, cloned };
}

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'folio-gitsync-'));
  folio = await sharedFolio({ loopback: true });
  server = await startGitServer({ auth: { username: 'folio', password: PASSWORD } });
  proxy = await startHoldingProxy(server.port);
  const src = path.join(work, 'src');
  await cp(CORPUS, src, { recursive: true });
  await server.createBareRepo('docs', { fromDir: src, branch: 'main', message: 'corpus' });
});

afterAll(async () => {
  await folio?.stop();
  await proxy?.stop();
  await server?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('git sync end to end', () => {
  it('validates requests: 400 on a bad body, 404 for an unknown space', async () => {
    const spaceId = await newSpace();
    const bad = await folio.request('POST', `/v1/spaces/${spaceId}/git/import`, { url: 'ftp://x/y', ref: REF });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ error: { code: 400 } });
    expect((await folio.request('POST', `/v1/spaces/${spaceId}/git/import`, { url: server.url('docs'), ref: 'main' })).status).toBe(400);
    expect((await folio.request('POST', `/v1/spaces/${spaceId}/git/export`, { url: server.url('docs'), ref: REF })).status).toBe(400);
    expect((await folio.request('POST', `/v1/spaces/nope/git/import`, { url: server.url('docs'), ref: REF })).status).toBe(404);
    // A space that never asked for a sync has no Git info: 404, as the official spec says.
    const never = await folio.request('GET', `/v1/spaces/${spaceId}/git/info`);
    expect(never.status).toBe(404);
    expect(never.body).toMatchObject({ error: { code: 404 } });
  });

  it('imports a corpus repository, exports it to a new empty repository: git clone gives identical files, fsck is clean; credentials leave no trace', async () => {
    const { spaceId, dir, cloned } = await roundTrip('GitbookIO+git-sync-normalization');
    expect(cloned).toEqual(await listFiles(CORPUS));
    const rev = await folio.store.revisions.get((await folio.store.spaces.get(spaceId))!.revisionId!);
    expect(rev?.type).toBe('git-import');
    expect(rev?.git?.url).toBe(server.url('GitbookIO_git-sync-normalization'));
    expect(rev!.pageCount).toBeGreaterThanOrEqual(19);

    // Import of the same commit again: no-op (loop protection), no new revision.
    const again = await gitImport(spaceId, 'GitbookIO_git-sync-normalization');
    expect(again.operation.state).toBe('success');
    expect((await folio.store.spaces.get(spaceId))!.revisionId).toBe(rev!.id);

    const log = await runGit(['log', '-1', '--format=%B'], { cwd: dir });
    expect(log).toContain('Update from Folio');
    expect(log).toContain('Folio-Revision:');

    // The import that follows Folio's own export is a no-op.
    const back = await gitImport(spaceId, 'GitbookIO_git-sync-normalization-empty');
    expect(back.operation.state).toBe('success');
    expect((await folio.store.spaces.get(spaceId))!.revisionId).toBe(rev!.id);

    // No trace of the password in any workflow history, memo or search attribute of this space, nor in git/info.
    let histories = 0;
    for await (const wf of folio.client.workflow.list({ query: `SpaceId = '${spaceId}'` })) {
      const handle = folio.client.workflow.getHandle(wf.workflowId, wf.runId);
      const history = await handle.fetchHistory();
      const text = JSON.stringify(history) + JSON.stringify(wf.memo ?? {}) + JSON.stringify(wf.searchAttributes ?? {});
      expect(text).not.toContain(PASSWORD);
      expect(text).not.toContain(Buffer.from(PASSWORD).toString('base64'));
      histories++;
    }
    expect(histories).toBeGreaterThanOrEqual(4);
    const children = await folio.client.workflow.getHandle(workflowIds.gitQueue(spaceId)).fetchHistory();
    expect(JSON.stringify(children)).not.toContain(PASSWORD);
    expect(JSON.stringify(back)).not.toContain(PASSWORD);
    // Each succeeded request's sealed credentials are forgotten once it completed (the workflow does it after the activity).
    const sealed = async () =>
      Number((await rawSql(folio.store).query<{ n: string | number }>('SELECT count(*) AS n FROM vault_secrets WHERE space_id = $1', [spaceId]))[0]!.n);
    const until = Date.now() + 15_000;
    while ((await sealed()) > 0 && Date.now() < until) await new Promise((r) => setTimeout(r, 100));
    expect(await sealed()).toBe(0);
  });

  it.each(['stacks-network+docs', 'BlockRazorinc+docs_en'])(
    'round trip of %s (import → export to a new empty repository → git clone): the same files, assets included; fsck clean',
    async (corpus) => {
      const { cloned } = await roundTrip(corpus);
      expect(cloned.length).toBeGreaterThan(50);
    },
    180_000,
  );

  it('operators see an import: search attributes, memo without credentials, static summary, live progress in a query and the current details', async () => {
    await server.createBareRepo('ops', { fromDir: path.join(work, 'src'), branch: 'main', message: 'corpus' });
    const viaProxy = proxy.url('ops', { username: 'folio', password: PASSWORD });
    const spaceId = await newSpace();
    const timestamp = nextTimestamp();
    const held = proxy.holdNext();
    const res = await folio.request('POST', `/v1/spaces/${spaceId}/git/import`, { url: viaProxy, ref: REF, timestamp });
    expect(res.status).toBe(204);
    await held; // the import is running, waiting for the pack
    const running = await folio.request('GET', `/v1/spaces/${spaceId}/git/info`);
    const requestId = running.body.operation.requestId as string;
    const handle = folio.client.workflow.getHandle(workflowIds.gitImport(spaceId, requestId));
    const metadata = async () => (await handle.query<{ currentDetails?: string }>('__temporal_workflow_metadata')).currentDetails ?? '';
    // Live: the activity reported its first phase (signal → query and current details).
    const live = await (async () => {
      const end = Date.now() + 30_000;
      for (;;) {
        const p = await handle.query(gitProgressQuery);
        if (p) return p;
        if (Date.now() > end) throw new Error('no progress while running');
        await new Promise((r) => setTimeout(r, 200));
      }
    })();
    expect(live.phase).toBeTruthy();
    expect(await metadata()).toContain(`**${live.phase}**`);
    proxy.release('forward');
    const info = await waitIdle(spaceId);
    expect(info.operation).toMatchObject({ state: 'success', requestId });

    const desc = await handle.describe();
    expect(desc.typedSearchAttributes.get(SpaceIdAttribute)).toBe(spaceId);
    expect(desc.typedSearchAttributes.get(OrganizationIdAttribute)).toBe(folio.organizationId);
    expect(desc.typedSearchAttributes.get(OperationAttribute)).toBe('git-import');
    expect(desc.memo).toMatchObject({ requestId, ref: REF, timestamp, url: proxy.url('ops'), direction: 'import' });
    const summary = await desc.staticSummary();
    expect(summary).toContain('Git import');
    expect(summary).toContain(spaceId);
    expect(summary).toContain(proxy.url('ops'));
    // Found by the operators' query too.
    const found: string[] = [];
    for await (const wf of folio.client.workflow.list({
      query: `SpaceId = '${spaceId}' AND Operation = 'git-import' AND OrganizationId = '${folio.organizationId}'`,
    }))
      found.push(wf.workflowId);
    expect(found).toContain(handle.workflowId);
    // The final progress: files read and pages parsed, in the query and in the current details of the run.
    const final = await handle.query(gitProgressQuery);
    expect(final?.filesRead).toBeGreaterThan(0);
    expect(final?.pagesParsed).toBeGreaterThan(0);
    expect(await metadata()).toMatch(/\*\*applied\*\*/);
    const text = JSON.stringify(desc.memo) + (summary ?? '') + JSON.stringify(final);
    expect(text).not.toContain(PASSWORD);
  });

  it("import A, push B with the git CLI, import B: only B's pages change and page ids stay", async () => {
    const spaceId = await newSpace();
    await gitImport(spaceId, 'docs');
    const revA = (await folio.store.spaces.get(spaceId))!.revisionId!;
    const dir = await clone('docs');
    const page = path.join(dir, 'quote.md');
    await writeFile(page, (await readFile(page, 'utf8')) + '\nA new paragraph pushed with the git CLI.\n');
    await runGit(['commit', '-qam', 'edit quote'], { cwd: dir });
    await runGit(['push', '-q', 'origin', 'main'], { cwd: dir });
    const info = await gitImport(spaceId, 'docs');
    expect(info.operation.state).toBe('success');
    const revB = (await folio.store.spaces.get(spaceId))!.revisionId!;
    expect(revB).not.toBe(revA);
    const flat = async (rev: string) => {
      const out = new Map<string, { path: string | null; bodyHash: string | null }>();
      const walk = (ps: any[]) => ps.forEach((p) => (out.set(p.id, { path: p.path, bodyHash: p.bodyHash }), walk(p.children)));
      walk(await folio.store.revisions.pages(rev));
      return out;
    };
    const [a, b] = await Promise.all([flat(revA), flat(revB)]);
    expect([...b.keys()].sort()).toEqual([...a.keys()].sort());
    const changed = [...b].filter(([id, v]) => a.get(id)!.bodyHash !== v.bodyHash).map(([id]) => id);
    expect(changed).toHaveLength(1);
    expect((await folio.store.revisions.pageBody(revB, changed[0]!))!.toString()).toBeDefined();
    expect(new TextDecoder().decode((await folio.store.revisions.pageBody(revB, changed[0]!))!)).toContain('pushed with the git CLI');
  });

  it('import, edit in Folio, export with no remote change: the remote gets exactly the edit; exporting again is a no-op', async () => {
    await server.createBareRepo('plain', { fromDir: path.join(work, 'src'), branch: 'main', message: 'corpus' });
    const spaceId = await newSpace();
    await gitImport(spaceId, 'plain');
    const revA = (await folio.store.spaces.get(spaceId))!.revisionId!;
    const { loadRevisionModel, modelToRevisionInput, flattenPages } = await import('../../src/revision/records.js');
    const loaded = (await loadRevisionModel(folio.store, revA))!;
    const quote = flattenPages(loaded.model.pages).find((p: any) => p.git?.path === 'quote.md') as any;
    quote.markdown += '\nEdited in Folio only.\n';
    const fileBytes = new Map<string, { hash: string }>([...loaded.fileHashes].map(([id, hash]) => [id, { hash }]));
    const { id: edited } = await folio.store.revisions.create(modelToRevisionInput(loaded.model, { spaceId, parents: [revA], type: 'edits', fileBytes }));
    await folio.store.spaces.setPrimaryRevision(spaceId, edited, { expected: revA });
    const before = await clone('plain');
    const headBefore = (await runGit(['rev-parse', 'HEAD'], { cwd: before })).trim();

    const info = await gitExport(spaceId, 'plain');
    expect(info.operation).toMatchObject({ state: 'success', direction: 'export' });
    const after = await clone('plain');
    expect((await runGit(['rev-parse', 'HEAD~1'], { cwd: after })).trim()).toBe(headBefore);
    expect((await runGit(['diff', '--name-only', 'HEAD~1', 'HEAD'], { cwd: after })).trim().split('\n')).toEqual(['quote.md']);
    expect(await readFile(path.join(after, 'quote.md'), 'utf8')).toContain('Edited in Folio only.');

    await gitExport(spaceId, 'plain');
    const again = await clone('plain');
    expect((await runGit(['rev-parse', 'HEAD'], { cwd: again })).trim()).toBe((await runGit(['rev-parse', 'HEAD'], { cwd: after })).trim());
  });

  it('an export racing a remote push (landing while the export pushes) ends in CONFLICT naming the file and loses neither side; force proceeds', async () => {
    await server.createBareRepo('race', { fromDir: path.join(work, 'src'), branch: 'main', message: 'corpus' });
    // Folio talks to the repository through the holding proxy (import and export: same URL, same sync marks).
    const viaProxy = proxy.url('race', { username: 'folio', password: PASSWORD });
    const spaceId = await newSpace();
    await gitImport(spaceId, 'race', { url: viaProxy });
    const revA = (await folio.store.spaces.get(spaceId))!.revisionId!;
    // A Folio-side edit of quote.md: a new revision made primary.
    const { loadRevisionModel, modelToRevisionInput, flattenPages } = await import('../../src/revision/records.js');
    const loaded = (await loadRevisionModel(folio.store, revA))!;
    const quote = flattenPages(loaded.model.pages).find((p: any) => p.git?.path === 'quote.md') as any;
    quote.markdown += '\nEdited in Folio.\n';
    const fileBytes = new Map<string, { hash: string }>([...loaded.fileHashes].map(([id, hash]) => [id, { hash }]));
    const { id: edited } = await folio.store.revisions.create(modelToRevisionInput(loaded.model, { spaceId, parents: [revA], type: 'edits', fileBytes }));
    await folio.store.spaces.setPrimaryRevision(spaceId, edited, { expected: revA });
    const folioQuoteBefore = new TextDecoder().decode((await folio.store.revisions.pageBody(edited, quote.id))!);

    // The export fetches the remote head and builds its commit on it; its push request is held at the proxy.
    const held = proxy.holdNext('git-receive-pack');
    const res = await folio.request('POST', `/v1/spaces/${spaceId}/git/export`, {
      url: viaProxy,
      ref: REF,
      timestamp: nextTimestamp(),
      commitMessage: 'Update from Folio',
    });
    expect(res.status).toBe(204);
    await held;
    // Meanwhile someone pushes a change to the same file (straight to the server), then the export's push goes on.
    const dir = await clone('race');
    await writeFile(path.join(dir, 'quote.md'), (await readFile(path.join(dir, 'quote.md'), 'utf8')) + '\nEdited on the remote.\n');
    await runGit(['commit', '-qam', 'remote edit'], { cwd: dir });
    await runGit(['push', '-q', 'origin', 'main'], { cwd: dir });
    const remoteHead = (await runGit(['rev-parse', 'HEAD'], { cwd: dir })).trim();
    proxy.release('forward');

    const info = await waitIdle(spaceId);
    expect(info.operation).toMatchObject({ state: 'failure', direction: 'export', errorCode: 'CONFLICT' });
    expect(info.operation.error).toContain('quote.md');
    // The path taken: the push was rejected (the branch moved), the retry fetched again and found the conflict.
    const history = await folio.client.workflow.getHandle(workflowIds.gitExport(spaceId, info.operation.requestId)).fetchHistory();
    const exportStarted = (history.events ?? [])
      .filter((e) => e.activityTaskStartedEventAttributes)
      .map((e) => e.activityTaskStartedEventAttributes!)
      .find((a) => (a.attempt ?? 1) >= 2);
    expect(exportStarted?.lastFailure?.applicationFailureInfo?.type).toBe('NON_FAST_FORWARD');
    // Neither side lost: the remote commit is the branch head, Folio's content is unchanged.
    const after = await clone('race');
    expect((await runGit(['rev-parse', 'HEAD'], { cwd: after })).trim()).toBe(remoteHead);
    expect(await readFile(path.join(after, 'quote.md'), 'utf8')).toContain('Edited on the remote.');
    expect(await readFile(path.join(after, 'quote.md'), 'utf8')).not.toContain('Edited in Folio.');
    expect((await folio.store.spaces.get(spaceId))!.revisionId).toBe(edited);
    expect(new TextDecoder().decode((await folio.store.revisions.pageBody(edited, quote.id))!)).toBe(folioQuoteBefore);

    const forced = await gitExport(spaceId, 'race', { url: viaProxy, force: true });
    expect(forced.operation.state).toBe('success');
    const final = await clone('race');
    // The remote commit is kept in history (no force-push); Folio's version of the file wins.
    expect((await runGit(['rev-parse', 'HEAD~1'], { cwd: final })).trim()).toBe(remoteHead);
    expect(await readFile(path.join(final, 'quote.md'), 'utf8')).toContain('Edited in Folio.');
  });
});
