/**
 * What the import phases share: the inputs, the space config, the warnings in the order they are raised, and
 * what each phase adds for the later ones. Each phase takes only the part it reads and writes (`Pick<…>`).
 */
import type { FormatWarning } from '../errors.js';
import { resolveSpaceConfig } from '../gitbook-yaml.js';
import { inlinePageCodec } from '../page-codec-runner.js';
import type { DocumentPage, FileModel, ImportLimits, ImportOptions, LinkPage, PageModel, SourceEntry, SourceTree, SpaceConfig } from '../model.js';
import { DEFAULT_MAX_LENGTH } from '../markdown/index.js';
import type { ParsedToc, TocEntry, TocSection } from '../summary/types.js';
import { IdClaims } from './id-claims.js';
import { indexPrevious, type PreviousIndex } from './previous-index.js';

/**
 * Default limits. The page size limit is the markdown layer's parse limit (2 MiB), so a page is
 * either parsed whole or kept opaque with one FORMAT_PAGE_TOO_LARGE warning, never half-parsed.
 */
export const DEFAULT_LIMITS: Required<ImportLimits> = { maxPages: 5000, maxPageBytes: DEFAULT_MAX_LENGTH };

/** A document page of the TOC whose file is still to be read, with its SUMMARY link text. */
export interface PageLoad {
  page: DocumentPage;
  entry: SourceEntry;
  tocText: string | undefined;
}

/** A SUMMARY link to a page of the TOC (with an anchor, or a duplicate entry), resolved once all pages have ids. */
export interface PendingLink {
  page: LinkPage;
  path: string;
  fragment?: string;
}

/** The table of contents as read: from SUMMARY.md when present (not a symbolic link), else inferred from the folders. */
export interface TocRead {
  toc: ParsedToc;
  summaryEntry: SourceEntry | undefined;
  summaryPresent: boolean;
}

export interface ImportContext {
  readonly tree: SourceTree;
  readonly options: ImportOptions;
  readonly limits: Required<ImportLimits>;
  readonly config: SpaceConfig;
  /** Every warning, in the order the phases raise them. */
  readonly warnings: FormatWarning[];
  readonly prev: PreviousIndex;
  readonly ids: IdClaims;
  /** Space files (`.gitbook/assets`, `.gitbook/includes`) and their ids by path. */
  files: FileModel[];
  filesByPath: Map<string, string>;
  toc: TocRead;
  /** Top-level pages in TOC order. */
  pages: PageModel[];
  pageByPath: Map<string, DocumentPage>;
  /** Document pages to load, in TOC order. */
  loads: PageLoad[];
  pendingLinks: PendingLink[];
  /** The page built for each TOC entry or group section (to record where SUMMARY comments stood). */
  builtFrom: Map<TocEntry | TocSection, PageModel>;
  /** Destinations found in each page's markdown (by page id), resolved by the references phase. */
  rawUrls: Map<string, string[]>;
  counts: { parsed: number; reused: number; unlisted: number };
  /** Page id → id of the previous revision's page whose content it took without reading its file. */
  reusedFrom: Map<string, string>;
}

/** The table of contents before the TOC phase has run (no sections). */
const NOT_READ_YET: TocRead = {
  toc: {
    sections: [],
    style: { heading: '', indent: 0, bullet: '*', escapeDestinations: false, escapeParens: false, separator: '', trailingNewlines: 1 },
    comments: [],
  },
  summaryEntry: undefined,
  summaryPresent: false,
};

/** The context of an import, once `.gitbook.yaml` is read (its warnings come first). */
export async function createImportContext(tree: SourceTree, options: ImportOptions): Promise<ImportContext> {
  const codec = options.codec ?? inlinePageCodec;
  const { config, warnings } = await resolveSpaceConfig(tree, options.projectDirectory, (text, path) => codec.parseConfig(text, path));
  return {
    tree,
    options,
    limits: { ...DEFAULT_LIMITS, ...(options.limits ?? {}) },
    config,
    warnings: [...warnings],
    prev: indexPrevious(options.previous?.revision, options.previous?.exportedPaths),
    ids: new IdClaims(),
    files: [],
    filesByPath: new Map(),
    toc: NOT_READ_YET,
    pages: [],
    pageByPath: new Map(),
    loads: [],
    pendingLinks: [],
    builtFrom: new Map(),
    rawUrls: new Map(),
    counts: { parsed: 0, reused: 0, unlisted: 0 },
    reusedFrom: new Map(),
  };
}
