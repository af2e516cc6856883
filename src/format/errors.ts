import { FolioError } from '../errors.js';

/**
 * Typed errors and warnings of the repository-tree ⇄ revision converter.
 * Errors abort an import/export (the input cannot be represented at all); warnings describe
 * input that was imported anyway (possibly partially) and are returned beside the result.
 */

/** Stable codes of converter warnings (never thrown). */
export const FormatWarningCodes = {
  CONFIG_INVALID_YAML: 'FORMAT_CONFIG_INVALID_YAML',
  CONFIG_UNKNOWN_KEY: 'FORMAT_CONFIG_UNKNOWN_KEY',
  CONFIG_SYMLINK: 'FORMAT_CONFIG_SYMLINK',
  CONFIG_TOO_COMPLEX: 'FORMAT_CONFIG_TOO_COMPLEX',
  README_MISSING: 'FORMAT_README_MISSING',
  SUMMARY_UNPARSED_LINE: 'FORMAT_SUMMARY_UNPARSED_LINE',
  SUMMARY_DUPLICATE_ENTRY: 'FORMAT_SUMMARY_DUPLICATE_ENTRY',
  SUMMARY_OUTSIDE_ROOT: 'FORMAT_SUMMARY_OUTSIDE_ROOT',
  SUMMARY_MISSING_FILE: 'FORMAT_SUMMARY_MISSING_FILE',
  SUMMARY_COMMENTED_ENTRY: 'FORMAT_SUMMARY_COMMENTED_ENTRY',
  SUMMARY_NOT_MARKDOWN: 'FORMAT_SUMMARY_NOT_MARKDOWN',
  SUMMARY_SYMLINK: 'FORMAT_SUMMARY_SYMLINK',
  PAGE_NOT_IN_SUMMARY: 'FORMAT_PAGE_NOT_IN_SUMMARY',
  PAGE_BINARY: 'FORMAT_PAGE_BINARY',
  PAGE_INVALID_UTF8: 'FORMAT_PAGE_INVALID_UTF8',
  PAGE_TOO_LARGE: 'FORMAT_PAGE_TOO_LARGE',
  PAGE_TOO_COMPLEX: 'FORMAT_PAGE_TOO_COMPLEX',
  /** The import's parse budget (all its pages together) was used up before this page was parsed: kept as raw bytes. */
  PARSE_BUDGET_EXHAUSTED: 'FORMAT_PARSE_BUDGET_EXHAUSTED',
  PAGE_SYMLINK: 'FORMAT_PAGE_SYMLINK',
  PAGE_PARSE_WARNING: 'FORMAT_PAGE_PARSE_WARNING',
  FRONT_MATTER_INVALID: 'FORMAT_FRONT_MATTER_INVALID',
  LINK_UNRESOLVED: 'FORMAT_LINK_UNRESOLVED',
  ASSET_MISSING: 'FORMAT_ASSET_MISSING',
  REDIRECT_UNRESOLVED: 'FORMAT_REDIRECT_UNRESOLVED',
  SUMMARY_INVALID_UTF8: 'FORMAT_SUMMARY_INVALID_UTF8',
  NO_CONTENT: 'FORMAT_NO_CONTENT',
} as const;

/**
 * Why a page is kept as raw bytes (`DocumentPage.raw`): its file could not be read as a page, so it is stored as
 * it is and exported unchanged. The page-parsing pool's complexity budget (`FORMAT_PAGE_TOO_COMPLEX`) is one more, and
 * the import's budget over all its pages (`FORMAT_PARSE_BUDGET_EXHAUSTED`: pages not parsed once it is used up).
 */
export type RawPageReason =
  'FORMAT_PAGE_TOO_LARGE' | 'FORMAT_PAGE_INVALID_UTF8' | 'FORMAT_PAGE_BINARY' | 'FORMAT_PAGE_TOO_COMPLEX' | 'FORMAT_PARSE_BUDGET_EXHAUSTED';

export type FormatWarningCode = (typeof FormatWarningCodes)[keyof typeof FormatWarningCodes];

export interface FormatWarning {
  code: FormatWarningCode | string;
  /** `error` warnings make `folio check` fail; `info` ones are only reported. */
  severity: 'error' | 'warning' | 'info';
  message: string;
  /** Repository-relative path of the file concerned. */
  path?: string;
  line?: number;
  data?: Record<string, unknown>;
}

export class FormatError extends FolioError {
  constructor(code: string, message: string, data: Record<string, unknown> = {}) {
    super(code, message, { data });
  }
}

