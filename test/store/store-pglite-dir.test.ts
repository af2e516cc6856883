import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/index.js';
import { defineStoreSuite } from './store-suite.js';

const root = await mkdtemp(path.join(os.tmpdir(), 'folio-store-'));
const dataDir = path.join(root, 'pglite');
const blobDir = path.join(root, 'blobs');

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

const facts = defineStoreSuite('store on PGlite (data directory, directory blobs)', {
  open: () => openStore({ dataDir, blobs: { kind: 'directory', dir: blobDir } }),
  blobDir,
});

// Runs after the suite closed its store: reopening the same directory finds everything.
describe('PGlite data directory', () => {
  it('keeps everything across a reopen and does not migrate twice', async () => {
    expect(facts.token && facts.revisionId && facts.spaceId).toBeTruthy();
    const store = await openStore({ dataDir, blobs: { kind: 'directory', dir: blobDir } });
    try {
      expect(await store.migrate()).toEqual({ applied: [] });
      expect(await store.tokens.verify(facts.token!)).toEqual({ orgId: facts.orgId, tokenId: expect.any(String), scope: 'write', userId: null });
      expect((await store.spaces.get(facts.spaceId!))!.revisionId).toBe(facts.revisionId);
      expect(new TextDecoder().decode((await store.revisions.pageBody(facts.revisionId!, 'install'))!)).toBe('# Install');
      expect((await store.revisions.fileBytes(facts.revisionId!, 'img1'))!.byteLength).toBeGreaterThan(0);
    } finally {
      await store.close();
    }
    await expect(store.health()).rejects.toMatchObject({ code: 'STORE_UNAVAILABLE' });
  });
});
