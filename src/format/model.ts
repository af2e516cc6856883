/**
 * Folio's revision model: one space's content tree as plain JSON-serializable data.
 *
 * A revision is what `importTree()` builds from a Git tree and what `exportRevision()` writes back.
 * It is stored in PostgreSQL (one row per page with a JSON `data` column; the page file text as a
 * content-addressed blob) and must never travel through Temporal payloads: workflows pass revision
 * ids, activities load and save revisions.
 *
 * Conventions
 * - Every path in the model is **repository-relative** POSIX (`docs/guide/README.md`), never
 *   starting with `/` or `./`. `''` is the repository root directory.
 * - `git` records the blob the object was imported from (`oid` = git blob sha1 hex). An object
 *   without `git` is new (created by Folio, not yet exported).
 * - Page ids are stable: random base62 for new pages; on re-import they are carried over from the
 *   previous revision by file path, then by blob oid (a moved file keeps its id).
 * - `markdown` is the full page file text (front matter, `# Title`, body). The parsed document is
 *   re-derived from it with the markdown layer (`src/format/markdown`) and is never stored.
 *   Metadata fields (title, description, …) are *derived* from `markdown` on import; `derived`
 *   fingerprints them so export can tell when a caller edited a field (then the file is
 *   regenerated from `markdown` with the field applied, minimal diff).
 */
import type { SourceTree } from './source-entry.js';

import type { MetaLinks, PageCover } from './page-metadata.js';

export type { MetaLinks, PageCover } from './page-metadata.js';

export const REVISION_MODEL_VERSION = 1 as const;

export interface GitSource {
  /** Git blob oid (sha1 hex) of the file this object was imported from. */
  oid: string;
  /** Repository-relative path of that file. */
  path: string;
}

/** Where a reference inside a page (link, image, `{% file %}`, `{% include %}`, …) points to. */
export type ReferenceTarget =
  | { kind: 'page'; pageId: string; anchor?: string }
  | { kind: 'file'; fileId: string }
  | { kind: 'url' }
  /** Anchor inside the same page (`#section`). */
  | { kind: 'anchor' }
  /** Relative path that names nothing in the space (missing asset, file not in SUMMARY, …); kept as written. */
  | { kind: 'unresolved'; path: string };

export interface PageReference {
  /** The destination exactly as the parser reported it (angle brackets removed, escapes resolved). */
  url: string;
  target: ReferenceTarget;
}

interface PageBase {
  /** Stable page id (base62). */
  id: string;
  /** Display title. Documents: the `# H1` text, else the SUMMARY text. */
  title: string;
  /** URL segment. Documents: file name without `.md` (folder name for `README.md`). Groups: anchor or slugified title. */
  slug: string;
  children: PageModel[];
}

export interface DocumentPage extends PageBase {
  kind: 'document';
  /**
   * SUMMARY.md link text when it differs from `title` (GitBook keeps both: the TOC shows this,
   * the page shows the H1). Written back to SUMMARY.md; `title` is written back as the H1.
   */
  tocTitle?: string;
  /** Where `title` came from: the file's `# H1`, the SUMMARY.md text, or the file name (inferred TOC). */
  titleSource: 'heading' | 'summary' | 'path';
  /** SUMMARY.md quoted link title `[x](p.md "Sidebar label")`: sidebar/pagination label. */
  linkTitle?: string;
  /** Page URL path relative to the space (`guides/installing`; `''` for the space's first page). */
  path: string;
  description?: string;
  /** Leading emoji of the title (`# 🖤 Supported chains`), informational; it stays part of `title`. */
  emoji?: string;
  /** Font Awesome icon name from front matter `icon:`. */
  icon?: string;
  cover?: PageCover;
  layout?: Record<string, unknown>;
  hidden: boolean;
  noIndex: boolean;
  metaLinks?: MetaLinks;
  /** All front matter keys in source order (null: no front matter; `{}` with `frontMatterValid: false`: invalid YAML). */
  frontMatter: Record<string, unknown> | null;
  frontMatterValid: boolean;
  /** Full page file text; `null` when the file could not be read as a page (binary, too large, symlink): export leaves it untouched. */
  markdown: string | null;
  /**
   * Set when the page file could not be read as a page (too large, not UTF-8, binary, too complex to parse):
   * `markdown` is null, the store keeps the file's bytes as the page body and export writes them back unchanged.
   * `reason` is the code of the warning the import reported; `size` the file's byte length.
   */
  raw?: { reason: import('./errors.js').RawPageReason; size: number };
  /** Fingerprint of the metadata fields as derived from `markdown` (see module doc). */
  derived: string;
  /** References found in the page body, resolved to page / file ids. */
  references: PageReference[];
  git?: GitSource;
}

