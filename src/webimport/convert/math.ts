import type { Element } from 'hast';
import { select } from 'hast-util-select';
import type { InlineMath, Math } from 'mdast-util-math';
import { classNames } from '../extract/index.js';
import type { HtmlConstruct } from './construct.js';
import { rawText } from './text.js';

/**
 * The TeX source and display mode of a math element: MathJax 2 scripts (`math/tex; mode=display`), Sphinx and
 * arithmatex (`\[…\]`, `\(…\)`, `$$…$$` text), KaTeX and MathML (`annotation[encoding=application/x-tex]`).
 */
export function mathSource(element: Element): { tex: string; display: boolean } | null {
  const classes = classNames(element);
  if (element.tagName === 'script') {
    const type = String(element.properties.type ?? '');
    if (!type.startsWith('math/tex')) return null;
    return { tex: rawText(element).trim(), display: type.includes('mode=display') };
  }
  if (classes.includes('katex-display') || classes.includes('katex') || element.tagName === 'math') {
    const annotation = select('annotation[encoding="application/x-tex"]', element);
    if (!annotation) return null;
    const display = classes.includes('katex-display') || element.properties.display === 'block' || select('.katex-display', element) !== undefined;
    return { tex: rawText(annotation).trim(), display };
  }
  if (classes.includes('math') || classes.includes('arithmatex')) {
    const text = rawText(element).trim();
    const m = /^\\\[([\s\S]*)\\\]$/.exec(text) ?? /^\$\$([\s\S]*)\$\$$/.exec(text);
    if (m) return { tex: m[1]!.trim(), display: true };
    const inline = /^\\\(([\s\S]*)\\\)$/.exec(text);
    if (inline) return { tex: inline[1]!.trim(), display: false };
    if (text && element.tagName === 'div') return { tex: text, display: true };
  }
  return null;
}

/** Math → GitBook's `$$…$$` (a block when displayed, inline otherwise). */
export const mathConstruct: HtmlConstruct = {
  name: 'math',
  tagNames: ['script', 'span', 'div', 'math', 'p'],
  matches: (element) => mathSource(element) !== null,
  toMdast(_state, element) {
    const { tex, display } = mathSource(element)!;
    if (display) return { type: 'math', meta: null, value: tex } satisfies Math;
    return { type: 'inlineMath', value: tex } satisfies InlineMath;
  },
};
