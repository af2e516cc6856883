export type {
  PageFile,
  PageTitle,
  Style,
  Era,
  MarkdownWarning,
  ParseOptions,
  ParsePhase,
  SerializeOptions,
  LiquidBlock,
  LiquidTag,
  LiquidAttribute,
} from './types.js';
export { FrontMatter } from './front-matter.js';
export type { FrontMatterLinks } from './front-matter.js';
export { parsePageFile, DEFAULT_MAX_LENGTH } from './parse.js';
export { serializePageFile } from './serialize/index.js';
export { currentStyle, legacyStyle, detectStyle } from './style/detect.js';
export {
  MarkdownCodes,
  MarkdownFormatError,
  FrontMatterInvalidError,
  LiquidUnterminatedError,
  LiquidUnmatchedEndError,
  BinaryContentError,
  PageTooLargeError,
} from './errors.js';
export { parseLiquidTag, formatLiquidTag } from './liquid/tag.js';
export type { LiquidTagSpec, GitbookConstructPlugin } from './liquid/registry.js';
export { pageFilesEqual, nodesEqual, describeDifference } from './equal.js';
export { collectReferences, rewriteReferences } from './references.js';
export type { Reference, ReferenceKind } from './references.js';
