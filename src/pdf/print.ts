/**
 * Prints the export's document in two passes: the first finds the sheet each section starts on (the PDF's named
 * destinations), the second prints the table of contents with those numbers. The numbers' boxes have a fixed
 * width, so the second pass paginates as the first; the run checks it did and prints once more if not.
 */
import type { PDFOptions } from 'puppeteer-core';
import { FolioError } from '../errors.js';
import type { PrintAssets, Printer } from './browser.js';
import { printDocumentHtml, PRINT_STYLESHEET, type PrintDocument } from './document.js';
import { readPdfStructure } from './pdf-structure.js';

const CSS_PATH = '/_static/print.css';

const pdfOptions = (title: string): PDFOptions => ({
  format: 'A4',
  printBackground: true,
  displayHeaderFooter: true,
  headerTemplate: `<div style="font-size:8px;width:100%;padding:0 15mm;color:#5b5b66;font-family:system-ui,sans-serif">${title.replace(/[<>&"]/g, '')}</div>`,
  footerTemplate:
    '<div style="font-size:8px;width:100%;text-align:center;color:#5b5b66;font-family:system-ui,sans-serif"><span class="pageNumber"></span> / <span class="totalPages"></span></div>',
  margin: { top: '18mm', bottom: '18mm', left: '15mm', right: '15mm' },
  outline: true,
  tagged: true,
});

export interface PrintOutcome {
  pdf: Uint8Array;
  pdfPages: number;
  /** Section anchor → the page it starts on. */
  pageNumbers: Map<string, number>;
  passes: number;
  /** Requests of the page that were refused (anything outside the export's own files). */
  blocked: string[];
}

const sameNumbers = (a: Map<string, number>, b: Map<string, number>) => a.size === b.size && [...a].every(([k, v]) => b.get(k) === v);

export async function printWithContents(printer: Printer, doc: PrintDocument, files: PrintAssets, onPass?: (pass: number) => void): Promise<PrintOutcome> {
  const encoder = new TextEncoder();
  const css = encoder.encode(PRINT_STYLESHEET);
  let numbers: Map<string, number> | undefined;
  const blocked: string[] = [];
  for (let pass = 1; pass <= 3; pass++) {
    const html = encoder.encode(printDocumentHtml(doc, CSS_PATH.slice(1), numbers));
    const assets: PrintAssets = async (p) =>
      p === '/' ? { contentType: 'text/html; charset=utf-8', body: html } : p === CSS_PATH ? { contentType: 'text/css', body: css } : files(p);
    const { pdf, blocked: refused } = await printer.print(assets, pdfOptions(doc.title));
    blocked.push(...refused);
    onPass?.(pass);
    const structure = readPdfStructure(pdf);
    const found = new Map(doc.sections.map((s) => [s.anchor, structure.destinations.get(s.anchor) ?? 0]));
    const missing = doc.sections.filter((s) => !found.get(s.anchor));
    if (missing.length > 0) throw new FolioError('PDF_STRUCTURE', `the printed PDF has no destination for ${missing.length} section(s)`);
    if (numbers && sameNumbers(numbers, found)) return { pdf, pdfPages: structure.pageCount, pageNumbers: found, passes: pass, blocked };
    numbers = found;
  }
  throw new FolioError('PDF_UNSTABLE_LAYOUT', 'the table of contents changed the pagination three times in a row');
}
