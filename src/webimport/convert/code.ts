import type { Element } from 'hast';
import { matches, select } from 'hast-util-select';
import type { Code } from 'mdast';
import { classNames } from '../extract/index.js';
import { remove } from '../extract/remove.js';
import type { HtmlConstruct } from './construct.js';
import { liquidBlock } from './liquid.js';
import { plainText, rawText } from './text.js';

/** Line-number gutters, prompts' copy helpers and buttons generators put inside code blocks. */
const GUTTERS = [
  '.linenos',
  '.lineno',
  '.linenodiv',
  'td.linenos',
  '.line-numbers-rows',
  '[class*="codeLineNumber"]',
  '.gutter',
  'button',
  '.copybtn',
  '.md-clipboard',
  'span.filename',
  '.code-block-caption',
  '[class*="codeBlockTitle"]',
];
/** Where generators put a code block's title, most specific first. */
const TITLES = ['.code-block-caption .caption-text', '.code-block-caption', '[class*="codeBlockTitle"]', 'span.filename', '.filename'];
/** Classes that carry no language. */
const NO_LANGUAGE = new Set(['default', 'none', 'nohighlight', 'plaintext-nohighlight']);

/** The language named by the classes of the block, its `pre`/`code` and wrappers (`language-x`, `lang-x`, `highlight-x`, `sourceCode x`). */
export function codeLanguage(elements: Element[]): string | null {
  for (const element of elements) {
    const classes = classNames(element);
    for (const c of classes) {
      const m = /^(?:language|lang|highlight|brush:?)-(.+)$/.exec(c);
      if (m && !['source', 'text-only'].includes(m[1]!)) return NO_LANGUAGE.has(m[1]!) ? null : m[1]!;
    }
    if (classes.includes('sourceCode')) {
      const other = classes.find((c) => c !== 'sourceCode' && c !== 'numberSource');
      if (other) return other;
    }
  }
  return null;
}

/**
 * A code block's text exactly as shown, gutters left out: Pygments tables (`td.code`), Docusaurus/Prism token lines,
 * plain `pre`. One trailing newline (the generators' own) is dropped.
 */
export function codeText(pre: Element): string {
  const copy = structuredClone(pre);
  remove(copy, GUTTERS);
  const lines = collect(copy, (e) => classNames(e).includes('token-line'));
  const text = lines.length > 0 ? lines.map((line) => rawText(line).replace(/\n$/, '')).join('\n') : rawText(copy);
  return text.replace(/\n$/, '');
}

function collect(node: Element, test: (e: Element) => boolean): Element[] {
  const found: Element[] = [];
  for (const child of node.children) {
    if (child.type !== 'element') continue;
    if (test(child)) found.push(child);
    else found.push(...collect(child, test));
  }
  return found;
}

/** The `pre` of a code wrapper (Sphinx `div.highlight-x`, Material `div.highlight`, Docusaurus container, Pygments table). */
function preOf(element: Element): Element | null {
  if (element.tagName === 'pre') return element;
  const table = select('table.highlighttable', element);
  if (table) return (select('td.code pre', table) ?? null) as Element | null;
  return (select('pre', element) ?? null) as Element | null;
}

/** Every element from `element` down to its `pre` and that `pre`'s `code`: where classes may name the language. */
function chain(element: Element, pre: Element): Element[] {
  const path: Element[] = [];
  const walk = (node: Element): boolean => {
    path.push(node);
    if (node === pre) return true;
    for (const child of node.children) if (child.type === 'element' && walk(child)) return true;
    path.pop();
    return false;
  };
  walk(element);
  const code = pre.children.find((c): c is Element => c.type === 'element' && c.tagName === 'code');
  return [...(code ? [code] : []), ...path.reverse()];
}

const WRAPPER =
  'div[class*="highlight-"], div.highlight, div.literal-block-wrapper, div.codehilite, div[class*="codeBlockContainer"], div.theme-code-block, div.sourceCode, div.code-block, figure.highlight';

/** Code blocks → fenced code with their language; a titled block → `{% code title="…" %}` around it. */
export const codeConstruct: HtmlConstruct = {
  name: 'code',
  tagNames: ['pre', 'div', 'figure'],
  matches: (element) => (element.tagName === 'pre' ? true : matches(WRAPPER, element) && preOf(element) !== null),
  toMdast(_state, element) {
    const pre = preOf(element)!;
    const titleElement = element === pre ? null : (TITLES.map((selector) => select(selector, element)).find(Boolean) ?? null);
    const title = titleElement ? plainText(titleElement) : '';
    const code: Code = { type: 'code', lang: codeLanguage(chain(element, pre)), meta: null, value: codeText(pre) };
    return title ? (liquidBlock('code', { title }, [code]) as never) : code;
  },
};
