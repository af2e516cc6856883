import { analyzeHtmlPage, convertHtmlPage } from '../webimport/html-page.js';
import type { ConvertedFile } from './types.js';

/**
 * An HTML file as a page, through the website import's extraction and conversion: a saved documentation page
 * loses its site chrome, a plain document keeps its body. Relative links and images stay relative to the file.
 */
export function htmlFileToPage(name: string, html: string): ConvertedFile & { generator: string } {
  const pageUrl = `http://upload.invalid/${encodeURIComponent(name)}`;
  const analyzed = analyzeHtmlPage(html, pageUrl);
  const relative: Record<string, string> = {};
  for (const url of [...analyzed.links, ...analyzed.assets]) {
    if (url.startsWith('http://upload.invalid/')) relative[url] = decodeURIComponent(url.slice('http://upload.invalid/'.length));
  }
  const { markdown } = convertHtmlPage(html, { pageUrl, linkTargets: relative, assetTargets: relative });
  const stem = name.replace(/\.[^.]*$/, '');
  return {
    title: analyzed.title && analyzed.title !== pageUrl ? analyzed.title : stem,
    description: analyzed.description,
    markdown,
    assets: new Map(),
    generator: analyzed.generator,
  };
}
