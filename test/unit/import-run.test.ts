/**
 * An import run's phases (src/webimport/run/) without Temporal: a file import run on a test store with a plain
 * control (what activities/content-import.ts gives them from the activity's context) stores its revision and makes
 * it the space's; a control that says the run was cancelled stops the build before anything reaches the space; a
 * locked space and an unknown run are the run's typed errors (the activity maps them to ApplicationFailures).
 */
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config/config.js';
import { ParsePool } from '../../src/parse-threads/pool.js';
import type { Store } from '../../src/store/index.js';
import type { ContentImportProgress } from '../../src/temporal/contract/index.js';
import { WebImportCancelledError } from '../../src/webimport/errors.js';
import type { ImportRunControl } from '../../src/webimport/run/control.js';
import type { ImportRunDeps } from '../../src/webimport/run/context.js';
import { runImportCrawl } from '../../src/webimport/run/crawl.js';
import { runImportBuild } from '../../src/webimport/run/run.js';
import { createTestStore } from '../helpers/store.js';

let store: Store;
let pool: ParsePool;
let dataDir: string;
let deps: ImportRunDeps;

beforeAll(async () => {
  store = await createTestStore();
  await store.orgs.ensure({ id: 'org', title: 'Org' });
  pool = new ParsePool({ threads: 1 });
  dataDir = await mkdtemp(path.join(os.tmpdir(), 'folio-import-run-'));
  deps = { store, config: loadConfig({ DATA_DIR: dataDir }), parsePool: () => pool };
});

afterAll(async () => {
  await pool?.close();
  await store?.close();
  if (dataDir) await rm(dataDir, { recursive: true, force: true });
});

/** A control as the activity's reporter is one, recording what it was told; `cancelled`: the run was cancelled. */
function control(cancelled = false): ImportRunControl & { phases: string[] } {
  const current = { phase: 'converting' } as ContentImportProgress;
  const phases: string[] = [];
  return {
    current,
    phases,
    signal: undefined,
    update(p) {
      Object.assign(current, p);
      if (phases.at(-1) !== current.phase) phases.push(current.phase);
    },
    async assertNotCancelled(operation) {
      if (cancelled) throw new WebImportCancelledError(operation);
    },
    async flush() {},
  };
}

/** A space and a file import run of one uploaded markdown page into it. */
async function fileRun(title: string, options: { locked?: boolean } = {}) {
  const space = await store.spaces.create('org', { title });
  if (options.locked) await store.spaces.update(space.id, { editMode: 'locked' });
  const bytes = new TextEncoder().encode(`# ${title}\n\nImported from a file.\n`);
  const key = `upload-${space.id}`;
  await store.uploads.create({
    key,
    organizationId: 'org',
    kind: 'import_file',
    name: 'page.md',
    contentType: 'text/markdown',
    size: bytes.length,
    tokenHash: `hash-${key}`,
    expiresAt: new Date(Date.now() + 3_600_000),
  });
  await store.uploads.complete(key, bytes);
  const run = await store.imports.create({ organizationId: 'org', spaceId: space.id, source: { type: 'file', files: [key] } });
  return { space, ref: { runId: run.id, organizationId: 'org' } };
}

describe('an import run without Temporal (src/webimport/run/)', () => {
  it('a file run checks its uploads, stores its revision and makes it the space primary one', async () => {
    const { space, ref } = await fileRun('Imported');
    expect(await runImportCrawl(deps, ref, control())).toMatchObject({ pages: 1, assets: 0, warnings: 0 });
    const progress = control();
    const built = await runImportBuild(deps, ref, progress);
    expect(built).toMatchObject({ pages: 1, importedResources: 1, totalResources: 1 });
    expect(progress.phases).toEqual(['converting', 'storing']);
    expect((await store.spaces.get(space.id))!.revisionId).toBe(built.revisionId);
    expect((await store.imports.get('org', ref.runId))!.revisionId).toBe(built.revisionId);
    // A retry of the build finds its revision: the same one, nothing stored twice.
    expect((await runImportBuild(deps, ref, control())).revisionId).toBe(built.revisionId);
  });

  it('a cancel seen before storing stops the build: nothing reaches the space', async () => {
    const { space, ref } = await fileRun('Cancelled');
    await expect(runImportBuild(deps, ref, control(true))).rejects.toMatchObject({ code: 'WEBIMPORT_CANCELLED' });
    expect((await store.spaces.get(space.id))!.revisionId).toBeNull();
    expect((await store.revisions.listForSpace(space.id, { limit: 10 })).items).toEqual([]);
  });

  it('a locked space and an unknown run are typed errors', async () => {
    const { ref } = await fileRun('Locked', { locked: true });
    await expect(runImportBuild(deps, ref, control())).rejects.toMatchObject({ code: 'LOCKED', retryable: false });
    await expect(runImportBuild(deps, { runId: 'nope', organizationId: 'org' }, control())).rejects.toMatchObject({
      code: 'NOT_FOUND',
      message: 'import run not found: nope',
    });
  });
});
