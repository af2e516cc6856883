import { access, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spaceCacheDir } from '../../src/git/index.js';
import { LOOPBACK_ALLOW_HOSTS } from '../helpers/loopback-policy.js';
import { startFolio, type TestFolio } from '../helpers/folio.js';
import { runGit, startGitServer, type GitServer } from '../helpers/git-server.js';
import { startLyingGitServer, type LyingGitServer } from '../helpers/lying-git-server.js';

/**
 * Issue 10, item 1: `repoCacheID` comes from the request body. Org A imports its private repository with some
 * repoCacheID; org B, knowing that id, imports from its own server with it. B's own content must be imported
 * correctly, and a server of B's that advertises A's commit with an empty pack (the client, holding A's
 * objects in a shared cache, would send A's commit as a `have` and accept it) must get B none of A's pages.
 */
describe('git caches are scoped by organization and space', () => {
  let folio: TestFolio;
  let serverA: GitServer;
  let serverB: GitServer;
  let lying: LyingGitServer;
  let work: string;
  let tokenB: string;
  let commitA: string;
  const ORG_B = 'org-b';
  const CACHE_ID = 'shared-cache-id';
  const SECRET = 'A-ONLY-SECRET-7f3c';

  beforeAll(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'folio-tenant-cache-'));
    // The lying server's import fails OBJECT_NOT_FOUND, a retryable error: its 6 attempts back off from 100 ms
    // (about 3 s in all) instead of the production 2 s (about a minute).
    folio = await startFolio({
      env: {
        DATA_DIR: path.join(work, 'data'),
        FOLIO_VAULT_KEY: 'tenant-cache-test-key',
        FETCH_ALLOW_HOSTS: LOOPBACK_ALLOW_HOSTS,
        FOLIO_GIT_RETRY_INITIAL_MS: '100',
      },
    });
    await folio.store.orgs.ensure({ id: ORG_B, title: 'Org B' });
    tokenB = (await folio.store.tokens.create(ORG_B, { label: 'b' })).token;
    [serverA, serverB, lying] = await Promise.all([startGitServer(), startGitServer(), startLyingGitServer()]);
    const srcA = path.join(work, 'a');
    await mkdir(srcA, { recursive: true });
    await writeFile(path.join(srcA, 'README.md'), `# Secret plans\n\n${SECRET}\n`);
    await writeFile(path.join(srcA, 'roadmap.md'), `# Private roadmap\n\n${SECRET} roadmap.\n`);
    await writeFile(path.join(srcA, 'SUMMARY.md'), '# Table of contents\n\n* [Secret plans](README.md)\n* [Private roadmap](roadmap.md)\n');
    const dirA = await serverA.createBareRepo('private', { fromDir: srcA, branch: 'main', message: 'private docs of A' });
    commitA = (await runGit(['--git-dir', dirA, 'rev-parse', 'refs/heads/main'])).trim();
    const srcB = path.join(work, 'b');
    await mkdir(srcB, { recursive: true });
    await writeFile(path.join(srcB, 'README.md'), '# Handbook of B\n\nWelcome to B.\n');
    await writeFile(path.join(srcB, 'SUMMARY.md'), '# Table of contents\n\n* [Handbook of B](README.md)\n');
    await serverB.createBareRepo('mine', { fromDir: srcB, branch: 'main', message: 'docs of B' });
  });
  afterAll(async () => {
    await folio?.stop();
    await Promise.all([serverA?.stop(), serverB?.stop(), lying?.stop()]);
    if (work) await rm(work, { recursive: true, force: true });
  });

  const as = (token: string) => ({ authorization: `Bearer ${token}` });

  async function createSpace(orgId: string, token: string, title: string): Promise<string> {
    const res = await folio.request('POST', `/v1/orgs/${orgId}/spaces`, { title }, as(token));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.id as string;
  }

  /** Queues an import and waits for its outcome in the space's request log; returns the final status and code. */
  async function importInto(spaceId: string, token: string, url: string): Promise<{ status: string; code?: string }> {
    const timestamp = new Date().toISOString();
    const res = await folio.request('POST', `/v1/spaces/${spaceId}/git/import`, { url, ref: 'refs/heads/main', timestamp, repoCacheID: CACHE_ID }, as(token));
    expect(res.status, JSON.stringify(res.body)).toBe(204);
    const deadline = Date.now() + 120_000;
    for (;;) {
      const info = await folio.request('GET', `/v1/spaces/${spaceId}/git/info`, undefined, as(token));
      const mine = (info.body?.requests as Array<{ timestamp: string; status: string; code?: string }> | undefined)?.find(
        (r) => Date.parse(r.timestamp) === Date.parse(timestamp),
      );
      if (mine && mine.status !== 'queued' && mine.status !== 'running') return mine;
      if (Date.now() > deadline) throw new Error(`the import did not finish: ${JSON.stringify(info.body).slice(0, 500)}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  /** Titles and markdown of every page of the space's primary revision, read through the API. */
  async function contentOf(spaceId: string, token: string): Promise<{ titles: string[]; text: string }> {
    const list = await folio.request('GET', `/v1/spaces/${spaceId}/content/pages`, undefined, as(token));
    if (list.status === 404) return { titles: [], text: '' };
    expect(list.status).toBe(200);
    const flat: Array<{ id: string; title: string }> = [];
    const walk = (pages: Array<{ id: string; title: string; pages?: unknown[] }>) => {
      for (const p of pages) {
        flat.push(p);
        if (p.pages) walk(p.pages as typeof pages);
      }
    };
    walk(list.body.pages);
    let text = '';
    for (const p of flat) {
      const page = await folio.request('GET', `/v1/spaces/${spaceId}/content/page/${p.id}?format=markdown`, undefined, as(token));
      text += `${page.body.markdown ?? ''}\n`;
    }
    return { titles: flat.map((p) => p.title), text };
  }

  it("org B importing with org A's repoCacheID gets its own content and none of A's", async () => {
    // A cache of the pre-tenant layout (shared by every space naming it) is removed before the first git operation.
    const legacy = path.join(folio.config.dataDir, 'git-cache', `id-${CACHE_ID}`);
    await mkdir(legacy, { recursive: true });
    await writeFile(path.join(legacy, 'config'), '[core]\n\tbare = true\n');
    const spaceA = await createSpace(folio.organizationId, folio.token, 'A private');
    expect(await importInto(spaceA, folio.token, serverA.url('private'))).toMatchObject({ status: 'succeeded' });
    expect((await contentOf(spaceA, folio.token)).text).toContain(SECRET);

    await expect(access(legacy)).rejects.toThrow();

    const spaceB = await createSpace(ORG_B, tokenB, 'B docs');
    // B's own repository, through the same repoCacheID: imported exactly.
    expect(await importInto(spaceB, tokenB, serverB.url('mine'))).toMatchObject({ status: 'succeeded' });
    const own = await contentOf(spaceB, tokenB);
    expect(own.titles).toEqual(['Handbook of B']);
    expect(own.text).toContain('Welcome to B.');
    expect(own.text).not.toContain(SECRET);

    // B's server claims A's commit and sends no objects: B holds nothing of A to accept it from.
    lying.advertise(commitA);
    const attack = await importInto(spaceB, tokenB, lying.url('steal'));
    const after = await contentOf(spaceB, tokenB);
    expect(after.titles).toEqual(['Handbook of B']);
    expect(after.text).not.toContain(SECRET);
    expect(attack).toMatchObject({ status: 'failed', code: 'OBJECT_NOT_FOUND' });
    for (const r of (await folio.store.revisions.listForSpace(spaceB, { limit: 100 })).items) expect(r.git?.oid).not.toBe(commitA);

    // On disk: each space's caches live under its own organization and space.
    const root = path.join(folio.config.dataDir, 'git-cache');
    await access(path.join(spaceCacheDir(root, { organizationId: folio.organizationId, spaceId: spaceA }), `id-${CACHE_ID}`, 'config'));
    await access(path.join(spaceCacheDir(root, { organizationId: ORG_B, spaceId: spaceB }), `id-${CACHE_ID}`, 'config'));
  });
});
