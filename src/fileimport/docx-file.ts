import { createHash } from 'node:crypto';
import { zipSync } from 'fflate';
import mammoth from 'mammoth';
import { convertHtmlPage } from '../webimport/html-page.js';
import { DocxInvalidError, DocxTooDeepError, ZipInvalidError } from './errors.js';
import { REFUSED } from './html-file.js';
import { DEFAULT_FILE_IMPORT_LIMITS, type FileImportLimits } from './limits.js';
import type { ConvertedFile } from './types.js';
import { xmlDepthOver } from './xml-depth.js';
import { readZip } from './zip.js';

const EXTENSIONS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/svg+xml': 'svg',
  'image/webp': 'webp',
  'image/bmp': 'bmp',
  'image/tiff': 'tiff',
  'image/x-emf': 'emf',
  'image/x-wmf': 'wmf',
};

/**
 * The parts of a `.docx` unpacked within `limits` (the zip reader's: entries and unpacked bytes counted before
 * anything is inflated), each XML part checked to nest at most `limits.maxDocxDepth` deep, re-packed stored: mammoth
 * (JSZip) then reads exactly these bytes and inflates nothing, so what it holds is bounded by what was counted here.
 */
export function boundedDocx(name: string, bytes: Uint8Array, limits: FileImportLimits): Uint8Array {
  let parts: Map<string, Uint8Array>;
  try {
    parts = readZip(name, bytes, limits);
  } catch (error) {
    if (error instanceof ZipInvalidError) throw new DocxInvalidError(name, String(error.data.reason));
    throw error;
  }
  if (parts.size === 0) throw new DocxInvalidError(name, 'the archive holds no file');
  for (const [path, part] of parts) {
    if (!/\.(xml|rels)$/i.test(path)) continue;
    if (xmlDepthOver(xmlText(part), limits.maxDocxDepth) !== null) throw new DocxTooDeepError(name, path, limits.maxDocxDepth);
  }
  return zipSync(Object.fromEntries(parts), { level: 0 });
}

/**
 * A Word document as a page: its parts bounded ({@link boundedDocx}), then mammoth → HTML (headings, lists,
 * tables, links, images) → the website import's conversion. Images come out as files under `.gitbook/assets/`,
 * named by their content (the same image twice is one file). The first heading of level 1 is the title; mammoth's
 * messages come back as warnings. A stack overflow of either converter is the document's depth, not its validity.
 */
export async function docxFileToPage(
  name: string,
  bytes: Uint8Array,
  limits: FileImportLimits = DEFAULT_FILE_IMPORT_LIMITS,
): Promise<ConvertedFile & { messages: string[]; refused: string[] }> {
  const docx = boundedDocx(name, bytes, limits);
  const assets = new Map<string, Uint8Array>();
  const convertImage = mammoth.images.imgElement(async (image) => {
    const data = new Uint8Array(await image.readAsBuffer());
    const hash = createHash('sha256').update(data).digest('hex').slice(0, 16);
    const path = `.gitbook/assets/${hash}.${EXTENSIONS[image.contentType] ?? 'bin'}`;
    assets.set(path, data);
    return { src: path };
  });
  let result: Awaited<ReturnType<typeof mammoth.convertToHtml>>;
  try {
    result = await mammoth.convertToHtml({ buffer: Buffer.from(docx.buffer, docx.byteOffset, docx.byteLength) }, { convertImage, externalFileAccess: false });
  } catch (error) {
    if (isStackOverflow(error)) throw new DocxTooDeepError(name, 'word/document.xml', limits.maxDocxDepth);
    throw new DocxInvalidError(name, (error as Error).message);
  }
  const pageUrl = `http://upload.invalid/${encodeURIComponent(name)}`;
  const title = /<h1[^>]*>([\s\S]*?)<\/h1>/
    .exec(result.value)?.[1]
    ?.replace(/<[^>]*>/g, '')
    .trim();
  const assetTargets: Record<string, string> = {};
  for (const path of assets.keys()) assetTargets[new URL(path, pageUrl).href] = path;
  const html = `<!doctype html><html><head><title>${title ?? ''}</title></head><body><main>${result.value}</main></body></html>`;
  let markdown: string;
  let warnings: ReturnType<typeof convertHtmlPage>['warnings'];
  try {
    ({ markdown, warnings } = convertHtmlPage(html, { pageUrl, linkTargets: {}, assetTargets }));
  } catch (error) {
    if (isStackOverflow(error)) throw new DocxTooDeepError(name, 'word/document.xml', limits.maxDocxDepth);
    throw error;
  }
  return {
    title: decodeEntities(title || name.replace(/\.[^.]*$/, '')),
    description: null,
    markdown,
    assets,
    messages: result.messages.map((m) => m.message),
    refused: warnings.filter((w) => REFUSED.has(w.code)).map((w) => w.message),
  };
}

/** An XML part as text to measure: tags are ASCII, so UTF-8 is read one byte per character (no copy twice its size). */
function xmlText(bytes: Uint8Array): string {
  if (bytes[0] === 0xff && bytes[1] === 0xfe) return new TextDecoder('utf-16le').decode(bytes);
  if (bytes[0] === 0xfe && bytes[1] === 0xff) return new TextDecoder('utf-16be').decode(bytes);
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1');
}

function isStackOverflow(error: unknown): boolean {
  return error instanceof RangeError && /call stack/i.test(error.message);
}

function decodeEntities(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#39);/g, (_m, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[e] ?? _m);
}
