import type { Element, ElementContent, Root } from 'hast';
import { toText } from 'hast-util-to-text';
import { visit } from 'unist-util-visit';
import { el, text } from './hast.js';

/** GitBook-style anchors: lowercase words joined by dashes (letters of every script kept). */
export function anchorSlug(value: string): string {
  return (
    value
      .toLowerCase()
      .normalize('NFKC')
      .replace(/[^\p{L}\p{N}\s_-]+/gu, '')
      .trim()
      .replace(/\s+/g, '-') || 'section'
  );
}

/**
 * Gives every heading an id (an explicit `<a id>` anchor written in it wins, else a slug of its text, made
 * unique) and a self link; returns the outline for the page's table of contents.
 */
export function identifyHeadings(tree: Root): Array<{ depth: number; id: string; text: string }> {
  const used = new Set<string>();
  const outline: Array<{ depth: number; id: string; text: string }> = [];
  visit(tree, 'element', (node: Element) => {
    const m = /^h([1-6])$/.exec(node.tagName);
    if (!m) return;
    let explicit: string | undefined;
    node.children = node.children.filter((c: ElementContent) => {
      if (c.type === 'element' && c.tagName === 'a' && typeof c.properties.id === 'string' && toText(c).trim() === '') {
        explicit ??= c.properties.id;
        return false;
      }
      return true;
    });
    const label = toText(node).trim();
    let id = explicit ?? anchorSlug(label);
    if (!explicit) {
      const base = id;
      for (let n = 1; used.has(id); n++) id = `${base}-${n}`;
    }
    used.add(id);
    node.properties.id = id;
    node.children.push(el('a', { className: ['anchor'], href: `#${id}`, ariaLabel: `Link to ${label}` }, [text('#')]));
    outline.push({ depth: Number(m[1]), id, text: label });
    return 'skip';
  });
  return outline;
}
