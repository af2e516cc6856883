import type { PhrasingContent, RootContent } from 'mdast';
import type { DocumentBlock, DocumentInline, DocumentMark, DocumentText, SourceHint } from './types.js';

/** The markdown → document side a converter calls back into (children, text, hints). */
export interface ToDocumentContext {
  /** The document form of child blocks inside a container of `parent` type (each checked, kept whole if it has none). */
  blocks(nodes: RootContent[], parent: string): DocumentBlock[];
  /** Text, marks and inlines of phrasing content. */
  phrasing(nodes: PhrasingContent[]): Array<DocumentText | DocumentInline>;
  /** Phrasing content under the given marks (inside a converter of an inline). */
  inline(node: PhrasingContent, marks: DocumentMark[]): Array<DocumentText | DocumentInline>;
  /** Keeps what the document has no member for, under the element's `key`. */
  hint(element: { key?: string }, hint: SourceHint): void;
}

/** The document → markdown side. */
export interface FromDocumentContext {
  hint(element: { key?: string }): SourceHint | undefined;
  blocks(nodes: unknown[] | undefined, path: string): RootContent[];
  block(node: unknown, path: string): RootContent;
  phrasing(nodes: unknown[] | undefined, path: string): PhrasingContent[];
  /** The markdown destination of a `ContentRef` (url, anchor, page, file). */
  refToUrl(ref: unknown, path: string): string;
}

/** One GitBook block: its markdown node(s) ⇄ its document block. */
export interface BlockConverter {
  name: string;
  /** Document block types `fromDocument` reads. */
  types: string[];
  /** The document block of a markdown node, or null when this converter does not take it (or it has no exact form). */
  toDocument(node: RootContent, ctx: ToDocumentContext): DocumentBlock | null;
  fromDocument(block: DocumentBlock, ctx: FromDocumentContext, path: string): RootContent;
}

/** One inline construct (link, inline math, inline image): markdown phrasing ⇄ document inline. */
export interface InlineConverter {
  name: string;
  types: string[];
  toDocument(node: PhrasingContent, marks: DocumentMark[], ctx: ToDocumentContext): DocumentInline | null;
  fromDocument(inline: DocumentInline, ctx: FromDocumentContext, path: string): PhrasingContent;
}

/** Thrown by a converter for a node it cannot represent exactly: the node is kept whole instead. */
export class NoDocumentForm extends Error {}
