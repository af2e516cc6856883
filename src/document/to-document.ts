import type { Root } from 'mdast';
import { parsePageFile } from '../format/index.js';
import type { ConversionStats } from './context.js';
import { ToDocument } from './context.js';
import { blockConverters, inlineConverters } from './blocks/index.js';
import type { JSONDocument } from './types.js';

/** The document of a page body (the markdown tree after its front matter and title). */
export function rootToDocument(root: Root): { document: JSONDocument; stats: ConversionStats } {
  const ctx = new ToDocument({ blocks: blockConverters, inlines: inlineConverters });
  const nodes = ctx.blocks(root.children, 'document');
  const document: JSONDocument = { object: 'document', data: {}, nodes };
  if (Object.keys(ctx.hints).length > 0) document.data.source = { format: 'gitbook-markdown', hints: ctx.hints };
  return { document, stats: ctx.stats };
}

/**
 * GitBook's `JSONDocument` of a page's markdown: every block and inline in its document form; what has none
 * (raw HTML, link definitions, footnotes, unknown Liquid tags…) is shown as its text and kept whole in
 * `document.data.source`, so that the document gives the page's markdown back.
 */
export function markdownToDocument(pageText: string): JSONDocument {
  return rootToDocument(parsePageFile(pageText).document).document;
}
