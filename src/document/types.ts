/**
 * GitBook's `JSONDocument` (schemas `JSONDocument`, `DocumentBlock*`, `DocumentInline*`, `DocumentText`,
 * `DocumentMark*` of the official spec), as Folio reads and writes it.
 */

export interface DocumentMark {
  object: 'mark';
  type: string;
  data?: Record<string, unknown>;
}

export interface DocumentLeaf {
  object: 'leaf';
  text: string;
  marks: DocumentMark[];
}

export interface DocumentText {
  object: 'text';
  key?: string;
  leaves: DocumentLeaf[];
}

export interface DocumentInline {
  object: 'inline';
  type: string;
  key?: string;
  isVoid?: boolean;
  data: Record<string, unknown>;
  nodes?: Array<DocumentText | DocumentInline>;
}

export interface DocumentFragment {
  object: 'fragment';
  key?: string;
  fragment: string;
  type: string;
  nodes: DocumentBlock[];
}

export interface DocumentBlock {
  object: 'block';
  type: string;
  key?: string;
  isVoid?: boolean;
  data?: Record<string, unknown>;
  nodes?: Array<DocumentBlock | DocumentText | DocumentInline>;
  fragments?: DocumentFragment[];
}

export type DocumentNode = DocumentBlock | DocumentInline | DocumentText;

/** What Folio keeps of a node beyond its document form, so that its markdown comes back byte for byte. */
export interface SourceHint {
  /** The markdown node's `data` (spacing, list markers, Liquid delimiters…). */
  data?: Record<string, unknown>;
  /** Markdown attributes the document has no member for (a code block's meta, a link's title, list spacing…). */
  attrs?: Record<string, unknown>;
  /**
   * A construct with no document form, kept whole (the markdown node). The document shows `text` in its place;
   * when a client changes that text, its edit wins and the kept node is dropped.
   */
  node?: unknown;
  text?: string;
}

/** `document.data.source`: Folio's source hints, by node `key` (the spec allows any member in `document.data`). */
export interface DocumentSource {
  format: 'gitbook-markdown';
  hints: Record<string, SourceHint>;
}

export interface JSONDocument {
  object: 'document';
  data: { schemaVersion?: number; source?: DocumentSource; [key: string]: unknown };
  nodes: DocumentBlock[];
}
