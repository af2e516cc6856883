import type { Element } from 'hast';
import type { State } from 'mdast-util-to-hast';
import { el, text } from './hast.js';

interface MathNode {
  type: 'math' | 'inlineMath';
  value: string;
}

/** `$$…$$` blocks: the TeX source in a labelled block (readable as is, without a script). */
export function mathHandler(_state: State, node: MathNode): Element {
  return el('div', { className: ['math', 'math-display'], role: 'math', ariaLabel: node.value }, [el('code', {}, [text(node.value)])]);
}

/** Inline `$$…$$`. */
export function inlineMathHandler(_state: State, node: MathNode): Element {
  return el('code', { className: ['math', 'math-inline'], role: 'math', ariaLabel: node.value }, [text(node.value)]);
}
