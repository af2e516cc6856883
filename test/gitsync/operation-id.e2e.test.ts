/**
 * Issue 30 (honest states): a git import answers 204 as the official spec says, with the header
 * `X-Folio-Operation-Id`: the id of the workflow that runs it (started by the space's queue when the request's turn
 * comes), which the client follows in Temporal to its end.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFolio, type TestFolio } from '../helpers/folio.js';
import { startGitServer, type GitServer } from '../helpers/git-server.js';
import { LOOPBACK_ALLOW_HOSTS } from '../helpers/loopback-policy.js';

describe('a git import request names the operation it queued', () => {
  const work = mkdtempSync(path.join(os.tmpdir(), 'folio-opid-'));
  let folio: TestFolio;
  let git: GitServer;

  beforeAll(async () => {
    git = await startGitServer();
    writeFileSync(path.join(work, 'README.md'), '# Hello\n\nA page.\n');
    await git.createBareRepo('docs', { fromDir: work });
    folio = await startFolio({ env: { FETCH_ALLOW_HOSTS: LOOPBACK_ALLOW_HOSTS } });
  });

  afterAll(async () => {
    await folio?.stop();
    await git?.stop();
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
});
