import type { Element, ElementContent } from 'hast';
import type { Code } from 'mdast';
import type { State } from 'mdast-util-to-hast';
import { el, attr, text } from './hast.js';
import type { BlockRenderer } from './types.js';
import { highlightLines, type HighlightBudget } from './highlight.js';

/** GitBook's expandable code shows this many lines until the reader expands it. */
export const EXPANDABLE_LINES = 10;

/**
 * A fenced code block: one `span.line` per line (line numbers are CSS counters), the language as a class, tokens
 * as `pl-*` spans when the language is known and the block within the highlighting caps (./highlight.ts).
 */
export function codeHandler(budget: HighlightBudget) {
  return (_state: State, node: Code): Element => codeElement(node, budget);
}

function codeElement(node: Code, budget: HighlightBudget): Element {
  const value = node.value.replace(/\n$/, '');
  const lines = highlightLines(value, node.lang, budget) ?? value.split('\n').map((line) => (line === '' ? [] : [text(line)]));
  const children: ElementContent[] = [];
  lines.forEach((line, i) => {
    children.push(el('span', { className: ['line'] }, line));
    if (i < lines.length - 1) children.push(text('\n'));
  });
  const lang = node.lang ? [`language-${node.lang.replace(/[^\w+#-]/g, '')}`] : [];
  return el('pre', { tabIndex: 0 }, [el('code', lang.length > 0 ? { className: lang } : {}, children)]);
}

/** The options GitBook writes on a code block (`{% code %}` attributes, or `data-*` on the HTML `<pre>` form). */
export interface CodeOptions {
  title?: string | undefined;
  lineNumbers: boolean;
  wrap: boolean;
  expandable: boolean;
  fullWidth: boolean;
}

function lineCount(pre: Element): number {
  const count = (nodes: ElementContent[]): number =>
    nodes.reduce((n, c) => n + (c.type === 'text' ? (c.value.match(/\n/g) ?? []).length : c.type === 'element' ? count(c.children) : 0), 0);
  return count(pre.children) + 1;
}

/**
 * A code block with its options, as GitBook shows it: the title as a caption above the code; line numbers (only
 * for more than one line, as GitBook); wrapped lines; an expandable block shows its first lines and a control to
 * show them all (a checkbox and its label: no script).
 */
export function codeFigure(pre: Element, options: CodeOptions, nextId: (prefix: string) => string): Element {
  const lines = lineCount(pre);
  const classes: string[] = ['code-block'];
  if (options.lineNumbers && lines > 1) classes.push('line-numbers');
  if (options.wrap) classes.push('wrap');
  if (options.fullWidth) classes.push('full-width');
  const children: ElementContent[] = options.title ? [el('figcaption', {}, [text(options.title)])] : [];
  if (options.expandable && lines > EXPANDABLE_LINES) {
    const id = nextId('code-expand');
    classes.push('expandable-code');
    children.push(
      el('input', { type: 'checkbox', id, className: ['code-expand'] }),
      pre,
      el('label', { htmlFor: [id], className: ['code-expand-label'] }, [text(`Show all ${lines} lines`)]),
    );
  } else children.push(pre);
  return el('figure', { className: classes }, children);
}

/** `{% code title="…" overflow="wrap" lineNumbers="true" fullWidth="false" expandable="true" %}` around a fence. */
export const codeBlock: BlockRenderer = {
  names: ['code'],
  render(node, { state, nextId }) {
    const inner = state.all(node as never);
    const pre = inner.find((c): c is Element => c.type === 'element' && c.tagName === 'pre');
    const options: CodeOptions = {
      title: attr(node, 'title'),
      lineNumbers: attr(node, 'lineNumbers') === 'true',
      wrap: attr(node, 'overflow') === 'wrap',
      expandable: attr(node, 'expandable') === 'true',
      fullWidth: attr(node, 'fullWidth') === 'true',
    };
    if (!pre || inner.some((c) => c.type === 'element' && c !== pre)) {
      return el('figure', { className: ['code-block'] }, [...(options.title ? [el('figcaption', {}, [text(options.title)])] : []), ...inner]);
    }
    return codeFigure(pre, options, nextId);
  },
};

