import { createHash } from 'node:crypto';
import mammoth from 'mammoth';
import { convertHtmlPage } from '../webimport/html-page.js';
import { DocxInvalidError } from './errors.js';
import { REFUSED } from './html-file.js';
import type { ConvertedFile } from './types.js';

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
 * A Word document as a page: mammoth → HTML (headings, lists, tables, links, images) → the website import's
 * conversion. Images come out as files under `.gitbook/assets/`, named by their content (the same image twice is
 * one file). The first heading of level 1 is the title; mammoth's messages come back as warnings.
 */
export async function docxFileToPage(name: string, bytes: Uint8Array): Promise<ConvertedFile & { messages: string[]; refused: string[] }> {
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
    result = await mammoth.convertToHtml(
      { buffer: Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) },
      { convertImage, externalFileAccess: false },
    );
  } catch (error) {
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
  const { markdown, warnings } = convertHtmlPage(html, { pageUrl, linkTargets: {}, assetTargets });
  return {
    title: decodeEntities(title || name.replace(/\.[^.]*$/, '')),
    description: null,
    markdown,
    assets,
    messages: result.messages.map((m) => m.message),
    refused: warnings.filter((w) => REFUSED.has(w.code)).map((w) => w.message),
  };
}

function decodeEntities(text: string): string {
  return text.replace(/&(amp|lt|gt|quot|#39);/g, (_m, e: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', '#39': "'" })[e] ?? _m);
}
