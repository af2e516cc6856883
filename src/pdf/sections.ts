/**
 * What a PDF export prints, in reading order: the document pages of a revision (groups and links are not pages),
 * each with its depth in the table of contents; from one page, its sub-pages too unless `only`.
 */
import { FolioError } from '../errors.js';
import type { DocumentPage, PageModel } from '../format/index.js';

/** Sections one export may print: more fails with PDF_TOO_LARGE rather than running for hours. */
export const MAX_PDF_SECTIONS = 3000;

export interface PlannedSection {
  page: DocumentPage;
  depth: number;
}

function flatten(pages: PageModel[], depth: number, out: PlannedSection[]): void {
  for (const p of pages) {
    if (p.kind === 'document') out.push({ page: p, depth });
    if (p.kind === 'document' || p.kind === 'group') flatten(p.children, p.kind === 'document' ? depth + 1 : depth, out);
  }
}

function find(pages: PageModel[], id: string): PageModel | null {
  for (const p of pages) {
    if (p.id === id) return p;
    const inner = find(p.children, id);
    if (inner) return inner;
  }
  return null;
}

export function planSections(pages: PageModel[], scope: { pageId: string | null; only: boolean }): PlannedSection[] {
  const out: PlannedSection[] = [];
  if (scope.pageId === null) flatten(pages, 0, out);
  else {
    const page = find(pages, scope.pageId);
    if (!page || page.kind !== 'document') throw new FolioError('PDF_PAGE_NOT_FOUND', `no document page ${scope.pageId} in this revision`);
    out.push({ page, depth: 0 });
    if (!scope.only) flatten(page.children, 1, out);
  }
  if (out.length === 0) throw new FolioError('PDF_NOTHING_TO_PRINT', 'this revision has no document page to print');
  if (out.length > MAX_PDF_SECTIONS) throw new FolioError('PDF_TOO_LARGE', `${out.length} pages to print; one PDF export prints at most ${MAX_PDF_SECTIONS}`);
  return out;
}
