import { mkdtemp, readFile, readdir, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { GitBookAPI } from '@gitbook/api';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as check from '../../src/cli/commands/check.js';
import { projectRoot } from '../../src/project-root.js';
import { lastJson, runCommand } from '../cli/run-command.js';
import { sharedFolio, type TestFolio } from '../helpers/folio.js';
import { waitGitIdle } from '../helpers/git-idle.js';
import { runGit, startGitServer, type GitServer } from '../helpers/git-server.js';
import { assertContract, assertSchema } from '../helpers/openapi-contract.js';

/**
 * Templates end to end (real Temporal, real git server): every built-in template applied to an empty space, to a
 * space with content and to a change request; the results pass `folio check` and export to git with no warnings; the
 * API-reference template creates and processes its OpenAPI spec; retries do not apply twice; organization templates.
 */
const BUILTINS = ['api-reference', 'changelog', 'handbook', 'knowledge-base', 'product-docs', 'runbook'];
const PASSWORD = 'tpl-secret';
let folio: TestFolio;
let server: GitServer;
let work: string;
let tick = Date.UTC(2026, 0, 1);

async function call(method: string, p: string, body?: unknown, status = 200) {
  const res = await folio.request(method, p, body);
  expect(res.status, `${method} ${p}: ${JSON.stringify(res.body)}`).toBe(status);
  if (status < 300 && res.body !== undefined && res.body !== '') assertContract(method, p, status, res.body);
  return res.body;
}
const newSpace = async (title = 'Space') => (await call('POST', `/v1/orgs/${folio.organizationId}/spaces`, { title }, 201)).id as string;
const apply = (spaceId: string, body: Record<string, unknown>) => folio.request('POST', `/v1/spaces/${spaceId}/content/template`, body);
async function applied(spaceId: string, body: Record<string, unknown>): Promise<void> {
  const res = await apply(spaceId, body);
  expect(res.status, JSON.stringify(res.body)).toBe(201);
}
const pages = async (spaceId: string, cr?: string) => (await call('GET', `/v1/spaces/${spaceId}${cr ? `/change-requests/${cr}` : ''}/content`)).pages as Page[];
interface Page {
  id: string;
  title: string;
  slug: string;
  path: string;
  pages?: Page[];
}
const titles = (list: Page[]) => list.map((p) => p.title);

/** The titles of a template's top-level pages, from its SUMMARY.md: its top-level links, and a group per `## section`. */
async function templateRootTitles(id: string): Promise<string[]> {
  const summary = await readFile(path.join(projectRoot(), 'templates', id, 'SUMMARY.md'), 'utf8');
  const out: string[] = [];
  let inSection = false;
  for (const line of summary.split('\n')) {
    const section = /^## (.+)$/.exec(line);
    if (section) {
      out.push(section[1]!.trim());
      inSection = true;
    }
    const m = /^\* \[([^\]]+)\]\(([^)]+)\)/.exec(line);
    if (m && !inSection) out.push(m[1]!);
  }
  return out;
}

/** A space with content of its own, imported from git: "Alpha", and a page with the title the template's first page has. */
let seeds = 0;
async function seeded(clashTitle: string): Promise<{ spaceId: string; before: Page[] }> {
  const spaceId = await newSpace('Seeded');
  const src = await mkdtemp(path.join(work, 'seed-'));
  await writeFile(path.join(src, 'README.md'), '# Alpha\n\nOur own page.\n');
  await writeFile(path.join(src, 'ours.md'), `# ${clashTitle}\n\nOur own page with the same title.\n`);
  await writeFile(path.join(src, 'SUMMARY.md'), `# Table of contents\n\n* [Alpha](README.md)\n* [${clashTitle}](ours.md)\n`);
  const repo = `seed-${++seeds}`;
  await server.createBareRepo(repo, { fromDir: src, branch: 'main', message: 'seed' });
  const res = await folio.request('POST', `/v1/spaces/${spaceId}/git/import`, {
    url: server.authedUrl(repo),
    ref: 'refs/heads/main',
    timestamp: new Date((tick += 60_000)).toISOString(),
  });
  expect(res.status).toBe(204);
  expect((await waitGitIdle(folio, spaceId)).operation).toMatchObject({ state: 'success' });
  return { spaceId, before: await pages(spaceId) };
}

