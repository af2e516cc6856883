import type { Root, Parent, Literal, Data } from 'mdast';
import type { FrontMatter } from './front-matter.js';
import type { MarkdownWarning } from './warning.js';
import type { MixedLineEndings } from './style/line-endings.js';

export type { MarkdownWarning } from './warning.js';

/** One `name="value"` (or positional `"value"` / bare expression) argument of a Liquid tag. */
export interface LiquidAttribute {
  /** Attribute name; `null` for positional arguments (`{% include "x.md" %}`, `{% if expr %}`). */
  name: string | null;
  /** Raw value text between the quotes (escapes such as `\"` or `\_` kept verbatim). */
  value: string;
  /** Quote character used in the source: `"`, `'` or `''` for unquoted (legacy `required=true`). */
  quote: '"' | "'" | '';
}

/** A `{% name … %}` … `{% endname %}` block (or a self-closing `{% name … %}` line). */
export interface LiquidBlock extends Parent {
  type: 'liquidBlock';
  name: string;
  attributes: LiquidAttribute[];
  /** True when the tag has no end tag (`{% embed url="…" %}` alone, `{% include %}`, `{% page-ref %}`). */
  selfClosing: boolean;
  // children: flow content between the tags
  data?: LiquidBlockData;
}

export interface LiquidBlockData extends Data {
  /** Whitespace inside the delimiters when not the canonical single space. */
  openSpacing?: [string, string];
  closeSpacing?: [string, string];
  /** Blank lines between the open tag and the first child (GitBook: 0). */
  blankAfterOpen?: number;
  /** Blank lines between the last child and the end tag (GitBook: 0). */
  blankBeforeClose?: number;
  /** Spaces before the end tag, written by GitBook inside the last list item it closes (`* last\n  {% endupdate %}`). */
  closeIndent?: string;
  /** Blank lines before this block (set on any flow node when it differs from one). */
  blankBefore?: number;
  [key: string]: unknown;
}

/** A lone Liquid tag line that could not be paired (kept verbatim, reported as a warning). */
export interface LiquidTag extends Literal {
  type: 'liquidTag';
  /** Full tag text, e.g. `{% endhint %}`. */
  value: string;
  name: string;
  closing: boolean;
}

declare module 'mdast' {
  interface RootContentMap {
    liquidBlock: LiquidBlock;
    liquidTag: LiquidTag;
  }
  /** An opaque page's single HTML node (its text kept byte for byte). */
  interface HtmlData {
    opaque?: boolean;
  }
  interface BlockContentMap {
    liquidBlock: LiquidBlock;
    liquidTag: LiquidTag;
  }
}

export type Era = 'current' | 'legacy';

