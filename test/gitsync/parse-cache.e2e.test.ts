import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedFolio, type TestFolio } from '../helpers/folio.js';
import { startGitServer, type GitServer } from '../helpers/git-server.js';

/**
 * Issue 17: a cold import of content the store already holds (another space of the organization, from the same
 * commit) takes every page's decoded form from the parse cache instead of parsing it again, and ends with the
 * same content. Another organization shares nothing: its import parses every page.
 */
describe('the parse cache across spaces', () => {
  let folio: TestFolio;
  let server: GitServer;
  let work: string;
  let tokenB: string;
  const ORG_B = 'org-b';

  beforeAll(async () => {
    work = await mkdtemp(path.join(tmpdir(), 'folio-parse-cache-'));
    folio = await sharedFolio({ loopback: true });
    await folio.store.orgs.ensure({ id: ORG_B, title: 'Org B' });
    tokenB = (await folio.store.tokens.create(ORG_B, { label: 'b' })).token;
    server = await startGitServer();
    const src = path.join(work, 'src');
    await mkdir(path.join(src, 'guide'), { recursive: true });
    await writeFile(path.join(src, 'README.md'), '---\ndescription: Start here\n---\n\n# Welcome\n\nRead [the setup](guide/setup.md).\n');
    await writeFile(path.join(src, 'guide', 'setup.md'), '# Setup\n\n| a | b |\n| - | - |\n| 1 | 2 |\n\n{% hint style="info" %}\nHello\n{% endhint %}\n');
    await writeFile(path.join(src, 'guide', 'faq.md'), '---\nicon: question\nhidden: true\n---\n\n# FAQ\n\n- [ ] open\n- [x] done\n');
    await writeFile(path.join(src, 'SUMMARY.md'), '# Table of contents\n\n* [Welcome](README.md)\n* [Setup](guide/setup.md)\n  * [FAQ](guide/faq.md)\n');
    await server.createBareRepo('docs', { fromDir: src, branch: 'main', message: 'docs' });
  });
  afterAll(async () => {
    await folio?.stop();
    await server?.stop();
    if (work) await rm(work, { recursive: true, force: true });
  });

  const as = (token: string) => ({ authorization: `Bearer ${token}` });

  async function createSpace(orgId: string, token: string, title: string): Promise<string> {
    const res = await folio.request('POST', `/v1/orgs/${orgId}/spaces`, { title }, as(token));
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    return res.body.id as string;
  }

  /** Queues an import and waits for its entry in the space's request log (status and message). */
  async function importInto(spaceId: string, token: string): Promise<{ status: string; message?: string }> {
    const timestamp = new Date().toISOString();
    const res = await folio.request('POST', `/v1/spaces/${spaceId}/git/import`, { url: server.url('docs'), ref: 'refs/heads/main', timestamp }, as(token));
    expect(res.status, JSON.stringify(res.body)).toBe(204);
    const deadline = Date.now() + 120_000;
    for (;;) {
      const info = await folio.request('GET', `/v1/spaces/${spaceId}/git/info`, undefined, as(token));
      const mine = (info.body?.requests as Array<{ timestamp: string; status: string; message?: string }> | undefined)?.find(
        (r) => Date.parse(r.timestamp) === Date.parse(timestamp),
      );
      if (mine && mine.status !== 'queued' && mine.status !== 'running') return mine;
      if (Date.now() > deadline) throw new Error(`the import did not finish: ${JSON.stringify(info.body).slice(0, 500)}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }

  /** Every page of the primary revision as the API gives it (ids differ between spaces: left out). */
  async function contentOf(spaceId: string, token: string): Promise<unknown[]> {
    const list = await folio.request('GET', `/v1/spaces/${spaceId}/content/pages`, undefined, as(token));
    expect(list.status).toBe(200);
    const out: unknown[] = [];
    const walk = async (pages: Array<{ id: string; pages?: unknown[] }>) => {
      for (const p of pages) {
        const page = await folio.request('GET', `/v1/spaces/${spaceId}/content/page/${p.id}?format=markdown`, undefined, as(token));
        const { title, description, markdown, hidden, icon, path: pagePath } = page.body as Record<string, unknown>;
        out.push({ title, description, markdown, hidden, icon, path: pagePath });
        if (p.pages) await walk(p.pages as typeof pages);
      }
    };
    await walk(list.body.pages);
    return out;
  }

  it('a second space of the organization imports the same commit from the parse cache, with the same content', async () => {
    const first = await createSpace(folio.organizationId, folio.token, 'first');
    const r1 = await importInto(first, folio.token);
    expect(r1.status).toBe('succeeded');
    expect(r1.message).toMatch(/3 pages \(3 parsed, 0 reused\)/);
    const content = await contentOf(first, folio.token);
    expect(content).toHaveLength(3);
    expect(JSON.stringify(content)).toContain('Start here');

    const second = await createSpace(folio.organizationId, folio.token, 'second');
    const r2 = await importInto(second, folio.token);
    expect(r2.status).toBe('succeeded');
    expect(r2.message).toMatch(/3 pages \(3 parsed of which 3 from the parse cache, 0 reused\)/);
    expect(await contentOf(second, folio.token)).toEqual(content);

    // Another organization shares no cache: its import parses every page.
    const other = await createSpace(ORG_B, tokenB, 'other org');
    const r3 = await importInto(other, tokenB);
    expect(r3.status).toBe('succeeded');
    expect(r3.message).toMatch(/3 pages \(3 parsed, 0 reused\)/);
    expect(await contentOf(other, tokenB)).toEqual(content);
  });
});