async function markdown(spaceId: string, pageId: string): Promise<string> {
  return (await call('GET', `/v1/spaces/${spaceId}/content/page/${pageId}?format=markdown`)).markdown;
}

/** Exports the space to a new repository, clones it, runs `folio check` on the clone; returns the clone. */
async function exportAndCheck(spaceId: string, repo: string): Promise<string> {
  await server.createBareRepo(repo);
  const res = await folio.request('POST', `/v1/spaces/${spaceId}/git/export`, {
    url: server.authedUrl(repo),
    ref: 'refs/heads/main',
    timestamp: new Date((tick += 60_000)).toISOString(),
    commitMessage: 'Template',
  });
  expect(res.status).toBe(204);
  const info = await waitGitIdle(folio, spaceId);
  expect(info.operation, JSON.stringify(info.operation)).toMatchObject({ state: 'success', direction: 'export' });
  expect(info.operation.warnings ?? [], `${repo}: export warnings ${JSON.stringify(info.operation.warnings)}`).toEqual([]);
  const dir = await mkdtemp(path.join(work, `clone-${repo}-`));
  await runGit(['clone', '-q', '--branch', 'main', server.authedUrl(repo), dir]);
  const checked = await runCommand(check, [dir, '--json']);
  expect(checked.code, `${repo}: folio check\n${checked.stdout}\n${checked.stderr}`).toBe(0);
  expect(lastJson(checked.stdout), `${repo}: ${checked.stdout}`).toMatchObject({ errors: 0, warnings: 0, unlisted: 0 });
  return dir;
}

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'folio-templates-'));
  folio = await sharedFolio({ loopback: true });
  server = await startGitServer({ auth: { username: 'folio', password: PASSWORD } });
});

