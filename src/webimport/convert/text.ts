import type { Element, ElementContent } from 'hast';

/**
 * The text of an element as written (`textContent`, with `<br>` as a newline): what a code block holds, with no
 * whitespace collapsing and nothing added.
 */
export function rawText(node: Element | ElementContent): string {
  if (node.type === 'text') return node.value;
  if (node.type !== 'element') return '';
  if (node.tagName === 'br') return '\n';
  return node.children.map(rawText).join('');
}

/** Text with whitespace runs collapsed and trimmed (titles, captions, labels). */
export function plainText(node: Element | ElementContent): string {
  return rawText(node).replace(/\s+/g, ' ').trim();
}
