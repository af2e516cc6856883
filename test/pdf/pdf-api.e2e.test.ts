/**
 * Issue 33, PDF export through the API and Temporal: `GET /v1/spaces/{id}/pdf` and the change-request variant answer
 * the official shape `{ url }` (checked against the spec); the URL serves the PDF the `space/<id>/pdf/…` workflow
 * printed (pdftotext finds every page title, in order); asking again reuses the export; a failed print is failed in
 * Temporal and answered by the URL with its code.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { planSections } from '../../src/pdf/sections.js';
import { ensurePackages } from '../../src/system-packages.js';
import { pdfExportWorkflowId } from '../../src/temporal/contract/index.js';
import { sharedFolio, startFolio, type TestFolio } from '../helpers/folio.js';
import { contractErrors } from '../helpers/openapi-contract.js';
import { corpusTree, importIntoSpace, type ImportedSpace } from '../publish/corpus-space.js';

const REPO = 'GitbookIO+git-sync-normalization';
let folio: TestFolio;
let spaceId: string;
let imported: ImportedSpace;

beforeAll(async () => {
  ensurePackages(['chromium', 'poppler']);
  folio = await sharedFolio();
  spaceId = (await folio.store.spaces.create(folio.organizationId, { title: 'Normalization' })).id;
  const { tree, projectDirectory } = await corpusTree(REPO);
  imported = await importIntoSpace(folio.store, spaceId, tree, projectDirectory);
}, 180_000);

afterAll(async () => {
  await folio?.stop();
});

/** GET a pdf route: 200 `{ url }` in the spec's shape. */
async function pdfUrl(f: TestFolio, path: string): Promise<string> {
  const res = await f.request('GET', `/v1${path}`);
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  expect(contractErrors('GET', path.split('?')[0]!, 200, res.body)).toEqual([]);
  expect(res.body.url).toMatch(new RegExp(`^${f.baseUrl}/pdf-exports/[A-Za-z0-9_-]{43}$`));
  return res.body.url as string;
}

/** The download URL's answer once it is no longer 202 (it waits itself; 202 asks to come back). */
async function download(url: string): Promise<Response> {
  for (let i = 0; i < 60; i++) {
    const res = await fetch(url);
    if (res.status !== 202) return res;
    expect(res.headers.get('retry-after')).toBe('5');
    await res.arrayBuffer();
  }
  throw new Error('the export was still printing after 60 answers');
}

const squash = (s: string) => s.replace(/\s+/g, ' ').trim();
const pdfText = (pdf: Uint8Array) => squash(execFileSync('pdftotext', ['-', '-'], { input: pdf, maxBuffer: 64 << 20 }).toString('utf8'));

function inOrder(text: string, titles: string[]): void {
  let pos = 0;
  for (const title of titles) {
    const at = text.indexOf(squash(title), pos);
    expect(at, `"${title}" after position ${pos}`).toBeGreaterThanOrEqual(0);
    pos = at + 1;
  }
}

describe('PDF export routes', () => {
  it('prints a space: { url } as the spec says, the URL serves the PDF, asking again reuses the export', async () => {
    const url = await pdfUrl(folio, `/spaces/${spaceId}/pdf`);
    const res = await download(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="Normalization.pdf"');
    const pdf = new Uint8Array(await res.arrayBuffer());
    const titles = planSections(imported.revision.pages, { pageId: null, only: false }).map((s) => s.page.title);
    inOrder(pdfText(pdf), titles);

    const again = await pdfUrl(folio, `/spaces/${spaceId}/pdf`);
    expect(again).not.toBe(url);
    const second = await fetch(again);
    expect(second.status).toBe(200);
    expect(new Uint8Array(await second.arrayBuffer())).toEqual(pdf);
  }, 300_000);

  it('prints one page alone, and a change request with its subject', async () => {
    const first = planSections(imported.revision.pages, { pageId: null, only: false })[0]!.page;
    const only = await download(await pdfUrl(folio, `/spaces/${spaceId}/pdf?page=${first.id}&only=true`));
    expect(only.status).toBe(200);
    const text = pdfText(new Uint8Array(await only.arrayBuffer()));
    expect(text).toContain(squash(first.title));
    expect(text).not.toContain('This is the second page in a group');

    const cr = await folio.request('POST', `/v1/spaces/${spaceId}/change-requests`, { subject: 'Reword the intro' });
    expect(cr.status, JSON.stringify(cr.body)).toBe(201);
    const crPdf = await download(await pdfUrl(folio, `/spaces/${spaceId}/change-requests/${cr.body.id}/pdf`));
    expect(crPdf.status).toBe(200);
    expect(pdfText(new Uint8Array(await crPdf.arrayBuffer()))).toContain(`Change request #${cr.body.number}: Reword the intro`);
  }, 300_000);

  it('answers bad requests, unknown pages and unknown URLs with their errors', async () => {
    const noPage = await folio.request('GET', `/v1/spaces/${spaceId}/pdf?only=true`);
    expect(noPage.status).toBe(400);
    const unknownPage = await folio.request('GET', `/v1/spaces/${spaceId}/pdf?page=nope`);
    expect(unknownPage.status).toBe(404);
    const empty = (await folio.store.spaces.create(folio.organizationId, { title: 'Empty' })).id;
    const nothing = await folio.request('GET', `/v1/spaces/${empty}/pdf`);
    expect(nothing.status).toBe(422);
    expect(nothing.body.error.message).toMatch(/nothing to print/);
    const unknown = await fetch(`${folio.baseUrl}/pdf-exports/${'A'.repeat(43)}`);
    expect(unknown.status).toBe(404);
  });
});

describe('a PDF export that cannot print', () => {
  let broken: TestFolio;
  beforeAll(async () => {
    broken = await startFolio({ env: { FOLIO_CHROMIUM_PATH: '/nonexistent/chromium' } });
  });
  afterAll(async () => {
    await broken?.stop();
  });

  it('fails in Temporal and the URL answers the failure with its code', async () => {
    const space = (await broken.store.spaces.create(broken.organizationId, { title: 'Broken' })).id;
    const { tree, projectDirectory } = await corpusTree(REPO);
    await importIntoSpace(broken.store, space, tree, projectDirectory);
    const url = await pdfUrl(broken, `/spaces/${space}/pdf`);
    const res = await download(url);
    expect(res.status).toBe(422);
    const body = (await res.json()) as { error: { message: string } };
    expect(body.error.message).toMatch(/PDF export failed \(PDF_BROWSER_UNAVAILABLE\): chromium could not be started/);
    const token = url.slice(url.lastIndexOf('/') + 1);
    const link = await broken.store.pdfExports.byLink(createHash('sha256').update(token).digest('hex'));
    expect(link!.record).toMatchObject({ status: 'failed', attempt: 1, error: { code: 'PDF_BROWSER_UNAVAILABLE' } });
    const run = await broken.client.workflow.getHandle(pdfExportWorkflowId(space, link!.record.id, 1)).describe();
    expect(run.status.name).toBe('FAILED');
  }, 180_000);
});