afterAll(async () => {
  await folio?.stop();
  await server?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('templates', () => {
  /** The template routes are Folio's additions (the spec has no such path): their items are checked against `SpaceTemplate`. */
  const catalog = async () => {
    const res = await folio.request('GET', `/v1/orgs/${folio.organizationId}/templates`);
    expect(res.status).toBe(200);
    return res.body as { items: Array<Record<string, any>> };
  };

  it('lists the built-in catalog as official SpaceTemplate objects, with previews', async () => {
    const list = await catalog();
    expect(list.items.map((t: { id: string }) => t.id)).toEqual(BUILTINS);
    for (const t of list.items) assertSchema('SpaceTemplate', t);
    const api = list.items.find((t: { id: string }) => t.id === 'api-reference');
    expect(api.openAPISpec).toMatchObject({ slug: 'orders-api', sourceURL: expect.stringMatching(/^http/) });
    const svg = await folio.request('GET', new URL(api.previewImage.dark).pathname + new URL(api.previewImage.dark).search);
    expect(svg.status).toBe(200);
    expect(svg.headers.get('content-type')).toContain('image/svg+xml');
    expect(String(svg.body)).toContain('API reference');
    const outline = await folio.request('GET', new URL(api.urls.preview).pathname);
    expect(outline.status).toBe(200);
    expect(String(outline.body)).toContain('* Authentication');
  });

  for (const id of BUILTINS) {
    it(`${id}: applies to an empty space, a space with content and a change request; folio check and git export are clean`, async () => {
      const rootTitles = await templateRootTitles(id);
      // An empty space: the template becomes the content, its tree as it is.
      const empty = await newSpace(`Empty ${id}`);
      await applied(empty, { id });
      const fresh = await pages(empty);
      expect(titles(fresh)).toEqual(rootTitles);
      const clone = await exportAndCheck(empty, `${id}-empty`);
      const source = path.join(projectRoot(), 'templates', id);
      // The exported tree is the template's (its manifest aside).
      const files = async (dir: string, base = dir): Promise<string[]> =>
        (await readdir(dir, { withFileTypes: true }))
          .filter((e) => e.name !== '.git' && e.name !== 'template.yaml')
          .flatMap((e) => (e.isDirectory() ? [] : [path.relative(base, path.join(dir, e.name))]))
          .concat(
            ...(await Promise.all(
              (await readdir(dir, { withFileTypes: true })).filter((e) => e.isDirectory() && e.name !== '.git').map((e) => files(path.join(dir, e.name), base)),
            )),
          );
      expect((await files(clone)).sort()).toEqual((await files(source)).sort());

      // A space with content: its pages stay first and unchanged, the template's come after, slugs unique.
      const firstTitle = fresh[0]!.title;
      const { spaceId, before } = await seeded(firstTitle);
      const beforeBodies = await Promise.all(before.map((p) => markdown(spaceId, p.id)));
      await applied(spaceId, { id });
      const after = await pages(spaceId);
      expect(after.slice(0, before.length).map((p) => [p.id, p.title, p.slug])).toEqual(before.map((p) => [p.id, p.title, p.slug]));
      expect(await Promise.all(before.map((p) => markdown(spaceId, p.id)))).toEqual(beforeBodies);
      expect(titles(after.slice(before.length))).toEqual(titles(fresh));
      const slugs = after.map((p) => p.slug);
      expect(new Set(slugs).size, JSON.stringify(slugs)).toBe(slugs.length);
      await exportAndCheck(spaceId, `${id}-seeded`);

      // A change request: the template goes there, the primary content does not change.
      const cr = (await call('POST', `/v1/spaces/${spaceId}/change-requests`, { subject: `Add ${id}` }, 201)).id;
      await applied(spaceId, { id, changeRequestId: cr });
      expect(titles(await pages(spaceId))).toEqual(titles(after));
      const inCr = await pages(spaceId, cr);
      expect(inCr.length).toBe(after.length + fresh.length);
    }, 240_000);
  }

  it('the API-reference template creates its OpenAPI spec through the pipeline, and its pages reference real operations', async () => {
    const spaceId = await newSpace('API');
    await applied(spaceId, { id: 'api-reference' });
    const spec = await call('GET', `/v1/orgs/${folio.organizationId}/openapi/orders-api`);
    expect(spec).toMatchObject({ slug: 'orders-api' });
    const content = await call('GET', `/v1/orgs/${folio.organizationId}/openapi/orders-api/versions/latest/content`);
    const operations = new Set<string>();
    for (const [p, ops] of Object.entries(content.dereferenced?.paths ?? content.paths ?? JSON.parse(JSON.stringify(content)).paths ?? {}))
      for (const m of Object.keys(ops as object)) operations.add(`${m.toUpperCase()} ${p}`);
    const reference = (await pages(spaceId)).flatMap((p) => [p, ...(p.pages ?? [])]).find((p) => p.title === 'Orders')!;
    const md = await markdown(spaceId, reference.id);
    const blocks = [...md.matchAll(/\{% openapi-operation spec="([^"]+)" path="([^"]+)" method="([^"]+)" %\}/g)];
    expect(blocks.length).toBe(4);
    for (const [, slug, p, m] of blocks) {
      expect(slug).toBe('orders-api');
      if (operations.size) expect(operations, `${m} ${p}`).toContain(`${m!.toUpperCase()} ${p}`);
    }
    // A second application leaves the organization's spec as it is (never overwritten).
    const other = await newSpace('API 2');
    await applied(other, { id: 'api-reference' });
    expect((await call('GET', `/v1/orgs/${folio.organizationId}/openapi/orders-api`)).id).toBe(spec.id);
  }, 120_000);

  it('a retried request does not add the pages twice; an explicit Idempotency-Key applies again', async () => {
    const spaceId = await newSpace('Retry');
    const [a, b] = await Promise.all([apply(spaceId, { id: 'runbook' }), apply(spaceId, { id: 'runbook' })]);
    expect([a.status, b.status]).toEqual([201, 201]);
    await applied(spaceId, { id: 'runbook' });
    const once = await pages(spaceId);
    expect(titles(once)).toEqual(await templateRootTitles('runbook'));
    const again = await folio.request('POST', `/v1/spaces/${spaceId}/content/template`, { id: 'runbook' }, { 'idempotency-key': 'second copy' });
    expect(again.status).toBe(201);
    const twice = await pages(spaceId);
    expect(titles(twice)).toEqual([...titles(once), ...titles(once)]);
    expect(new Set(twice.map((p) => p.slug)).size).toBe(twice.length);
  }, 120_000);

  it('contentRefs replace a placeholder with a file of the space; bad requests are 4xx and change nothing', async () => {
    const spaceId = await newSpace('Logo');
    const cr = (await call('POST', `/v1/spaces/${spaceId}/change-requests`, { subject: 'logo' }, 201)).id;
    const logo = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><text>ACME</text></svg>');
    const inserted = await call('POST', `/v1/spaces/${spaceId}/change-requests/${cr}/content?compat=false`, {
      changes: [{ operation: 'insert_files', files: [{ name: 'acme.svg', contentType: 'image/svg+xml', base64: logo.toString('base64') }] }],
    });
    await call('POST', `/v1/spaces/${spaceId}/change-requests/${cr}/merge`);
    const fileId = inserted.insertedFiles[0].id;
    expect((await apply(spaceId, { id: 'product-docs', params: { contentRefs: { banner: { kind: 'file', file: fileId } } } })).status).toBe(400);
    expect((await apply(spaceId, { id: 'product-docs', params: { contentRefs: { logo: { kind: 'file', file: 'nope' } } } })).status).toBe(400);
    expect((await apply(spaceId, { id: 'no-such-template' })).status).toBe(404);
    expect((await apply(spaceId, { id: 'product-docs', changeRequestId: 'nope' })).status).toBe(404);
    expect((await apply(spaceId, {})).status).toBe(400);
    expect(titles(await pages(spaceId))).toEqual([]);
    await applied(spaceId, { id: 'product-docs', params: { contentRefs: { logo: { kind: 'file', file: fileId } } } });
    const files = (await call('GET', `/v1/spaces/${spaceId}/content/files`)).items as Array<{ id: string; name: string; downloadURL: string }>;
    const templateLogo = files.find((f) => f.name.startsWith('logo'))!;
    const served = await folio.request('GET', new URL(templateLogo.downloadURL).pathname);
    expect(served.status).toBe(200);
    expect(String(served.body)).toBe(logo.toString());
  }, 120_000);

  it('a locked space is 403; another organization gets 404 and nothing changes', async () => {
    const locked = await newSpace('Locked');
    await call('PATCH', `/v1/spaces/${locked}`, { editMode: 'locked' });
    expect((await apply(locked, { id: 'runbook' })).status).toBe(403);
    expect(await pages(locked)).toEqual([]);
  });

  it('a space marked as a template is listed for its organization and applies like a built-in', async () => {
    const source = await newSpace('Team playbook');
    await applied(source, { id: 'handbook' });
    await call('PATCH', `/v1/spaces/${source}`, { template: { subtitle: 'How our team works', features: ['Onboarding'] } });
    const list = (await catalog()).items as Array<{ id: string; title: string; subtitle: string }>;
    const mine = list.find((t) => t.id === `space:${source}`)!;
    expect(mine).toMatchObject({ title: 'Team playbook', subtitle: 'How our team works' });
    assertSchema('SpaceTemplate', mine);
    const target = await newSpace('From playbook');
    await applied(target, { id: mine.id });
    expect(titles(await pages(target))).toEqual(titles(await pages(source)));
    await call('PATCH', `/v1/spaces/${source}`, { template: false });
    expect((await apply(target, { id: mine.id })).status).toBe(404);
  }, 120_000);

  it('the official client applies a template', async () => {
    const spaceId = await newSpace('Client');
    const api = new GitBookAPI({ endpoint: folio.baseUrl, authToken: folio.token });
    const res = await api.spaces.applyTemplateToSpace(spaceId, { id: 'changelog' });
    expect(res.status).toBe(201);
    expect(titles(await pages(spaceId))).toEqual(await templateRootTitles('changelog'));
  }, 60_000);
});
