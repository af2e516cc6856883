import { unified } from 'unified';
import remarkParse from 'remark-parse';
import { fromMarkdown, type Extension as FromMarkdownExtension } from 'mdast-util-from-markdown';
import type { Extension } from 'micromark-util-types';
import { remarkGitbookGfm, syntaxFor } from './plugins/gfm.js';
import { remarkGitbookMath } from './plugins/math.js';
import remarkFrontmatter from 'remark-frontmatter';
import type { Root, RootContent, Heading, Parent, Nodes } from 'mdast';
import { toString } from 'mdast-util-to-string';
import type { PageFile, ParseOptions, ParsePhase, MarkdownWarning, PageTitle, Style } from './types.js';
import { FrontMatter } from './front-matter.js';
import { remarkLiquid } from './liquid/remark-liquid.js';
import { pairLiquidTags } from './liquid/pair.js';
import { defaultRegistry } from './plugins/index.js';
import { detectStyle, currentStyle } from './style/detect.js';
import { BinaryContentError, PageTooLargeError } from './errors.js';
import { blockTransforms } from './plugins/transforms.js';
import { joinTableCodeRows } from './plugins/table-code-rows.js';
import { recordBreakSpaces, recordQuoteEnds, recordSpacing } from './style/spacing.js';
import { recordListMarkers } from './style/list-markers.js';
import { recordPlainDelimiters } from './style/plain-delimiters.js';
import { recordEscapedPunctuation } from './style/escaped-punctuation.js';
import { normalizeCodeLineEndings, recordLineEndings, type MixedLineEndings } from './style/line-endings.js';
import { recordCellSpacing } from './style/table-cells.js';
import { recordCodeSyntax } from './style/code-fences.js';

const registry = defaultRegistry();
const processor = unified()
  .use(remarkParse)
  .use(remarkGitbookGfm)
  .use(remarkGitbookMath)
  .use(remarkFrontmatter, ['yaml'])
  .use(remarkLiquid, { registry })
  .freeze();
const syntax = processor.data('micromarkExtensions') as Extension[];
const mdastExtensions = processor.data('fromMarkdownExtensions') as FromMarkdownExtension[];

/**
 * The tree of `text`, as `processor.parse` gives it (remark-parse's call of mdast-util-from-markdown), without the
 * GFM syntax extensions whose constructs cannot occur in `text` (./plugins/gfm.ts): their attempts all fail.
 */
function parseTree(text: string): Root {
  return fromMarkdown(text, { extensions: syntaxFor(syntax, text), mdastExtensions });
}

/**
 * Pages above this size are kept as one raw block (with a PAGE_TOO_LARGE warning): micromark is
 * super-linear on very large flat documents (0.5 MB of short paragraphs takes seconds), and the
 * largest GitBook page in the corpus is ~215 KB.
 */
export const DEFAULT_MAX_LENGTH = 2 * 1024 * 1024;

const ANCHOR = /^\s*<a href="#([^"]*)" id="\1"><\/a>$/;

/** Parse a GitBook page file. Never throws for bad input: problems are reported in `warnings`. */
export function parsePageFile(input: string, options: ParseOptions = {}): PageFile {
  const warnings: MarkdownWarning[] = [];
  const style = currentStyle();
  let text = input;
  if (text.startsWith('\uFEFF')) {
    style.bom = true;
    text = text.slice(1);
  }
  if (/\r\n/.test(text) && !/(^|[^\r])\n/.test(text)) {
    style.lineEnding = '\r\n';
    text = text.replace(/\r\n/g, '\n');
  }
  const mixedLineEndings = recordLineEndings(text);
  const nul = text.indexOf('\u0000');
  const max = options.maxLength ?? DEFAULT_MAX_LENGTH;
  if (nul >= 0 || text.length > max) {
    warnings.push((nul >= 0 ? new BinaryContentError(nul) : new PageTooLargeError(text.length, max)).toWarning());
    return opaquePage(text, style, warnings);
  }

  const phase = options.onPhase ?? noPhase;
  phase('prepare');
  const tree = parseTree(text);
  phase('micromark');
  pairLiquidTags(tree, registry, warnings);
  if (text.includes('<pre')) joinTableCodeRows(tree, text, parseTree);
  if (mixedLineEndings) normalizeCodeLineEndings(tree);
  for (const t of blockTransforms) t(tree, text);
  phase('liquid');

  if (options.style !== false) recordStyle(text, tree, style, mixedLineEndings, phase);

  let frontMatter: FrontMatter | null = null;
  let index = 0;
  const first = tree.children[0];
  if (first?.type === 'yaml') {
    frontMatter = FrontMatter.parse(first.value === '' ? '' : first.value + '\n');
    if (frontMatter.error) warnings.push(frontMatter.error.toWarning());
    index = 1;
  }
  let title: PageTitle | null = null;
  const head = tree.children[index];
  if (head?.type === 'heading' && head.depth === 1 && isSimpleTitle(head)) {
    title = titleOf(head);
    if (frontMatter) style.blankAfterFrontMatter = blankBefore(head);
    index++;
  } else if (frontMatter) style.blankAfterFrontMatter = head ? blankBefore(head) : 0;
  if (title) {
    const next = tree.children[index];
    style.blankAfterTitle = next ? blankBefore(next) : 1;
  }
  const rest = tree.children.slice(index);
  const nextNode = rest[0];
  if (nextNode?.data && 'blankBefore' in nextNode.data) delete (nextNode.data as Record<string, unknown>).blankBefore;
  const document: Root = { type: 'root', children: rest };
  if (tree.position) document.position = tree.position;
  phase('assemble');
  return { frontMatter, title, document, style, warnings };
}

