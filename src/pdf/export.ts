/**
 * One PDF export (a `pdf/<exportId>/<attempt>` workflow's activity): the revision's pages rendered with the site's
 * renderer, printed by Chromium into one PDF with a title page, a table of contents with page numbers and numbered
 * sheets, stored as a blob and recorded on the export. The whole operation has one time budget; the browser is
 * closed when it is spent. Idempotent: a finished export is returned as it is.
 */
import { FolioError, NotFoundError } from '../errors.js';
import type { Logger } from '../log.js';
import type { RenderedPage, RenderLink, RenderPageInput } from '../publish/render/index.js';
import { loadRevisionModel, type LoadedRevision } from '../revision/records.js';
import type { PdfExportRecord, Store } from '../store/index.js';
import { launchPrinter, type PrintAssets } from './browser.js';
import { sectionAnchor, type PrintDocument, type PrintSection } from './document.js';
import { printWithContents } from './print.js';
import { planSections, type PlannedSection } from './sections.js';

export interface PdfExportDeps {
  store: Store;
  /** A page's article (the site renderer, off the event loop within budgets: the parse pool's `publish.render`). */
  render(input: RenderPageInput): Promise<RenderedPage>;
  logger: Logger;
  chromiumPath: string;
  /** The time the whole export may take. */
  budgetMs: number;
  /** Called as the export goes (heartbeats). */
  progress?: (step: string, done: number, total: number) => void;
  /** Cancellation of the activity. */
  signal?: AbortSignal;
}

export interface PdfExportOutcome {
  record: PdfExportRecord;
  /** Passes of the printer (0 when the export was done already). */
  passes: number;
  warnings: string[];
}

const fileHref = (hash: string, name: string) => `_files/${hash.slice(0, 32)}/${encodeURIComponent(name)}`;

/** The links of one page: other printed pages → their section, files → the export's file addresses. */
function linksOf(planned: PlannedSection, anchors: Map<string, string>, loaded: LoadedRevision): Record<string, RenderLink> {
  const links: Record<string, RenderLink> = {};
  const files = new Map(loaded.model.files.map((f) => [f.id, f]));
  for (const ref of planned.page.references ?? []) {
    const t = ref.target;
    if (t.kind === 'page') {
      const anchor = anchors.get(t.pageId);
      if (anchor !== undefined) links[ref.url] = { href: `#${anchor}` };
    } else if (t.kind === 'file') {
      const file = files.get(t.fileId);
      const hash = loaded.fileHashes.get(t.fileId);
      if (file && hash) links[ref.url] = { href: fileHref(hash, file.name), name: file.name, contentType: file.contentType };
    }
  }
  return links;
}

/** The revision's files the print document may load, by address; nothing else is served to the browser. */
function fileAssets(store: Store, loaded: LoadedRevision): PrintAssets {
  const byAddress = new Map<string, { hash: string; contentType: string }>();
  for (const f of loaded.model.files) {
    const hash = loaded.fileHashes.get(f.id);
    if (hash) byAddress.set(`/${decodeURIComponent(fileHref(hash, f.name))}`, { hash, contentType: f.contentType || 'application/octet-stream' });
  }
  return async (pathname) => {
    const file = byAddress.get(pathname);
    const bytes = file ? await store.blobs.get(file.hash) : null;
    return file && bytes ? { contentType: file.contentType, body: bytes } : null;
  };
}

async function renderSections(deps: PdfExportDeps, loaded: LoadedRevision, planned: PlannedSection[], signal: AbortSignal) {
  const anchors = new Map(planned.map((p, i) => [p.page.id, sectionAnchor(i + 1)]));
  const sections: PrintSection[] = [];
  const warnings: string[] = [];
  for (const [i, p] of planned.entries()) {
    if (signal.aborted) throw signal.reason;
    const markdown = p.page.markdown;
    const body =
      markdown === null
        ? { html: `<p>This page could not be read as a page.</p>`, warnings: [] }
        : await deps.render({ markdown, rootPrefix: '', links: linksOf(p, anchors, loaded), specs: {} });
    for (const w of body.warnings) if (warnings.length < 50) warnings.push(`${p.page.title}: ${w.message}`);
    sections.push({ anchor: anchors.get(p.page.id)!, title: p.page.title, description: p.page.description ?? '', depth: p.depth, html: body.html });
    deps.progress?.('render', i + 1, planned.length);
  }
  return { sections, warnings };
}

async function documentTitle(store: Store, record: PdfExportRecord): Promise<{ title: string; subtitle: string; language: string }> {
  const space = await store.spaces.get(record.spaceId);
  const cr = record.changeRequestId ? await store.changeRequests.get(record.spaceId, record.changeRequestId) : null;
  return {
    title: space?.title || 'Untitled space',
    subtitle: cr ? `Change request #${cr.number}${cr.subject ? `: ${cr.subject}` : ''}` : '',
    language: space?.language ?? 'en',
  };
}

export async function runPdfExport(deps: PdfExportDeps, input: { organizationId: string; exportId: string; attempt: number }): Promise<PdfExportOutcome> {
  const record = await deps.store.pdfExports.get(input.organizationId, input.exportId);
  if (!record) throw new NotFoundError('PDF export', input.exportId);
  if (record.status !== 'running' || record.attempt !== input.attempt) return { record, passes: 0, warnings: [] };
  const budget = AbortSignal.timeout(deps.budgetMs);
  const signal = deps.signal ? AbortSignal.any([budget, deps.signal]) : budget;
  try {
    return await printExport(deps, record, signal);
  } catch (err) {
    if (budget.aborted)
      throw new FolioError('PDF_BUDGET_EXCEEDED', `the PDF export took longer than its budget of ${Math.round(deps.budgetMs / 1000)} s`, { cause: err });
    throw err;
  }
}

async function printExport(deps: PdfExportDeps, record: PdfExportRecord, signal: AbortSignal): Promise<PdfExportOutcome> {
  const loaded = await loadRevisionModel(deps.store, record.revisionId);
  if (!loaded) throw new FolioError('PDF_REVISION_MISSING', `revision ${record.revisionId} is no longer stored`);
  const planned = planSections(loaded.model.pages, record);
  const { sections, warnings } = await renderSections(deps, loaded, planned, signal);
  const doc: PrintDocument = { ...(await documentTitle(deps.store, record)), sections };
  const printer = await launchPrinter(deps.chromiumPath, signal);
  let printed;
  try {
    printed = await printWithContents(printer, doc, fileAssets(deps.store, loaded), (pass) => deps.progress?.('print', pass, 2));
  } finally {
    await printer.close();
  }
  if (signal.aborted) throw signal.reason;
  for (const url of new Set(printed.blocked)) if (warnings.length < 50) warnings.push(`request refused while printing: ${url}`);
  const blobHash = await deps.store.blobs.put(printed.pdf);
  const done = await deps.store.pdfExports.succeed(record.id, record.attempt, {
    blobHash,
    pages: sections.length,
    pdfPages: printed.pdfPages,
    bytes: printed.pdf.byteLength,
    warnings,
  });
  const final = done ?? (await deps.store.pdfExports.get(record.organizationId, record.id))!;
  deps.logger.info({ exportId: record.id, pages: sections.length, pdfPages: printed.pdfPages, passes: printed.passes }, 'pdf export printed');
  return { record: final, passes: printed.passes, warnings };
}
