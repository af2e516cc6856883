/**
 * Issue 33, publish on merge: a site with `publishOnNewRevision` (Folio's member of the site body) is published
 * again when a change request of its space is merged; one without the setting is not. The site object shows the
 * last publish run (`folioPublishing.last`: status, trigger, progress, warnings), checked against the spec too.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishWorkflowId, searchIndexWorkflowId } from '../../src/temporal/contract/index.js';
import { sharedFolio, type TestFolio } from '../helpers/folio.js';
import { contractErrors } from '../helpers/openapi-contract.js';
import { corpusTree, importIntoSpace, type ImportedSpace } from './corpus-space.js';

const REPO = 'GitbookIO+git-sync-normalization';
let folio: TestFolio;
let spaceId: string;
let imported: ImportedSpace;

beforeAll(async () => {
  folio = await sharedFolio();
  spaceId = (await folio.store.spaces.create(folio.organizationId, { title: 'Normalization' })).id;
  const { tree, projectDirectory } = await corpusTree(REPO);
  imported = await importIntoSpace(folio.store, spaceId, tree, projectDirectory);
}, 180_000);

afterAll(async () => {
  await folio?.stop();
});

interface Publishing {
  publishOnNewRevision: boolean;
  last: null | {
    status: string;
    trigger: { kind: string; spaceId?: string; revisionId?: string };
    progress: { done: number; total: number } | null;
    warningCount: number;
    warnings: Array<{ code: string; message: string }>;
    publicationId: string | null;
    finishedAt: string | null;
  };
}

async function site(id: string): Promise<Publishing> {
  const path = `/orgs/${folio.organizationId}/sites/${id}`;
  const res = await folio.request('GET', `/v1${path}`);
  expect(res.status).toBe(200);
  expect(contractErrors('GET', path, 200, res.body)).toEqual([]);
  return res.body.folioPublishing as Publishing;
}

/** Merges a change request that rewrites the first page; the merged revision's search indexing has run. */
async function mergeEdit(text: string): Promise<string> {
  const page = imported.revision.pages.find((p) => p.kind === 'document')!;
  const cr = await folio.request('POST', `/v1/spaces/${spaceId}/change-requests`, { subject: text });
  expect(cr.status).toBe(201);
  const edit = await folio.request('POST', `/v1/spaces/${spaceId}/change-requests/${cr.body.id}/content`, {
    changes: [{ operation: 'update_page', page: page.id, document: { markdown: `# ${page.title}\n\n${text}\n` } }],
  });
  expect(edit.status, JSON.stringify(edit.body)).toBeLessThan(300);
  const merged = await folio.request('POST', `/v1/spaces/${spaceId}/change-requests/${cr.body.id}/merge`);
  expect(merged.status, JSON.stringify(merged.body)).toBeLessThan(300);
  const revisionId = (await folio.store.spaces.get(spaceId))!.revisionId!;
  await folio.client.workflow.getHandle(searchIndexWorkflowId(spaceId, revisionId)).result();
  return revisionId;
}

async function until<T>(read: () => Promise<T>, ok: (v: T) => boolean, what: string): Promise<T> {
  for (let i = 0; i < 240; i++) {
    const v = await read();
    if (ok(v)) return v;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`timed out waiting for ${what}`);
}

describe('publish on a new primary revision', () => {
  it('publishes again after a merge only with publishOnNewRevision, and shows the last run on the site', async () => {
    const org = folio.organizationId;
    const created = await folio.request('POST', `/v1/orgs/${org}/sites`, { title: 'Docs', visibility: 'public', spaces: [spaceId] });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const id = created.body.id as string;
    expect(created.body.folioPublishing).toEqual({ publishOnNewRevision: false, last: null });

    expect((await folio.request('POST', `/v1/orgs/${org}/sites/${id}/publish`)).status).toBeLessThan(300);
    await folio.client.workflow.getHandle(publishWorkflowId(id)).result();
    const first = await site(id);
    expect(first.last).toMatchObject({ status: 'succeeded', trigger: { kind: 'request' } });
    expect(first.last!.progress!.total).toBeGreaterThanOrEqual(15);
    expect(first.last!.warningCount).toBe(first.last!.warnings.length > 0 ? first.last!.warningCount : 0);

    // Without the setting, a merge publishes nothing.
    await mergeEdit('Merged without publishing.');
    expect((await site(id)).last!.publicationId).toBe(first.last!.publicationId);

    const patched = await folio.request('PATCH', `/v1/orgs/${org}/sites/${id}`, { publishOnNewRevision: true });
    expect(patched.status).toBe(200);
    expect(contractErrors('PATCH', `/orgs/${org}/sites/${id}`, 200, patched.body)).toEqual([]);
    expect(patched.body.folioPublishing.publishOnNewRevision).toBe(true);

    const revisionId = await mergeEdit('Merged and published.');
    const after = await until(
      () => site(id),
      (s) => s.last?.trigger.kind === 'new-revision' && s.last.status !== 'running',
      'the publish run of the merge',
    );
    expect(after.last).toMatchObject({ status: 'succeeded', trigger: { kind: 'new-revision', spaceId, revisionId } });
    expect(after.last!.publicationId).not.toBe(first.last!.publicationId);
    const basename = created.body.basename as string;
    const home = await fetch(`${folio.baseUrl}/sites/${basename}/`);
    expect(await home.text()).toContain('Merged and published.');
  }, 300_000);
});
