import type { Element, Root } from 'hast';
import { selectAll } from 'hast-util-select';

/** Remove, in place, every descendant of `node` matching one of `selectors` (any CSS selectors, combinators too). */
export function remove(node: Element | Root, selectors: string[]): void {
  if (selectors.length === 0) return;
  const doomed = new Set<unknown>(selectAll(selectors.join(', '), node));
  if (doomed.size === 0) return;
  const prune = (parent: Element | Root): void => {
    parent.children = parent.children.filter((child) => !doomed.has(child)) as typeof parent.children;
    for (const child of parent.children) if (child.type === 'element') prune(child);
  };
  prune(node);
}
