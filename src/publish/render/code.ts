import type { Element, ElementContent } from 'hast';
import type { Code } from 'mdast';
import type { State } from 'mdast-util-to-hast';
import { el, attr, text } from './hast.js';
import type { BlockRenderer } from './types.js';
import { highlightLines, type HighlightBudget } from './highlight.js';

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

/** `{% code title="…" lineNumbers="true" overflow="wrap" %}` around a fence: a captioned figure. */
export const codeBlock: BlockRenderer = {
  names: ['code'],
  render(node, { state }) {
    const title = attr(node, 'title');
    const inner = state.all(node as never);
    const classes = ['code-block'];
    if (attr(node, 'lineNumbers') === 'true') classes.push('line-numbers');
    if (attr(node, 'overflow') === 'wrap') classes.push('wrap');
    return el('figure', { className: classes }, [...(title ? [el('figcaption', {}, [text(title)])] : []), ...inner]);
  },
};
