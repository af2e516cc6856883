/**
 * Repository tree ⇄ revision converter (GitBook Git Sync format). Pure: no Temporal, no
 * database, no network. See ./model.ts for the revision model.
 */
export type {
  RevisionModel, PageModel, DocumentPage, GroupPage, LinkPage, ComputedPage, FileModel, Redirect, SpaceConfig, SummaryStyle,
  PageReference, ReferenceTarget, PageCover, MetaLinks, GitSource, SourceTree, SourceEntry, ImportOptions, ImportLimits,
  ImportResult, ImportStats, ExportOptions, ExportResult,
} from './model.js';
export { REVISION_MODEL_VERSION } from './model.js';
export { importTree, DEFAULT_LIMITS } from './import.js';
export { exportRevision } from './export.js';
export { readWorkingTree, gitBlobOid, treeFromFiles, memoryEntry, applyChanges } from './source-tree.js';
export { documents, allPages } from './summary/from-revision.js';
export {
  FormatError, FormatWarningCodes, RootOutsideRepositoryError, TooManyPagesError, MarkdownLayerUnavailableError,
  BlobUnavailableError, InvalidRevisionError, WorkingTreeError, NoContentError,
} from './errors.js';
export type { FormatWarning, FormatWarningCode, RawPageReason } from './errors.js';
