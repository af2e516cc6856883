/** GitBook JSON documents ⇄ Folio's markdown tree, one converter per block (`blocks/`) and inline (`inline/`). */
export { markdownToDocument, rootToDocument } from './to-document.js';
export { documentToMarkdown, documentToRoot } from './from-document.js';
export type { FromDocumentOptions } from './from-document.js';
export { DocumentInvalidError } from './errors.js';
export type { ConversionStats } from './context.js';
export type { JSONDocument, DocumentBlock, DocumentInline, DocumentText, DocumentLeaf, DocumentMark, SourceHint } from './types.js';
