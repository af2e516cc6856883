import type { Handle, Join, Unsafe, Options as ToMarkdownOptions, State, Info } from 'mdast-util-to-markdown';
import type { Nodes } from 'mdast';
import type { LiquidBlock, LiquidTag, Style } from '../types.js';
import { formatLiquidTag } from '../liquid/tag.js';
import { listItemHandler } from './list-item.js';
import { textHandler, markerUnsafe } from './text.js';
import { destinationHandler, destinationUnsafe } from './destination.js';
import { tableHandler } from './table.js';
import { codeHandler } from './code.js';
import { strongHandler } from './strong.js';
import { relaxDelimiterEscapes, relaxTildes, tree } from './delimiter-escapes.js';
import { verifyPlainDelimiters } from './plain-delimiters.js';
import { encodeAttentionAfterNaN } from './nan-reference.js';
import { defaultHandlers } from 'mdast-util-to-markdown';
import { gfmFootnoteToMarkdown } from 'mdast-util-gfm-footnote';

/** `{% tag %}` … `{% endtag %}` blocks, children written as flow content. */
export const liquidBlockHandler: Handle = (node: LiquidBlock, _parent, state: State, info: Info) => {
  const data = node.data ?? {};
  const open = formatLiquidTag(node.name, node.attributes, data.openSpacing);
  if (node.selfClosing) return open;
  const close = formatLiquidTag(`end${node.name}`, [], data.closeSpacing ?? [' ', ' ']);
  if (node.children.length === 0) return `${open}\n${'\n'.repeat(data.blankAfterOpen ?? 0)}${close}`;
  const exit = state.enter('liquidBlock' as never);
  // A list before the block is not next to a list inside it: that one keeps the file's bullet (istex 2023, a hint after a list).
  state.bulletLastUsed = undefined;
  const inner = state.containerFlow(node as never, info as never);
  exit();
  return `${open}\n${'\n'.repeat(data.blankAfterOpen ?? 0)}${inner}\n${'\n'.repeat(data.blankBeforeClose ?? 0)}${data.closeIndent ?? ''}${close}`;
};

export const liquidTagHandler: Handle = (node: LiquidTag) => node.value;

