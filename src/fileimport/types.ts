/** One uploaded file. */
export interface InputFile {
  name: string;
  bytes: Uint8Array;
}

export interface FileImportWarning {
  code:
    | 'FILE_IMPORT_UNSUPPORTED_TYPE'
    | 'FILE_IMPORT_DOCX_MESSAGE'
    | 'FILE_IMPORT_HTML_UNRECOGNISED'
    | 'FILE_IMPORT_INVALID_UTF8'
    | 'FILE_IMPORT_NAME_CLASH'
    /** A link or image the URL policy refused (kept as its text), or a `data:` image left out. */
    | 'FILE_IMPORT_LINK_REFUSED';
  message: string;
  /** The input file it is about. */
  file: string;
}

/** A page made from one input file, before it is placed in the tree. */
export interface ConvertedFile {
  title: string;
  description: string | null;
  /** GitBook markdown of the body (no title heading, no front matter). */
  markdown: string;
  /** Files the page refers to, by their path relative to the page (`.gitbook/assets/…`). */
  assets: Map<string, Uint8Array>;
}
