import { analyzeHtmlPage, convertHtmlPage } from '../webimport/html-page.js';
import type { ConvertedFile } from './types.js';

/** The conversion's warnings about what the URL policy took out (refused links and images, dropped `data:` images). */
export const REFUSED = new Set(['webimport.link_refused', 'webimport.image_refused', 'webimport.data_image_dropped']);

/**
 * An HTML file as a page, through the website import's extraction and conversion: a saved documentation page
 * loses its site chrome, a plain document keeps its body. Relative links and images stay relative to the file.
 */
export function htmlFileToPage(name: string, html: string): ConvertedFile & { generator: string; refused: string[] } {
  const pageUrl = `http://upload.invalid/${encodeURIComponent(name)}`;
  const analyzed = analyzeHtmlPage(html, pageUrl);
  const relative: Record<string, string> = {};
  for (const url of [...analyzed.links, ...analyzed.assets]) {
    if (url.startsWith('http://upload.invalid/')) relative[url] = decodeURIComponent(url.slice('http://upload.invalid/'.length));
  }
  // The page is placed at the root of the tree: its `data:` images go to `.gitbook/assets/inline/`.
  const { markdown, files, warnings } = convertHtmlPage(html, { pageUrl, linkTargets: relative, assetTargets: relative, pageFile: 'page.md' });
  const stem = name.replace(/\.[^.]*$/, '');
  return {
    title: analyzed.title && analyzed.title !== pageUrl ? analyzed.title : stem,
    description: analyzed.description,
    markdown,
    assets: new Map((files ?? []).map((f) => [f.path, f.bytes])),
    generator: analyzed.generator,
    refused: warnings.filter((w) => REFUSED.has(w.code)).map((w) => w.message),
  };
}
