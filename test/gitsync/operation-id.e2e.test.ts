/**
 * Issue 30 (honest states): a git import answers 204 as the official spec says, with the header
 * `X-Folio-Operation-Id`: the id of the workflow that runs it (started by the space's queue when the request's turn
 * comes), which the client follows in Temporal to its end. A site's publish and an import run name theirs too.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sharedFolio, type TestFolio } from '../helpers/folio.js';
import { startGitServer, type GitServer } from '../helpers/git-server.js';
import { serveDirectory, type StaticSite } from '../helpers/static-site.js';

describe('a git import request names the operation it queued', () => {
  const work = mkdtempSync(path.join(os.tmpdir(), 'folio-opid-'));
  let folio: TestFolio;
  let git: GitServer;
  let site: StaticSite;

  beforeAll(async () => {
    git = await startGitServer();
    writeFileSync(path.join(work, 'README.md'), '# Hello\n\nA page.\n');
    await git.createBareRepo('docs', { fromDir: work });
    writeFileSync(
      path.join(work, 'index.html'),
      '<!doctype html><html><head><title>Home</title></head><body><main><h1>Home</h1><p>A page.</p></main></body></html>',
    );
    site = await serveDirectory(work);
    folio = await sharedFolio({ loopback: true });
  });

  afterAll(async () => {
    await folio?.stop();
    await git?.stop();
    await site?.stop();
    rmSync(work, { recursive: true, force: true });
  });

  it('answers 204 with X-Folio-Operation-Id, the workflow that runs the request, followed to COMPLETED', async () => {
    const space = (await folio.request('POST', `/v1/orgs/${folio.organizationId}/spaces`, { title: 'Op id' })).body;
    const res = await folio.request('POST', `/v1/spaces/${space.id}/git/import`, { url: git.url('docs'), ref: 'refs/heads/main' });
    expect(res.status).toBe(204);
    const operationId = res.headers.get('x-folio-operation-id');
    expect(operationId).toMatch(new RegExp(`^space/${space.id}/git-import/[^/]+$`));
    // The space's queue starts that workflow when the request's turn comes: the id names it before it exists.
    const handle = folio.client.workflow.getHandle(operationId!);
    const deadline = Date.now() + 60_000;
    while (
      !(await handle.describe().then(
        () => true,
        () => false,
      ))
    ) {
      if (Date.now() > deadline) throw new Error(`${operationId} was never started`);
      await new Promise((r) => setTimeout(r, 200));
    }
    await handle.result();
    expect((await handle.describe()).status.name).toBe('COMPLETED');
    const info = (await folio.request('GET', `/v1/spaces/${space.id}/git/info`)).body;
    expect(operationId!.endsWith(`/${info.requests[0].requestId}`)).toBe(true);
  });

  it("a site publish answers 200 with X-Folio-Operation-Id, the site's publish workflow", async () => {
    const space = (await folio.request('POST', `/v1/orgs/${folio.organizationId}/spaces`, { title: 'Published' })).body;
    const created = await folio.request('POST', `/v1/orgs/${folio.organizationId}/sites`, { title: 'Op site', visibility: 'public', spaces: [space.id] });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const res = await folio.request('POST', `/v1/orgs/${folio.organizationId}/sites/${created.body.id}/publish`);
    expect(res.status, JSON.stringify(res.body)).toBe(200);
    const operationId = res.headers.get('x-folio-operation-id');
    expect(operationId).toBe(`site/${created.body.id}/publish`);
    // Signalled-with-start: the workflow exists once the request is answered.
    expect((await folio.client.workflow.getHandle(operationId!).describe()).type).toBe('publishSiteWorkflow');
  });

  it("an import run answers 201 with X-Folio-Operation-Id, the run's workflow, followed to COMPLETED", async () => {
    const space = (await folio.request('POST', `/v1/orgs/${folio.organizationId}/spaces`, { title: 'Imported' })).body;
    const res = await folio.request('POST', `/v1/org/${folio.organizationId}/imports`, {
      source: { type: 'website', url: `${site.base}/index.html` },
      target: { space: space.id },
    });
    expect(res.status, JSON.stringify(res.body)).toBe(201);
    const operationId = res.headers.get('x-folio-operation-id');
    expect(operationId).toBe(`org/${folio.organizationId}/import/${res.body.id}`);
    const handle = folio.client.workflow.getHandle(operationId!);
    await handle.result();
    expect((await handle.describe()).status.name).toBe('COMPLETED');
  });
});
