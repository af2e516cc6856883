import { createHash } from 'node:crypto';
import type { Element, ElementContent, Root } from 'hast';
import { fromHtml } from 'hast-util-from-html';
import katex from 'katex';
import type { State } from 'mdast-util-to-hast';
import { visit } from 'unist-util-visit';
import type { LinkResolver } from './context.js';
import { el, text } from './hast.js';

interface MathNode {
  type: 'math' | 'inlineMath';
  value: string;
}

/** TeX longer than this is shown as its source (KaTeX's own `maxExpand` bounds macro expansion). */
export const MATH_SOURCE_LIMIT = 20_000;

/**
 * The inline `style` attributes KaTeX writes (struts, offsets, colours) become classes of a per-page stylesheet:
 * published pages run under a CSP without `'unsafe-inline'` styles. Each declaration list gets a class named by
 * its hash; the rules carry `!important` to keep the precedence an inline style had over KaTeX's own CSS.
 */
export class MathStyles {
  private readonly rules = new Map<string, string>();
  used = false;

  classFor(style: string): string {
    const normalized = style
      .split(';')
      .map((d) => d.trim())
      .filter((d) => d !== '' && !/[<>{}\\]/.test(d))
      .join(';');
    const name = `m-${createHash('sha256').update(normalized).digest('hex').slice(0, 10)}`;
    if (!this.rules.has(name))
      this.rules.set(
        name,
        normalized
          .split(';')
          .map((d) => `${d}!important`)
          .join(';'),
      );
    return name;
  }

  /** The page's math stylesheet, or null when it has no style to carry. */
  css(): string | null {
    if (this.rules.size === 0) return null;
    return [...this.rules].map(([name, body]) => `.${name}{${body}}`).join('\n') + '\n';
  }
}

/** KaTeX's HTML and MathML for one formula as hast, the style attributes moved to classes. */
function typeset(tex: string, displayMode: boolean, styles: MathStyles, links: LinkResolver): ElementContent[] | null {
  let html: string;
  try {
    html = katex.renderToString(tex, { displayMode, output: 'htmlAndMathml', throwOnError: true, trust: false, strict: 'ignore', maxSize: 50, maxExpand: 500 });
  } catch (error) {
    links.warn('PUBLISH_MATH_INVALID', `math not typeset (${String((error as Error).message ?? error).slice(0, 160)}): ${tex.slice(0, 80)}`);
    return null;
  }
  const tree = fromHtml(html, { fragment: true }) as Root;
  visit(tree, 'element', (node: Element) => {
    const style = node.properties.style;
    if (typeof style === 'string') {
      delete node.properties.style;
      const existing = node.properties.className;
      const classes = Array.isArray(existing) ? existing.map(String) : existing !== undefined && existing !== null ? String(existing).split(/\s+/) : [];
      node.properties.className = [...classes, styles.classFor(style)];
    }
  });
  styles.used = true;
  return tree.children as ElementContent[];
}

function source(node: MathNode, display: boolean): Element {
  const code = el('code', {}, [text(node.value)]);
  return display
    ? el('div', { className: ['math', 'math-display', 'math-source'] }, [code])
    : el('code', { className: ['math', 'math-inline', 'math-source'] }, [text(node.value)]);
}

/**
 * `$$…$$` math typeset at build time by KaTeX (HTML for the eye, MathML for assistive technology; no script on
 * the page); TeX KaTeX refuses or too long to typeset stays readable as its source, with a warning.
 */
export function mathHandlers(styles: MathStyles, links: LinkResolver) {
  const render = (node: MathNode, display: boolean): Element => {
    const typeset_ = node.value.length <= MATH_SOURCE_LIMIT ? typeset(node.value, display, styles, links) : null;
    if (typeset_ === null) return source(node, display);
    return display ? el('div', { className: ['math', 'math-display'] }, typeset_) : el('span', { className: ['math', 'math-inline'] }, typeset_);
  };
  return {
    math: (_state: State, node: MathNode) => render(node, true),
    inlineMath: (_state: State, node: MathNode) => render(node, false),
  };
}
