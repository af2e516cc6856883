/**
 * Search end to end: a corpus repository imported by git sync on the real dev server is indexed by the search
 * index workflow the import starts; the space and organization search routes (driven by GitBook's own client)
 * find a phrase of a page inside a group with its section and ancestors, stemmed by the space's language; after
 * an import that changes the page, the old phrase is gone and the new one found. Bodies checked against the spec.
 */
import { appendFile, cp, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { GitBookAPI } from '@gitbook/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { corpusDir } from '../../src/project-root.js';
import { sharedFolio, type TestFolio } from '../helpers/folio.js';
import { runGit, startGitServer, type GitServer } from '../helpers/git-server.js';
import { waitGitIdle } from '../helpers/git-idle.js';
import { assertContract } from '../helpers/openapi-contract.js';

const CORPUS = path.join(corpusDir(), 'GitbookIO+git-sync-normalization');
const PAGE = 'this-is-a-group/this-is-the-second-page-in-a-group.md';
const REF = 'refs/heads/main';

let folio: TestFolio;
let server: GitServer;
let work: string;
let src: string;
let tick = Date.UTC(2025, 5, 1);
const nextTimestamp = () => new Date((tick += 60_000)).toISOString();

async function commit(message: string) {
  await runGit(['add', '-A'], { cwd: src });
  await runGit(['commit', '-q', '-m', message], { cwd: src });
}

async function gitImport(spaceId: string) {
  const res = await folio.request('POST', `/v1/spaces/${spaceId}/git/import`, { url: server.url('docs'), ref: REF, timestamp: nextTimestamp() });
  expect(res.status).toBe(204);
  const info = await waitGitIdle(folio, spaceId, 120_000);
  expect(info.operation).toMatchObject({ state: 'success', direction: 'import' });
}

/** Polls the space search until `check` holds for its items (the index is updated by its own workflow). */
async function searchUntil(spaceId: string, query: string, check: (items: any[]) => boolean): Promise<any[]> {
  const end = Date.now() + 120_000;
  for (;;) {
    const url = `/v1/spaces/${spaceId}/search?query=${encodeURIComponent(query)}`;
    const res = await folio.request('GET', url);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    assertContract('GET', url, 200, res.body);
    if (check(res.body.items)) return res.body.items;
    if (Date.now() > end) throw new Error(`search for ${query} never satisfied the check: ${JSON.stringify(res.body)}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'folio-search-'));
  folio = await sharedFolio({ loopback: true });
  server = await startGitServer();
  src = path.join(work, 'src');
  await cp(CORPUS, src, { recursive: true });
  await appendFile(path.join(src, PAGE), '\n## Keeping the lighthouse\n\nThe keeper was running the quarterly lantern inspection at dusk.\n');
  await runGit(['init', '-q', '-b', 'main'], { cwd: src });
  await commit('corpus');
  await server.createBareRepo('docs', { fromDir: src, branch: 'main' });
});

afterAll(async () => {
  await folio?.stop();
  await server?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('search end to end', () => {
  it('finds a phrase of a page in a group after a git import, and follows the next import', async () => {
    const api = new GitBookAPI({ authToken: folio.token, endpoint: folio.baseUrl });
    const { data: space } = await api.orgs.createSpace(folio.organizationId, { title: 'Searchable', language: 'en' } as never);
    expect((await folio.store.spaces.get(space.id))?.language).toBe('en');
    await gitImport(space.id);

    const items = await searchUntil(space.id, '"lantern inspection"', (found) => found.length > 0);
    expect(items).toHaveLength(1);
    const hit = items[0];
    expect(hit).toMatchObject({
      id: expect.any(String),
      title: 'This is the second page in a group',
      description: 'This is an optional description for the page.',
      path: 'this-is-the-second-page-in-a-group',
      rank: 1,
      resultType: 'section',
      ancestors: [{ title: 'This is a group' }],
    });
    expect(hit.score).toBeGreaterThan(0);
    expect(hit.sections[0]).toMatchObject({
      title: 'Keeping the lighthouse',
      path: 'this-is-the-second-page-in-a-group#keeping-the-lighthouse',
      resultType: 'section',
    });
    expect(hit.sections[0].body).toContain('<mark>lantern</mark> <mark>inspection</mark>');
    expect(hit.sections[0].urls.app).toMatch(/#keeping-the-lighthouse$/);

    // English stemming: "run" finds "running"; a tab's text is indexed, and so is a code block's.
    expect((await searchUntil(space.id, 'run', (f) => f.length > 0)).map((p: any) => p.title)).toContain('This is the second page in a group');
    expect((await searchUntil(space.id, 'second tab', (f) => f.length > 0)).map((p: any) => p.title)).toContain('Tabs');
    const code = await readFile(path.join(CORPUS, 'code-block.md'), 'utf8');
    expect(code).toContain('greeting("Anna")');
    expect((await searchUntil(space.id, 'Anna', (f) => f.length > 0)).map((p: any) => p.title)).toContain('Code block');

    // The official client, on both routes.
    const { data: viaClient } = await api.spaces.searchSpaceContent(space.id, { query: 'lighthouse keeper' });
    expect(viaClient.items.map((p) => p.id)).toEqual([hit.id]);
    const orgUrl = `/v1/orgs/${folio.organizationId}/search?query=${encodeURIComponent('lantern')}`;
    const org = await folio.request('GET', orgUrl);
    assertContract('GET', orgUrl, 200, org.body);
    expect(org.body.items).toMatchObject([{ type: 'space', id: space.id, title: 'Searchable', pages: [{ id: hit.id, rank: 1 }] }]);
    const { data: orgClient } = await api.orgs.searchOrganizationContent(folio.organizationId, { query: 'lantern' });
    expect(orgClient.items.map((s) => s.id)).toEqual([space.id]);

    // A site of that space: its search finds the page; a site of another space does not.
    const site = await folio.request('POST', `/v1/orgs/${folio.organizationId}/sites`, { title: 'Docs site', spaces: [space.id] });
    expect(site.status, JSON.stringify(site.body)).toBe(201);
    const siteUrl = `/v1/orgs/${folio.organizationId}/sites/${site.body.id}/search`;
    const siteHits = await folio.request('POST', siteUrl, { query: 'lantern' });
    assertContract('POST', siteUrl, 200, siteHits.body);
    expect(siteHits.body.items).toMatchObject([{ type: 'space', id: space.id, pages: [{ id: hit.id }] }]);
    const other = (await api.orgs.createSpace(folio.organizationId, { title: 'Elsewhere' } as never)).data;
    const otherSite = await folio.request('POST', `/v1/orgs/${folio.organizationId}/sites`, { title: 'Other site', spaces: [other.id] });
    expect((await folio.request('POST', `/v1/orgs/${folio.organizationId}/sites/${otherSite.body.id}/search`, { query: 'lantern' })).body.items).toEqual([]);

    // A second import changes the phrase: the old one is gone, the new one found; other pages kept their rows.
    const file = path.join(src, PAGE);
    await writeFile(file, (await readFile(file, 'utf8')).replace('lantern inspection', 'beacon calibration'));
    await commit('new phrase');
    await runGit(['push', '-q', server.url('docs'), 'main'], { cwd: src });
    await gitImport(space.id);
    await searchUntil(space.id, '"beacon calibration"', (found) => found.length === 1 && found[0].id === hit.id);
    expect(await searchUntil(space.id, '"lantern inspection"', () => true)).toEqual([]);

    // A change-request merge is indexed too.
    const cr = await folio.request('POST', `/v1/spaces/${space.id}/change-requests`, { subject: 'Foghorn' });
    expect(cr.status, JSON.stringify(cr.body)).toBeLessThan(300);
    const markdown = '# This is the second page in a group\n\n## Keeping the lighthouse\n\nThe keeper tuned the foghorn.\n';
    const edit = await folio.request('POST', `/v1/spaces/${space.id}/change-requests/${cr.body.id}/content`, {
      changes: [{ operation: 'update_page', page: hit.id, document: { markdown } }],
    });
    expect(edit.status, JSON.stringify(edit.body)).toBeLessThan(300);
    const merged = await folio.request('POST', `/v1/spaces/${space.id}/change-requests/${cr.body.id}/merge`);
    expect(merged.status, JSON.stringify(merged.body)).toBe(200);
    await searchUntil(space.id, 'foghorn', (found) => found.length === 1 && found[0].sections[0]?.title === 'Keeping the lighthouse');
    expect(await searchUntil(space.id, '"beacon calibration"', () => true)).toEqual([]);

    // Errors: no query, an empty one.
    expect((await folio.request('GET', `/v1/spaces/${space.id}/search`)).status).toBe(400);
    expect((await folio.request('GET', `/v1/spaces/${space.id}/search?query=`)).status).toBe(400);

    // A deleted space is not found any more.
    expect((await folio.request('DELETE', `/v1/spaces/${space.id}`)).status).toBeLessThan(300);
    const after = await folio.request('GET', `/v1/orgs/${folio.organizationId}/search?query=beacon`);
    expect(after.body.items).toEqual([]);
  });
});