export interface GroupPage extends PageBase {
  kind: 'group';
  /** Untitled group (`***` in SUMMARY.md). */
  untitled?: boolean;
  /** SUMMARY.md wrote an explicit anchor (`## T <a href="#x" id="x"></a>`); `slug` holds it. */
  explicitAnchor?: boolean;
}

export interface LinkPage extends PageBase {
  kind: 'link';
  /** Destination as written in SUMMARY.md (unescaped). */
  href: string;
  /** Resolved target: a page of this space (`page.md#anchor` entries) or an external URL. */
  target: { kind: 'page'; pageId: string; anchor?: string } | { kind: 'url'; url: string } | { kind: 'unresolved'; path: string };
  linkTitle?: string;
}

/** Generated subtree (OpenAPI `type: builtin:openapi` YAML entry); has no file. */
export interface ComputedPage extends PageBase {
  kind: 'computed';
  /** YAML source of the entry (dedented, without the fences). */
  source: string;
}

export type PageModel = DocumentPage | GroupPage | LinkPage | ComputedPage;

export interface FileModel {
  id: string;
  /** File name (last path segment). */
  name: string;
  /** Repository-relative path. */
  path: string;
  contentType: string;
  size?: number;
  /** `asset`: under `.gitbook/assets/`; `include`: reusable content under `.gitbook/includes/`. */
  role: 'asset' | 'include';
  /** Some page referenced this file when it was imported (export removes it once no page does). */
  referenced: boolean;
  git?: GitSource;
}

export interface Redirect {
  /** Old URL path as written (no leading slash). */
  from: string;
  /** Target as written (file path relative to the root). */
  to: string;
  /** Resolved page id, when `to` names a page. */
  pageId?: string;
}

export interface SpaceConfig {
  /** Project directory (`''` = repository root). */
  projectDirectory: string;
  /** Repository-relative path of the `.gitbook.yaml` that applied, or null (defaults). Never rewritten. */
  configPath: string | null;
  /**
   * That `.gitbook.yaml`'s text, when it is UTF-8 and at most 64 KiB: export writes these same bytes into a
   * tree that holds nothing of the space yet (a new repository), so its root, structure and redirects hold there.
   */
  configText?: string;
  /** Content root directory, repository-relative (`''` = repository root). */
  root: string;
  /** Repository-relative path of the first page file (`structure.readme`). */
  readme: string;
  /** Repository-relative path of SUMMARY.md (`structure.summary`). */
  summary: string;
  redirects: Redirect[];
}

/** How the table of contents was written, so a rewrite keeps the file's habits. */
export interface SummaryStyle {
  /** Whether SUMMARY.md existed (false: the TOC was inferred from folders). */
  present: boolean;
  /** H1 line text (`Table of contents`). */
  heading: string;
  /** Spaces per nesting level (GitBook: 2). */
  indent: number;
  bullet: '*' | '-' | '+';
  /** 2021-era exporter backslash-escaped destinations (`pg\_hba.md`). */
  escapeDestinations: boolean;
  /** 2021-era exporter escaped parentheses in link text. */
  escapeParens: boolean;
  /** Untitled-group separator line (`***`). */
  separator: string;
  /** Newlines ending the file (current: 1, legacy: 2). */
  trailingNewlines: number;
  /** Fingerprint of the TOC as imported; export rewrites SUMMARY.md only when it changes. */
  fingerprint: string;
  /** HTML comments of the original file (hidden entries), re-emitted on a rewrite. */
  comments: string[];
  /**
   * Where each comment stood (same order as `comments`): after the line of the page or group with
   * id `after` (null: right after the `# heading`), with or without a blank line before it. A
   * comment whose page is gone, or without a place (older revisions), is written at the end.
   */
  commentPlaces?: Array<{ after: string | null; blankBefore: boolean }>;
}

