/**
 * Repository tree ⇄ revision converter (GitBook Git Sync format). Pure: no Temporal, no
 * database, no network. See ./model.ts for the revision model.
 * The one entry point of the format package: code outside `src/format/` imports only this module (lint rule
 * `format-single-entry`).
 */
export type {
  RevisionModel,
  PageModel,
  DocumentPage,
  GroupPage,
  LinkPage,
  ComputedPage,
  FileModel,
  Redirect,
  SpaceConfig,
  SummaryStyle,
  PageReference,
  ReferenceTarget,
  PageCover,
  MetaLinks,
  GitSource,
  SourceTree,
  SourceEntry,
  ImportOptions,
  ImportLimits,
  ImportResult,
  ImportStats,
  ExportOptions,
  ExportResult,
} from './model.js';
export { REVISION_MODEL_VERSION } from './model.js';
export { importTree, DEFAULT_LIMITS } from './import/index.js';
export { resolveSpaceConfig } from './gitbook-yaml.js';
export { exportRevision } from './export/index.js';
export { roundtripTree, compareTrees } from './roundtrip.js';
export type { TreeComparison } from './roundtrip.js';
export { readWorkingTree, gitBlobOid, treeFromFiles, memoryEntry, applyChanges } from './source-tree.js';
export { documents, allPages } from './summary/from-revision.js';
export { leadingEmoji, decodePage } from './page-codec.js';
export { resolveReference, type ReferenceIndex } from './resolve-reference.js';
export { inlinePageCodec, pageCodecOperations } from './page-codec-runner.js';
export type { PageCodecRunner, DecodedPageSummary } from './page-codec-runner.js';
export { parsePageFile, serializePageFile } from './markdown/index.js';
export type { PageFile, ParsePhase } from './markdown/index.js';
export {
  FormatError,
  FormatWarningCodes,
  RootOutsideRepositoryError,
  TooManyPagesError,
  SummaryTooComplexError,
  MarkdownLayerUnavailableError,
  BlobUnavailableError,
  InvalidRevisionError,
  WorkingTreeError,
  NoContentError,
  PageTooComplexError,
} from './errors.js';
export type { FormatWarning, FormatWarningCode, RawPageReason } from './errors.js';
export { fieldsFingerprint } from './page-codec.js';
export { isWithin } from './is-within.js';
export { slugify, uniqueSlug } from './slug.js';
export { nodesEqual, currentStyle } from './markdown/index.js';
export type { LiquidBlock, LiquidAttribute, Style } from './markdown/index.js';
