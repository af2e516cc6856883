/**
 * What the export phases share: the inputs, the revision being written (a copy, updated with the git sources the
 * pages and files get), the changes and warnings, and what each phase adds for the later ones. Each phase takes only
 * the part it reads and writes (`Pick<…>`).
 */
import type { FormatWarning } from '../errors.js';
import type { DocumentPage, ExportOptions, PageModel, RevisionModel, SourceTree } from '../model.js';
import { documents } from '../summary/from-revision.js';
import { TargetBlobs } from './target-blobs.js';

export interface ExportContext {
  readonly target: SourceTree;
  readonly options: ExportOptions;
  /** A copy of the input revision; the result's revision. */
  readonly revision: RevisionModel;
  readonly warnings: FormatWarning[];
  /** Changed paths only: new bytes, or null for a deletion. */
  readonly changes: Map<string, Uint8Array | null>;
  /** Document pages in TOC order. */
  readonly docs: DocumentPage[];
  /** Page files of the target that the space manages (may be deleted), and its space files. */
  basePages: Set<string>;
  baseFiles: Set<string>;
  /** Page id → URL path in the revision's layout. */
  urlPaths: Map<string, string>;
  /** Page id → file path in the exported tree, and the file paths taken. */
  paths: Map<string, string>;
  taken: Set<string>;
  /** Page id → the file path a moved page leaves. */
  moved: Map<string, string>;
  /** Space files some page references in the exported revision. */
  referencedNow: Set<string>;
  readonly blobs: TargetBlobs;
}

/**
 * The file that holds `page` in the target tree, as far as known: where an earlier export wrote it
 * (`options.exportedPaths`), else its git path.
 */
export function targetFileOf(options: Pick<ExportOptions, 'exportedPaths'>, page: DocumentPage): string | undefined {
  return options.exportedPaths?.get(page.id) ?? page.git?.path;
}

/**
 * The revision the export writes to: new objects for the revision, its config, summary, pages (the tree) and files,
 * whose fields the phases reassign (`page.git = …`, `page.markdown = …`, `revision.files = …`), never change in place;
 * what those fields hold (strings, references, front matter) is shared with `input`, which stays as it was and may be
 * frozen (a deep copy of 1,000 pages took about 8 ms of each export). `test/format/export-input-untouched.test.ts`
 * exports deep-frozen revisions.
 */
export function revisionCopy(input: RevisionModel): RevisionModel {
  const copyPages = (pages: readonly PageModel[]): PageModel[] => pages.map((p) => ({ ...p, children: copyPages(p.children) }));
  return { ...input, config: { ...input.config }, summary: { ...input.summary }, pages: copyPages(input.pages), files: input.files.map((f) => ({ ...f })) };
}

export function createExportContext(input: RevisionModel, target: SourceTree, options: ExportOptions): ExportContext {
  const revision = revisionCopy(input);
  return {
    target,
    options,
    revision,
    warnings: [],
    changes: new Map(),
    docs: [...documents(revision.pages)],
    basePages: new Set(),
    baseFiles: new Set(),
    urlPaths: new Map(),
    paths: new Map(),
    taken: new Set(),
    moved: new Map(),
    referencedNow: new Set(),
    blobs: new TargetBlobs(target, options.readBlob),
  };
}