export interface RevisionModel {
  version: typeof REVISION_MODEL_VERSION;
  config: SpaceConfig;
  /** Top-level pages in TOC order: documents, links and groups (groups hold the rest). */
  pages: PageModel[];
  files: FileModel[];
  summary: SummaryStyle & { git?: GitSource };
}

/** What the converter reads: Folio's one source tree type (./source-entry.ts). */
export type { SourceEntry, SourceTree } from './source-entry.js';

export interface ImportLimits {
  /** Maximum number of pages (documents) in the TOC; more raises TooManyPagesError. Default 5000. */
  maxPages?: number;
  /** Page files larger than this (bytes) are kept opaque with a warning. Default 2 MiB (the markdown layer's parse limit). */
  maxPageBytes?: number;
}

export interface ImportOptions {
  /** Project directory inside the repository (`''` or undefined = root). */
  projectDirectory?: string;
  /** Revision imported from an earlier tree: unchanged page blobs are reused without reading them. (`tree`, that earlier tree, is not read.) */
  previous?: {
    revision: RevisionModel;
    tree?: SourceTree;
    /** Page id → the file an export wrote the page to, where its `git` does not say so (`ExportOptions.exportedPaths`). */
    exportedPaths?: ReadonlyMap<string, string>;
  };
  limits?: ImportLimits;
  /** Where pages are parsed (default: in this thread). A page over its budget is kept untouched (FORMAT_PAGE_TOO_COMPLEX). */
  codec?: import('./page-codec-runner.js').PageCodecRunner;
  /** Told after each page of the phase "page contents" (reused, parsed or kept raw): pages done, pages to load. */
  onPageLoaded?: (done: number, total: number) => void;
}

export interface ImportStats {
  /** Page files read and parsed. */
  parsed: number;
  /** Pages reused from `previous` without reading their blob. */
  reused: number;
  pages: number;
  files: number;
  /** Markdown files under the root that the TOC does not list (left untouched). */
  unlisted: number;
}

export interface ImportResult {
  revision: RevisionModel;
  warnings: import('./errors.js').FormatWarning[];
  stats: ImportStats;
  /** Page id → id of the `previous` page whose content (markdown and derived fields) it took without reading its blob. */
  reusedFrom: Map<string, string>;
}

export interface ExportOptions {
  /** Bytes of a blob the target tree does not hold (new or changed assets). */
  readBlob?: (oid: string) => Promise<Uint8Array>;
  /** Write every page from its model instead of reusing unchanged bytes. */
  reserialize?: boolean;
  /** Revision the target tree was imported (or exported) as; lets export delete files removed from the model. */
  base?: RevisionModel;
  /**
   * Page id → the file that holds the page in the target tree, for pages whose `git` does not say so because an
   * earlier export wrote them there: new pages (no `git`) and moved ones (their `git` is the path they left, no longer
   * theirs). See `ExportResult.revision` for where this export writes them.
   */
  exportedPaths?: ReadonlyMap<string, string>;
  /** Where pages are parsed and written (default: in this thread). A page over its budget is written unchanged. */
  codec?: import('./page-codec-runner.js').PageCodecRunner;
  /**
   * Ids of document pages whose markdown was not loaded because it is exactly the text of their git blob (`git.oid`):
   * their `markdown` is a placeholder. Such a page is unedited; its text is read (from the target tree, else
   * `readBlob`) only when the page must be written: changed fields, links to rewrite, `reserialize`, or a target
   * that does not hold the blob at the page's path. A page not written keeps the placeholder in the result's revision.
   */
  markdownInSource?: ReadonlySet<string>;
}

export interface ExportResult {
  /** Changed paths only: new bytes, or null for a deletion. */
  changes: Map<string, Uint8Array | null>;
  warnings: import('./errors.js').FormatWarning[];
  /** Revision updated with the `git` sources it now has in the exported tree (paths of new pages, …). */
  revision: RevisionModel;
}
