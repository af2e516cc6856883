import { FolioError } from '../../errors.js';
import type { MarkdownWarning } from './warning.js';

/** Stable warning/error codes of the page-file format layer. */
export const MarkdownCodes = {
  FRONT_MATTER_INVALID: 'MARKDOWN_FRONT_MATTER_INVALID',
  LIQUID_UNTERMINATED: 'MARKDOWN_LIQUID_UNTERMINATED',
  LIQUID_UNMATCHED_END: 'MARKDOWN_LIQUID_UNMATCHED_END',
  BINARY_CONTENT: 'MARKDOWN_BINARY_CONTENT',
  PAGE_TOO_LARGE: 'MARKDOWN_PAGE_TOO_LARGE',
  PARSE_FAILED: 'MARKDOWN_PARSE_FAILED',
} as const;

/** Base class of this layer's errors; `toWarning()` turns one into the non-throwing form. */
export class MarkdownFormatError extends FolioError {
  constructor(code: string, message: string, data: Record<string, unknown> = {}) {
    super(code, message, { data });
  }
  toWarning(): MarkdownWarning {
    const line = typeof this.data.line === 'number' ? this.data.line : undefined;
    return line === undefined ? { code: this.code, message: this.message } : { code: this.code, message: this.message, line };
  }
}

export class FrontMatterInvalidError extends MarkdownFormatError {
  constructor(reason: string, line?: number) {
    super(MarkdownCodes.FRONT_MATTER_INVALID, `invalid front matter YAML: ${reason}`, line === undefined ? {} : { line });
  }
}

export class LiquidUnterminatedError extends MarkdownFormatError {
  constructor(name: string, line?: number) {
    super(MarkdownCodes.LIQUID_UNTERMINATED, `{% ${name} %} has no matching {% end${name} %}`, { name, ...(line === undefined ? {} : { line }) });
  }
}

export class LiquidUnmatchedEndError extends MarkdownFormatError {
  constructor(name: string, line?: number) {
    super(MarkdownCodes.LIQUID_UNMATCHED_END, `{% end${name} %} without an opening tag`, { name, ...(line === undefined ? {} : { line }) });
  }
}

export class BinaryContentError extends MarkdownFormatError {
  constructor(offset: number) {
    super(MarkdownCodes.BINARY_CONTENT, `page text contains a NUL byte at offset ${offset}; treated as raw text`, { offset });
  }
}

export class PageTooLargeError extends MarkdownFormatError {
  constructor(length: number, max: number) {
    super(MarkdownCodes.PAGE_TOO_LARGE, `page is ${length} characters, above the ${max} limit; kept as one raw block`, { length, max });
  }
}