function stripTrailingNewline(node: Element): boolean {
  const last = node.children.at(-1);
  if (last?.type === 'text' && last.value.endsWith('\n')) {
    last.value = last.value.slice(0, -1);
    return true;
  }
  return last?.type === 'element' ? stripTrailingNewline(last) : false;
}

/** The children of a `<code>` written as HTML, regrouped into one `span.line` per line (for line numbers). */
export function intoLines(code: Element): void {
  const lines: ElementContent[][] = [[]];
  for (const child of code.children) {
    if (child.type !== 'text') {
      lines.at(-1)!.push(child);
      // GitBook closes a bold line after its newline (`<strong>a\n</strong>b`): the line ends with the element.
      if (child.type === 'element' && stripTrailingNewline(child)) lines.push([]);
      continue;
    }
    child.value.split('\n').forEach((part, i) => {
      if (i > 0) lines.push([]);
      if (part !== '') lines.at(-1)!.push(text(part));
    });
  }
  if (lines.length > 1 && lines.at(-1)!.length === 0) lines.pop();
  code.children = lines.flatMap((line, i) => [el('span', { className: ['line'] }, line), ...(i < lines.length - 1 ? [text('\n')] : [])]);
}

const isBlank = (c: ElementContent) => c.type === 'text' && c.value.trim() === '';

/**
 * Highlighted lines as GitBook writes them: in the HTML form of a code block, a line whose whole content is bold
 * (`<strong>line\n</strong>`). The line gets the class `highlighted` and its content a `<mark>` (announced as
 * highlighted by screen readers; the stylesheet adds a bar beside the line and the text stays bold, so the
 * highlight is not shown by colour alone). Expects the lines of ./intoLines; answers how many lines it marked.
 */
export function markHighlightedLines(code: Element): number {
  let marked = 0;
  for (const line of code.children) {
    if (line.type !== 'element' || line.tagName !== 'span') continue;
    const content = line.children.filter((c) => !isBlank(c));
    const strong = content[0];
    if (content.length !== 1 || strong?.type !== 'element' || strong.tagName !== 'strong') continue;
    if (strong.children.every(isBlank)) continue;
    line.properties.className = ['line', 'highlighted'];
    line.children = line.children.map((c) => (c === strong ? el('mark', {}, [c]) : c));
    marked += 1;
  }
  return marked;
}

/** Whether a `<code>` of GitBook's HTML form holds a whole bold line (a highlighted line). */
export function hasBoldLine(code: Element): boolean {
  const kids = code.children;
  return kids.some((c, i) => {
    if (c.type !== 'element' || c.tagName !== 'strong') return false;
    const before = kids[i - 1];
    const startsLine = i === 0 || (before?.type === 'text' && before.value.endsWith('\n'));
    const last = c.children.at(-1);
    const after = kids[i + 1];
    const endsLine = (last?.type === 'text' && last.value.endsWith('\n')) || after === undefined || (after.type === 'text' && after.value.startsWith('\n'));
    return startsLine && endsLine;
  });
}

/** GitBook's HTML form of a code block with formatting: `<pre data-title="…" data-line-numbers data-overflow="wrap" data-expandable="true">`. */
export function htmlCodeOptions(properties: Element['properties']): CodeOptions | null {
  const has = (k: string) => properties[k] !== undefined && properties[k] !== null && properties[k] !== false;
  if (!['dataTitle', 'dataLineNumbers', 'dataOverflow', 'dataExpandable', 'dataFullWidth'].some(has)) return null;
  return {
    title: typeof properties.dataTitle === 'string' ? properties.dataTitle : undefined,
    lineNumbers: has('dataLineNumbers') && String(properties.dataLineNumbers) !== 'false',
    wrap: properties.dataOverflow === 'wrap',
    expandable: String(properties.dataExpandable) === 'true',
    fullWidth: String(properties.dataFullWidth) === 'true',
  };
}
