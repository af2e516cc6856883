/**
 * Issue 33, PDF export: a corpus space printed by Debian's chromium through the export pipeline (src/pdf/), read
 * back with poppler's pdftotext: every page's title is in the PDF, in reading order, on the sheet its table of
 * contents entry names; the sheets are numbered; the browser reached nothing outside the export.
 */
import { execFileSync } from 'node:child_process';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { beforeAll, describe, expect, it } from 'vitest';
import { runPdfExport } from '../../src/pdf/export.js';
import { planSections } from '../../src/pdf/sections.js';
import { loadHighlighter, renderPageBody } from '../../src/publish/render/index.js';
import type { PdfExportRecord, Store } from '../../src/store/index.js';
import { ensurePackages } from '../../src/system-packages.js';
import { testLogger } from '../helpers/logger.js';
import { createTestStore } from '../helpers/store.js';
import { corpusTree, importIntoSpace, type ImportedSpace } from '../publish/corpus-space.js';

const REPO = 'GitbookIO+git-sync-normalization';
let store: Store;
let org: string;
let spaceId: string;
let imported: ImportedSpace;

beforeAll(async () => {
  ensurePackages(['chromium', 'poppler']);
  await loadHighlighter();
  store = await createTestStore();
  org = (await store.orgs.create({ id: 'pdf-org', title: 'PDF' })).id;
  spaceId = (await store.spaces.create(org, { title: 'Normalization' })).id;
  const { tree, projectDirectory } = await corpusTree(REPO);
  imported = await importIntoSpace(store, spaceId, tree, projectDirectory);
}, 120_000);

const deps = () => ({
  store,
  render: async (input: Parameters<typeof renderPageBody>[0]) => renderPageBody(input),
  logger: testLogger('pdf'),
  chromiumPath: '/usr/bin/chromium',
  budgetMs: 5 * 60_000,
});

/** The text of sheets `from`..`to` of the PDF (pdftotext reads it from stdin). */
function text(pdf: Uint8Array, from?: number, to?: number): string {
  const range = from !== undefined ? ['-f', String(from), '-l', String(to ?? from)] : [];
  return execFileSync('pdftotext', ['-layout', ...range, '-', '-'], { input: pdf, maxBuffer: 64 * 1024 * 1024 }).toString('utf8');
}

const squash = (s: string) => s.replace(/\s+/g, ' ').trim();

async function exportOf(scope: { pageId: string | null; only: boolean }): Promise<{ record: PdfExportRecord; pdf: Uint8Array }> {
  const { record } = await store.pdfExports.ensure({ organizationId: org, spaceId, changeRequestId: null, revisionId: imported.revisionId, ...scope });
  const outcome = await runPdfExport(deps(), { organizationId: org, exportId: record.id, attempt: record.attempt });
  expect(outcome.record.status).toBe('succeeded');
  const pdf = await store.blobs.get(outcome.record.blobHash!);
  return { record: outcome.record, pdf: pdf! };
}

describe('PDF export of a corpus space', () => {
  it('holds every page title in order, each on the sheet the table of contents names, on numbered sheets', async () => {
    const { record, pdf } = await exportOf({ pageId: null, only: false });
    if (process.env.PDF_KEEP) (await import('node:fs')).writeFileSync(process.env.PDF_KEEP, pdf);
    const titles = planSections(imported.revision.pages, { pageId: null, only: false }).map((s) => s.page.title);
    expect(titles.length).toBeGreaterThanOrEqual(15);
    expect(record.pages).toBe(titles.length);
    const info = execFileSync('pdfinfo', ['-'], { input: pdf }).toString();
    expect(Number(/Pages:\s+(\d+)/.exec(info)?.[1])).toBe(record.pdfPages);

    // The table of contents (sheet 2 on): each title followed by the sheet number it names.
    const contents = squash(text(pdf, 2, 3));
    const claimed: number[] = [];
    let at = 0;
    for (const title of titles) {
      const m = new RegExp(`${squash(title).replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\s*(?:\\.\\s*)*(\\d+)`).exec(contents.slice(at));
      expect(m, `contents entry for "${title}"`).not.toBeNull();
      claimed.push(Number(m![1]));
      at += m!.index + m![0].length;
    }
    // Each section starts on the sheet claimed, with its title, and the sheets are numbered "n / total".
    for (const [i, title] of titles.entries()) {
      const sheet = squash(text(pdf, claimed[i]!));
      expect(sheet, `sheet ${claimed[i]} starts "${title}"`).toContain(squash(title));
      expect(sheet).toContain(`${claimed[i]} / ${record.pdfPages}`);
    }
    expect(claimed).toEqual([...claimed].sort((a, b) => a - b));
    // The whole body, after the contents, holds the titles in order.
    const body = squash(text(pdf, claimed[0]!, record.pdfPages!));
    let pos = 0;
    for (const title of titles) {
      const found = body.indexOf(squash(title), pos);
      expect(found, `"${title}" after position ${pos}`).toBeGreaterThanOrEqual(0);
      pos = found + 1;
    }
  }, 300_000);

  it('gives the page no network: remote images are refused, reported, and never fetched', async () => {
    const hits: string[] = [];
    const server = createServer((req, res) => {
      hits.push(req.url ?? '');
      res.end('x');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const space = (await store.spaces.create(org, { title: 'Remote' })).id;
      const markdown = `# Remote\n\n![pixel](${origin}/pixel.png)\n\n<img src="${origin}/raw.png">\n\nText after.\n`;
      const { id: revisionId } = await store.revisions.create({
        spaceId: space,
        parents: [],
        type: 'edits',
        pages: [{ id: 'premote', kind: 'document', title: 'Remote', slug: 'remote', path: 'remote', body: new TextEncoder().encode(markdown) }],
        files: [],
      });
      const { record } = await store.pdfExports.ensure({ organizationId: org, spaceId: space, changeRequestId: null, revisionId, pageId: null, only: false });
      const outcome = await runPdfExport(deps(), { organizationId: org, exportId: record.id, attempt: record.attempt });
      expect(outcome.record.status).toBe('succeeded');
      expect(outcome.record.warnings).toContain(`request refused while printing: ${origin}/pixel.png`);
      expect(hits).toEqual([]);
      expect(squash(text((await store.blobs.get(outcome.record.blobHash!))!))).toContain('Text after.');
    } finally {
      server.close();
    }
  }, 120_000);
});