/** Leading indentation / trailing whitespace kept on a paragraph or heading line (legacy exports keep `text ` + newline). */
function withWhitespace(base: Handle, style: Style): Handle {
  return (node, parent, state, info) => {
    const data = (node.data ?? {}) as { indent?: string; trailingWhitespace?: string; markerGap?: string };
    let written = verifyPlainDelimiters(state, tree, () => base(node, parent, state, info));
    if (data.markerGap && node.type === 'heading') written = written.replace(/^(#{1,6}) (?=\S)/, (_, marks: string) => marks + data.markerGap);
    // A parsed page knows which delimiters its source wrote plain; only a page built from a model needs the heuristics.
    const relaxed = encodeAttentionAfterNaN(style.plainDelimitersRecorded ? relaxTildes(written, style) : relaxDelimiterEscapes(written, style));
    const out = style.escapeEquals && style.escapeDashes ? relaxed : relaxLineStart(relaxed, style);
    return (data.indent ?? '') + out + (data.trailingWhitespace ?? '');
  };
}

/** The indentation recorded on a block written right of its container (style/spacing.ts). */
function withIndent(base: Handle): Handle {
  return (node, parent, state, info) => ((node.data as { indent?: string } | undefined)?.indent ?? '') + base(node, parent, state, info);
}

/**
 * `\=` and `\--` starting a line written plain (2020 exporter), except where the line is only `=` or `-`
 * (a heading underline or a thematic break). A line of `=` alone underlines only a line before it in the
 * same paragraph: on a paragraph's first line it stays plain (`* =` in a list of operators).
 */
function relaxLineStart(out: string, style: Style): string {
  let relaxed = style.escapeEquals ? out : out.replace(/^([ \t]*)\\=/, '$1=').replace(/(\n)([ \t]*)\\=(?!=*[ \t]*(?:\n|$))/g, '$1$2=');
  if (!style.escapeDashes) relaxed = relaxed.replace(/(^|\n)([ \t]*)\\(?=-{2,}[^-\s>])(?![-\s]*(?:\n|$))/g, '$1$2');
  return relaxed;
}

/**
 * A top-level list written indented in its source: every line keeps the indentation (style/spacing.ts).
 * A list written with its own recorded bullet counts as that bullet for the list right after it, which
 * switches bullets only when they would be the same (`- a` then `* b` stays so, 2020 exporter).
 */
function withListIndent(base: Handle): Handle {
  return (node, parent, state, info) => {
    const out = base(node, parent, state, info);
    const marker = (node.data as { marker?: string } | undefined)?.marker;
    if (marker && !(node as { ordered?: boolean | null }).ordered && state.bulletLastUsed === state.options.bullet) state.bulletLastUsed = marker;
    const indent = (node.data as { indent?: string } | undefined)?.indent;
    return indent ? out.replace(/^(?=.)/gm, indent) : out;
  };
}

/** A flow node keeps the whitespace-holding blank lines recorded before it (style/spacing.ts `BLANK_LINES_KEPT`). */
function withBlankLines(base: Handle): Handle {
  return (node, parent, state, info) => {
    const blank = (node.data as { blankLines?: string[] } | undefined)?.blankLines?.map((l) => l + '\n').join('') ?? '';
    return blank + base(node, parent, state, info);
  };
}

/** A blockquote keeps the empty `>` lines that ended it (style/spacing.ts `recordQuoteEnds`). */
const blockquoteHandler: Handle = (node, parent, state, info) => {
  const out = (defaultHandlers.blockquote as Handle)(node, parent, state, info);
  const n = (node.data as { emptyLinesAfter?: number } | undefined)?.emptyLinesAfter ?? 0;
  return out + '\n>'.repeat(n);
};

/** An empty footnote definition: GitBook writes the space after `[^label]:` all the same. */
const footnoteDefinitionHandler: Handle = (node, parent, state, info) => {
  const out = (gfmFootnoteToMarkdown().handlers!.footnoteDefinition as Handle)(node, parent, state, info);
  return (node as { children: unknown[] }).children.length === 0 && out.endsWith(':') ? out + ' ' : out;
};

/** Blank lines recorded in the model (`data.blankBefore`) win over the default single blank line. */
export const spacingJoin: Join = (_left, right) => {
  const b = (right.data as { blankBefore?: number } | undefined)?.blankBefore;
  return typeof b === 'number' ? b : undefined;
};

export function hardBreakHandler(style: Style): Handle {
  // Spaces GitBook wrote at the start of the next line (style/spacing.ts `recordBreakSpaces`).
  return (node: Nodes) => {
    const data = (node.data ?? {}) as { spacesAfter?: number; spacesBefore?: number };
    return (style.hardBreak === 'spaces' ? ' '.repeat(data.spacesBefore ?? 2) + '\n' : '\\\n') + ' '.repeat(data.spacesAfter ?? 0);
  };
}

const SPANS: Unsafe['notInConstruct'] = ['autolink', 'destinationLiteral', 'destinationRaw', 'reference', 'titleQuote', 'titleApostrophe'];

/** Escapes driven by the detected style, on top of mdast-util-to-markdown's defaults. */
export function styleUnsafe(style: Style): Unsafe[] {
  // GitBook escapes a `-` that starts a line's text before a digit or `>` (`\-1 is returned`, `* \-10V`,
  // `\-> arrow`, unless the page writes `->` plain), where mdast-util-to-markdown only escapes one before whitespace or `-`.
  const out: Unsafe[] = [markerUnsafe, ...destinationUnsafe(style), { atBreak: true, character: '-', after: style.escapeArrow ? '[\\d>]' : '\\d' }];
  if (style.escapeLiquid) {
    // Liquid-looking text that is not a block: GitBook writes `\{% … %\}`.
    out.push({ character: '{', after: '%', inConstruct: 'phrasing', notInConstruct: SPANS });
    out.push({ character: '}', before: '%', inConstruct: 'phrasing', notInConstruct: SPANS });
    out.push({ character: '{', after: '\\{', inConstruct: 'phrasing', notInConstruct: SPANS });
    out.push({ character: '}', after: '\\}', inConstruct: 'phrasing', notInConstruct: SPANS });
  }
  if (style.escapeParens) {
    out.push({ character: '(', inConstruct: 'phrasing', notInConstruct: SPANS });
    out.push({ character: ')', inConstruct: 'phrasing', notInConstruct: SPANS });
  }
  // Legacy exports escape `|` in prose and image alt text too (`\(int\|None\)`).
  if (style.escapePipe) out.push({ character: '|', inConstruct: ['phrasing', 'label'], notInConstruct: SPANS });
  if (style.escapeHash) out.push({ character: '#', inConstruct: 'phrasing', notInConstruct: SPANS });
  if (style.escapeClosingBracket) out.push({ character: ']', inConstruct: 'phrasing', notInConstruct: SPANS });
  return out;
}

export function toMarkdownOptions(style: Style): ToMarkdownOptions {
  return {
    bullet: style.bullet,
    bulletOther: style.bulletOther,
    bulletOrdered: style.orderedDelimiter,
    incrementListMarker: style.incrementListMarker,
    emphasis: style.emphasis,
    strong: style.strong,
    rule: style.rule,
    ruleRepetition: style.ruleRepetition,
    ruleSpaces: style.ruleSpaces,
    fence: style.fence,
    fences: true,
    listItemIndent: 'one',
    resourceLink: true,
    tightDefinitions: false,
    handlers: {
      liquidBlock: withBlankLines(liquidBlockHandler),
      liquidTag: liquidTagHandler,
      break: hardBreakHandler(style),
      listItem: withBlankLines(listItemHandler(style)),
      text: textHandler(style),
      link: destinationHandler(style, 'link'),
      image: destinationHandler(style, 'image'),
      definition: destinationHandler(style, 'definition'),
      table: withBlankLines(tableHandler(style)),
      code: withBlankLines(codeHandler),
      strong: strongHandler(),
      blockquote: withBlankLines(blockquoteHandler),
      html: withBlankLines(defaultHandlers.html as Handle),
      thematicBreak: withBlankLines(withIndent(defaultHandlers.thematicBreak as Handle)),
      footnoteDefinition: footnoteDefinitionHandler,
      list: withBlankLines(withListIndent(defaultHandlers.list as Handle)),
      paragraph: withBlankLines(withWhitespace(defaultHandlers.paragraph as Handle, style)),
      heading: withBlankLines(withWhitespace(defaultHandlers.heading as Handle, style)),
    } as never,
    join: [spacingJoin],
    unsafe: styleUnsafe(style),
  };
}

export type { Nodes };