/** `.gitbook.yaml` `root` (or the project directory) points outside the repository. */
export class RootOutsideRepositoryError extends FormatError {
  constructor(root: string) {
    super('FORMAT_ROOT_OUTSIDE_REPOSITORY', `content root ${JSON.stringify(root)} is outside the repository`, { root });
  }
}

/** The table of contents holds more pages than the configured limit. */
export class TooManyPagesError extends FormatError {
  constructor(count: number, limit: number) {
    super('FORMAT_TOO_MANY_PAGES', `the space has more than ${limit} pages (${count} found)`, { count, limit });
  }
}

/**
 * The repository (or its project directory) holds no GitBook content: no page at all. Importing it would replace
 * the space's content with nothing, so the import stops and the space keeps its content.
 */
export class NoContentError extends FormatError {
  constructor(root: string, files: number) {
    super(
      'FORMAT_NO_CONTENT',
      `the repository has no GitBook content under ${JSON.stringify(root || '/')}: no SUMMARY.md entry and no Markdown page (${files} other file${files === 1 ? '' : 's'}); nothing was imported and the space keeps its content`,
      { root, files },
    );
  }
}

/**
 * SUMMARY.md goes over the parse budget (time, memory or nesting). The import stops rather than guess a table of
 * contents (which an export would then write over the file): the space keeps its content.
 */
export class SummaryTooComplexError extends FormatError {
  constructor(path: string, why: string) {
    super('FORMAT_SUMMARY_TOO_COMPLEX', `${path} ${why}; nothing was imported and the space keeps its content`, { path });
  }
}

/** The markdown page layer (src/format/markdown) could not be loaded or is incomplete. */
export class MarkdownLayerUnavailableError extends FormatError {
  constructor(detail: string) {
    super('FORMAT_MARKDOWN_UNAVAILABLE', `markdown page layer unavailable: ${detail}`, { detail });
  }
}

/** A blob the export needs (new asset, moved file) is neither in the target tree nor readable. */
export class BlobUnavailableError extends FormatError {
  constructor(oid: string, path: string) {
    super('FORMAT_BLOB_UNAVAILABLE', `no bytes available for ${path} (blob ${oid})`, { oid, path });
  }
}

/** The revision handed to export is structurally invalid (duplicate ids, a group below top level…). */
export class InvalidRevisionError extends FormatError {
  constructor(message: string, data: Record<string, unknown> = {}) {
    super('FORMAT_INVALID_REVISION', message, data);
  }
}

/** A directory given to readWorkingTree does not exist or is not a directory. */
export class WorkingTreeError extends FormatError {
  constructor(dir: string, reason: string) {
    super('FORMAT_WORKING_TREE', `cannot read working tree ${dir}: ${reason}`, { dir, reason });
  }
}

export function warning(
  code: string,
  message: string,
  extra: { severity?: FormatWarning['severity']; path?: string; line?: number; data?: Record<string, unknown> } = {},
): FormatWarning {
  const w: FormatWarning = { code, severity: extra.severity ?? 'warning', message };
  if (extra.path !== undefined) w.path = extra.path;
  if (extra.line !== undefined) w.line = extra.line;
  if (extra.data !== undefined) w.data = extra.data;
  return w;
}

/**
 * Parsing or serializing a page went over a budget (time, memory, or the parser's stack on deeply nested
 * input). The page is kept byte for byte with a FORMAT_PAGE_TOO_COMPLEX warning; never thrown out of an import.
 */
export class PageTooComplexError extends FormatError {
  constructor(
    /** `operation`: not this page's own budget but the whole operation's (import, export), used up by its pages. */
    readonly budget: 'time' | 'memory' | 'stack' | 'operation',
    limit: number | undefined,
    detail?: string,
    /** For `operation`: its CPU time or its deadline. */
    kind?: 'cpu' | 'deadline',
  ) {
    super(
      'FORMAT_PAGE_TOO_COMPLEX',
      budget === 'operation'
        ? `page not parsed: the operation's parse ${kind === 'deadline' ? 'deadline' : 'budget'}${limit !== undefined ? ` (${limit} ms${kind === 'deadline' ? '' : ' of CPU time'})` : ''} is reached${detail ? `: ${detail}` : ''}`
        : `page too complex to parse: over the ${budget} budget${limit !== undefined ? ` (${limit}${budget === 'time' ? ' ms' : budget === 'memory' ? ' MB' : ''})` : ''}${detail ? `: ${detail}` : ''}`,
      { budget, ...(limit !== undefined ? { limit } : {}), ...(kind ? { kind } : {}) },
    );
  }
}

/** A stack overflow (`Maximum call stack size exceeded`) of the parser or serializer. */
export function isStackOverflow(err: unknown): boolean {
  return err instanceof RangeError && /call stack/i.test(err.message);
}
