export type { PageFile, PageTitle, Style, Era, MarkdownWarning, ParseOptions, SerializeOptions, LiquidBlock, LiquidTag, LiquidAttribute } from './types.js';
export { FrontMatter } from './front-matter.js';
export type { FrontMatterLinks } from './front-matter.js';
export { parsePageFile } from './parse.js';
export { serializePageFile } from './serialize.js';
export { currentStyle, legacyStyle, detectStyle } from './style/detect.js';
export { MarkdownCodes, MarkdownFormatError, FrontMatterInvalidError, LiquidUnterminatedError, LiquidUnmatchedEndError, BinaryContentError, PageTooLargeError } from './errors.js';
export { parseLiquidTag, formatLiquidTag } from './liquid/tag.js';
export type { LiquidTagSpec, GitbookConstructPlugin } from './liquid/registry.js';