function noPhase(): void {}

/** The page's writing style: detected, then recorded on the tree's nodes (what the exporter writes back). */
function recordStyle(text: string, tree: Root, style: Style, mixedLineEndings: MixedLineEndings | null, phase: (p: ParsePhase) => void): void {
  const detected = detectStyle(text, tree);
  Object.assign(style, detected, { bom: style.bom, lineEnding: style.lineEnding, mixedLineEndings });
  phase('styleDetect');
  recordSpacing(tree, text);
  recordQuoteEnds(tree, text);
  recordBreakSpaces(tree, text);
  recordListMarkers(text, tree, style);
  recordPlainDelimiters(text, tree, style);
  recordEscapedPunctuation(text, tree, style);
  recordCellSpacing(text, tree, style);
  recordCodeSyntax(text, tree, style);
  style.plainDelimitersRecorded = true;
  phase('styleRecord');
}

function blankBefore(node: RootContent): number {
  const b = (node.data as { blankBefore?: number } | undefined)?.blankBefore;
  return b ?? 1;
}

const OPEN_ANCHOR = /^<a href="#([^"]*)" id="\1">$/;

/** Split a heading's children into body and custom anchor (`<a href="#x" id="x"></a>` as one or two html nodes). */
function splitAnchor(head: Heading): { body: Heading['children']; anchor?: string } {
  const kids = head.children;
  const last = kids[kids.length - 1];
  const prev = kids[kids.length - 2];
  if (last?.type === 'html') {
    const one = ANCHOR.exec(' ' + last.value);
    if (one) return { body: kids.slice(0, -1), anchor: one[1]! };
    if (last.value === '</a>' && prev?.type === 'html') {
      const m = OPEN_ANCHOR.exec(prev.value);
      if (m) return { body: kids.slice(0, -2), anchor: m[1]! };
    }
  }
  return { body: kids };
}

/** A title heading is kept as `title` only when its text round-trips (plain text + optional anchor). */
function isSimpleTitle(head: Heading): boolean {
  const { body, anchor } = splitAnchor(head);
  if (anchor !== undefined) {
    const lastText = body[body.length - 1];
    if (body.length > 0 && !(lastText?.type === 'text' && lastText.value.endsWith(' '))) return false;
  }
  return body.every((c) => c.type === 'text');
}

function titleOf(head: Heading): PageTitle {
  const { body, anchor } = splitAnchor(head);
  const text = toString({ type: 'paragraph', children: body } as Parent as Nodes);
  return anchor === undefined ? { text } : { text: text.replace(/ $/, ''), anchor };
}

function opaquePage(text: string, style: PageFile['style'], warnings: MarkdownWarning[]): PageFile {
  let trailing = 0;
  for (let i = text.length - 1; i >= 0 && text[i] === '\n'; i--) trailing++;
  style.trailingNewlines = trailing;
  const value = text.slice(0, text.length - trailing);
  const document: Root = { type: 'root', children: value === '' ? [] : [{ type: 'html', value, data: { opaque: true } }] };
  return { frontMatter: null, title: null, document, style, warnings };
}
