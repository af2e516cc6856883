/** A warning found while parsing a page (`PageFile.warnings`, `MarkdownError`). */
export interface MarkdownWarning {
  code: string;
  message: string;
  line?: number;
}
