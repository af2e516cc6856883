/**
 * The fetch guard through the HTTP API and `git/info`, on the real dev server and git http-backend: a Folio
 * configured without FETCH_ALLOW_HOSTS refuses an import from http://127.0.0.1:<port> with a typed,
 * non-retryable FETCH_PRIVATE_ADDRESS_DENIED naming the setting, before any request reaches the server, and
 * imports nothing; a Folio with the loopback allowlist imports the same repository.
 */
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFolio, type TestFolio } from '../helpers/folio.js';
import { startGitServer, type GitServer } from '../helpers/git-server.js';
import { LOOPBACK_ALLOW_HOSTS } from '../helpers/loopback-policy.js';
import { waitGitIdle } from '../helpers/git-idle.js';

let work: string;
let server: GitServer;
const folios: TestFolio[] = [];

async function importInto(folio: TestFolio): Promise<{ spaceId: string; initialRevision: string; info: any }> {
  const created = await folio.request('POST', `/v1/orgs/${folio.organizationId}/spaces`, { title: 'Guarded' });
  expect(created.status).toBe(201);
  const spaceId = created.body.id as string;
  const res = await folio.request('POST', `/v1/spaces/${spaceId}/git/import`, {
    url: server.url('docs'),
    ref: 'refs/heads/main',
    timestamp: new Date().toISOString(),
  });
  expect(res.status).toBe(204);
  return { spaceId, initialRevision: created.body.revision as string, info: await waitGitIdle(folio, spaceId) };
}

beforeAll(async () => {
  work = await mkdtemp(path.join(tmpdir(), 'folio-fetch-guard-e2e-'));
  server = await startGitServer();
  const docs = path.join(work, 'docs');
  await mkdir(docs, { recursive: true });
  await writeFile(path.join(docs, 'README.md'), '# Home\n\nGuarded.\n');
  await server.createBareRepo('docs', { fromDir: docs, branch: 'main', message: 'docs' });
});

afterAll(async () => {
  for (const f of folios) await f.stop();
  await server?.stop();
  if (work) await rm(work, { recursive: true, force: true });
});

describe('git import and the fetch guard', () => {
  it('without FETCH_ALLOW_HOSTS: FETCH_PRIVATE_ADDRESS_DENIED in git/info, naming the setting; nothing requested, nothing imported', async () => {
    const folio = await startFolio({ env: { DATA_DIR: path.join(work, 'denied'), FOLIO_VAULT_KEY: 'guard-key' } });
    folios.push(folio);
    const before = server.requests.length;
    const { spaceId, initialRevision, info } = await importInto(folio);
    expect(info.operation).toMatchObject({ state: 'failure', direction: 'import', errorCode: 'FETCH_PRIVATE_ADDRESS_DENIED' });
    expect(info.operation.error).toContain('FETCH_ALLOW_HOSTS');
    expect(server.requests.length).toBe(before);
    // The space keeps the empty revision it was created with: nothing was imported.
    expect((await folio.store.spaces.get(spaceId))!.revisionId).toBe(initialRevision);
    expect((await folio.store.revisions.listForSpace(spaceId, { limit: 10 })).items.map((r) => r.id)).toEqual([initialRevision]);
    expect((await folio.store.gitSync.get(spaceId)).lastImport ?? null).toBeNull();
  });

  it('with FETCH_ALLOW_HOSTS=127.0.0.1,::1 the same import succeeds', async () => {
    const folio = await startFolio({ env: { DATA_DIR: path.join(work, 'allowed'), FOLIO_VAULT_KEY: 'guard-key', FETCH_ALLOW_HOSTS: LOOPBACK_ALLOW_HOSTS } });
    folios.push(folio);
    const { spaceId, initialRevision, info } = await importInto(folio);
    expect(info.operation).toMatchObject({ state: 'success', direction: 'import' });
    expect((await folio.store.spaces.get(spaceId))!.revisionId).not.toBe(initialRevision);
  });
});
