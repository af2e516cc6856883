/**
 * Reads what the table of contents needs from a PDF Chromium printed: the order of its pages (the page tree) and
 * the page each named destination lands on (Chromium writes one per element id that an internal link targets, in
 * the catalog's `/Dests` dictionary). Only the classic cross-reference table Chromium (Skia) writes is read: the
 * objects named there are located by offset, never by scanning content streams.
 */
import { FolioError } from '../errors.js';

export interface PdfStructure {
  pageCount: number;
  /** Destination name → page number (1-based). */
  destinations: Map<string, number>;
}

const malformed = (why: string) => new FolioError('PDF_STRUCTURE', `the printed PDF could not be read: ${why}`);

function objectOffsets(text: string): Map<number, number> {
  const start = text.lastIndexOf('startxref');
  if (start < 0) throw malformed('no startxref');
  const at = Number(/startxref\s+(\d+)/.exec(text.slice(start))?.[1]);
  if (!Number.isFinite(at) || !text.startsWith('xref', at)) throw malformed('no classic cross-reference table');
  const offsets = new Map<number, number>();
  const re = /(\d+) (\d+)\s*\r?\n|(\d{10}) (\d{5}) ([nf])\s*\r?\n?|trailer/gy;
  re.lastIndex = at + 'xref'.length;
  while (/\s/.test(text[re.lastIndex] ?? '')) re.lastIndex++;
  let next = 0;
  for (let m = re.exec(text); m && m[0] !== 'trailer'; m = re.exec(text)) {
    if (m[1] !== undefined) next = Number(m[1]);
    else {
      if (m[5] === 'n') offsets.set(next, Number(m[3]));
      next++;
    }
  }
  return offsets;
}

/** The dictionary text of object `num` (up to its stream or its end). */
function objectText(text: string, offsets: Map<number, number>, num: number): string {
  const at = offsets.get(num);
  if (at === undefined) throw malformed(`object ${num} is not in the cross-reference table`);
  const end = text.indexOf('endobj', at);
  const stream = text.indexOf('stream', at);
  return text.slice(at, stream >= 0 && stream < end ? stream : end);
}

const refOf = (dict: string, key: string): number | null => {
  const m = new RegExp(`/${key}\\s+(\\d+)\\s+0\\s+R`).exec(dict);
  return m ? Number(m[1]) : null;
};

export function readPdfStructure(bytes: Uint8Array): PdfStructure {
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
  const offsets = objectOffsets(text);
  const trailer = text.slice(text.lastIndexOf('trailer'));
  const root = refOf(trailer, 'Root');
  if (root === null) throw malformed('no /Root');
  const catalog = objectText(text, offsets, root);
  const pagesRoot = refOf(catalog, 'Pages');
  if (pagesRoot === null) throw malformed('no page tree');
  const order = new Map<number, number>();
  const walk = (num: number, depth: number) => {
    if (depth > 32) throw malformed('page tree too deep');
    const node = objectText(text, offsets, num);
    const kids = /\/Kids\s*\[([^\]]*)\]/.exec(node);
    if (!kids) order.set(num, order.size + 1);
    else for (const k of kids[1]!.matchAll(/(\d+)\s+0\s+R/g)) walk(Number(k[1]), depth + 1);
  };
  walk(pagesRoot, 0);
  const destinations = new Map<string, number>();
  const destsRef = refOf(catalog, 'Dests');
  if (destsRef !== null) {
    const dests = objectText(text, offsets, destsRef);
    for (const m of dests.matchAll(/\/([A-Za-z0-9_.-]+)\s*\[\s*(\d+)\s+0\s+R/g)) {
      const page = order.get(Number(m[2]));
      if (page !== undefined) destinations.set(m[1]!, page);
    }
  }
  return { pageCount: order.size, destinations };
}