/** Formatting conventions detected in a file; re-serializing with them reproduces the file's habits. */
export interface Style {
  era: Era;
  bullet: '*' | '-' | '+';
  /** Bullet used for a list directly inside another list item when it differs (remark's bulletOther). */
  bulletOther: '*' | '-' | '+';
  orderedDelimiter: '.' | ')';
  /** Whether ordered lists count up (`1.`, `2.`) or repeat the start number (`1.`, `1.`). */
  incrementListMarker: boolean;
  emphasis: '_' | '*';
  strong: '*' | '_';
  rule: '*' | '-' | '_';
  ruleRepetition: number;
  ruleSpaces: boolean;
  fence: '`' | '~';
  /** Hard break written as `\` + newline (`backslash`) or two trailing spaces (`spaces`). */
  hardBreak: 'backslash' | 'spaces';
  /** Pipe-table cells padded to column width (current) or not (legacy). */
  tablePadding: boolean;
  /** Delimiter row cells `:---` style (legacy) — aligned delimiters written with colon even when unset. */
  tableDelimiterLegacy: boolean;
  /** Escape `(`/`)` and `]` in prose (legacy exporter). */
  escapeParens: boolean;
  escapeClosingBracket: boolean;
  /** Escape `|` in prose outside tables (`\(int\|None\)`, legacy exporter). */
  escapePipe: boolean;
  /** Escape `#` in prose (`\# comment`, legacy exporter). */
  escapeHash: boolean;
  /** Escape `~` in prose (`\~/.pgpass`, mdast default with GFM strikethrough) or write it plain where that re-parses the same. */
  escapeTilde: boolean;
  /** Escape a `-` starting a line's text before `>` (`\\-> arrow`); later exports of a page write it plain (`-> arrow`). */
  escapeArrow: boolean;
  /**
   * Text nodes record which `*`/`_`/`` ` `` their source wrote plain (a parsed page): those are written
   * back plain; without a record (a page built from a model), escaped pairs are relaxed by heuristics.
   */
  plainDelimitersRecorded: boolean;
  /** Escape every `_` in prose (`eth\\_send`), not only where it could start emphasis. */
  escapeUnderscore: 'always' | 'boundary';
  /** ASCII punctuation written backslash-escaped inside link/image destinations (legacy: `_~`). */
  destinationEscapes: string;
  /** `&` inside link destinations written `\\&` (mdast default, current GitBook) or bare. */
  destinationAmpersand: 'escaped' | 'plain';
  /** Escape `&` before a letter/`#` (`W\\&B`, mdast default) or only where it would form a reference (legacy). */
  escapeAmpersand: 'always' | 'reference';
  /** A literal backslash ending a paragraph is written `\\\\` (escaped) or `\\` (legacy). */
  escapeTrailingBackslash: boolean;
  /** Liquid-looking text in prose written as `\\{% … %\\}` (GitBook) or left as is (hand-written). */
  escapeLiquid: boolean;
  /** Use named entities (&quot; …) rather than hex references for characters that must be encoded. */
  namedEntities: boolean;
  /** Every `<` in prose written `&lt;`, even where no escape is needed (`&lt;= 12`; legacy files with no plain `<`). */
  ltEntityAlways: boolean;
  /** With named entities, `>` in prose written `&gt;` (a legacy exporter) or left as is (`->`, `panel > view`). */
  gtEntity: boolean;
  /** Apostrophes in image alt text written `&apos;` (a legacy exporter's HTML-encoded captions). */
  altApos: boolean;
  /** Ampersands in image alt text written `&amp;` (the same exporter's HTML-encoded captions: `Build &amp; Deploy`). */
  altAmp: boolean;
  /** Double quotes in image alt text written `&quot;` (the same exporter's HTML-encoded captions: `![ &quot;Adding intent](…)`). */
  altQuot: boolean;
  /** Non-ASCII characters in image alt text written as hex references (`![&#xC624;&#xBE0C;](…)`, the 2020 exporter's encoded captions). */
  altHex: boolean;
  /** Characters among `~{}` that image alt text writes plain although prose escapes them (the 2020 exporter's captions). */
  altPlain: string;
  /** Escape `=` starting a line's text (mdast default, GitBook 2021 on) or only where it would underline a heading (2020 exporter). */
  escapeEquals: boolean;
  /** Escape `--` starting a line's text before other text (mdast default) or write it plain (`--A smart…`, 2020 exporter). */
  escapeDashes: boolean;
  /** List items with several blocks use "wide" markers (`*   `) with a 4-column indent. */
  listItemIndent: 'one' | 'tab' | 'mixed';
  /** Number of newlines ending the file (current: 1, legacy: 2). 0 when the file has no final newline. */
  trailingNewlines: number;
  /** Spaces after the last line break of a file that ends without one (`…\n    `), written after the trailing newlines. */
  trailingSpaces: string;
  /** Lines holding only spaces or tabs between the last block and the line endings ending the file (`\n\n ` in `…Planted. \n\n \n\n\n\n`). */
  trailingBlankLines: string;
  /** Empty lines before the first line (a page GitBook wrote starting with a line feed). */
  leadingNewlines: number;
  /** Line ending of the file. */
  lineEnding: '\n' | '\r\n';
  /** Line endings other than `\n` in a file that mixes them (see style/line-endings.ts); null otherwise. */
  mixedLineEndings: MixedLineEndings | null;
  /** A byte-order mark at the start. */
  bom: boolean;
  /** Blank lines between the front matter and the body. */
  blankAfterFrontMatter: number;
  /** Blank lines between the title heading and the body. */
  blankAfterTitle: number;
}

export interface PageTitle {
  /** Plain title text (Markdown escapes removed). */
  text: string;
  /** Custom anchor id from `<a href="#x" id="x"></a>`. */
  anchor?: string;
}

export interface PageFile {
  frontMatter: FrontMatter | null;
  title: PageTitle | null;
  document: Root;
  style: Style;
  /** Problems found while parsing (invalid YAML, unterminated Liquid blocks, …); never thrown. */
  warnings: MarkdownWarning[];
}

export interface ParseOptions {
  /** Maximum accepted page size in bytes (UTF-16 length); larger input is kept as a single raw block with a warning. Default 2 MiB. */
  maxLength?: number;
  /**
   * Called at the end of each phase of the parse, with its name (`micromark`, `liquid`, `styleDetect`, `styleRecord`,
   * `assemble`): the per-phase benchmark (bench/format-markdown.ts) reads a clock there. Nothing else uses it.
   */
  onPhase?: (phase: ParsePhase) => void;
  /**
   * `false`: the tree is all the caller needs (a published page's render): the writing style is neither detected nor
   * recorded on the tree (the `styleDetect` and `styleRecord` phases, ~15% of a parse), and `style` is the default
   * one. The tree's nodes and values are the same; only what the exporter reads of their `data` is left out.
   */
  style?: boolean;
}

/** The phases of `parsePageFile`, in order (`prepare`: BOM, line endings and the size checks before micromark). */
export type ParsePhase = 'prepare' | 'micromark' | 'liquid' | 'styleDetect' | 'styleRecord' | 'assemble';

export interface SerializeOptions {
  /** Original text and its parsed page: unchanged blocks keep their original bytes (minimal diff). */
  original?: { text: string; page: PageFile };
}
