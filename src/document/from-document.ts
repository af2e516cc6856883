import type { Root } from 'mdast';
import { currentStyle, parsePageFile, serializePageFile, type PageFile } from '../format/index.js';
import { FromDocument } from './context.js';
import { blockConverters, inlineConverters } from './blocks/index.js';
import { DocumentInvalidError } from './errors.js';
import type { SourceHint } from './types.js';

export interface FromDocumentOptions {
  /** The markdown destination of a page or file reference (`ContentRefPage`, `ContentRefFile` by id…). */
  resolveRef?: (ref: Record<string, unknown>, path: string) => string | undefined;
}

/** The markdown tree of a document body; throws `DocumentInvalidError` (with a JSON pointer) on a malformed one. */
export function documentToRoot(document: unknown, options: FromDocumentOptions = {}): Root {
  if (!document || typeof document !== 'object' || (document as { object?: unknown }).object !== 'document')
    throw new DocumentInvalidError('a document is an object with object: "document"', '');
  const doc = document as { data?: { source?: { hints?: unknown } }; nodes?: unknown };
  if (!Array.isArray(doc.nodes)) throw new DocumentInvalidError('a document has nodes', '/nodes');
  const hints = doc.data?.source?.hints;
  const table = hints && typeof hints === 'object' && !Array.isArray(hints) ? (hints as Record<string, SourceHint>) : {};
  const ctx = new FromDocument({ blocks: blockConverters, inlines: inlineConverters }, table, options.resolveRef);
  return { type: 'root', children: ctx.blocks(doc.nodes, '') };
}

/**
 * The markdown of a page whose body is `document`. With the page's current markdown (`original`), its front
 * matter, title and formatting habits are kept and only changed blocks are rewritten; else the page is
 * written in GitBook's current style with `title`.
 */
export function documentToMarkdown(document: unknown, options: FromDocumentOptions & { original?: string; title?: string } = {}): string {
  const root = documentToRoot(document, options);
  if (options.original !== undefined) {
    const page = parsePageFile(options.original);
    return serializePageFile({ ...page, document: root }, { original: { text: options.original, page } });
  }
  const page: PageFile = {
    frontMatter: null,
    title: options.title !== undefined ? { text: options.title } : null,
    document: root,
    style: currentStyle(),
    warnings: [],
  };
  return serializePageFile(page);
}
