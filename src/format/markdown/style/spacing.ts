import type { Root, Nodes, Parent } from 'mdast';

const FLOW_PARENTS = new Set(['root', 'blockquote', 'listItem', 'liquidBlock', 'footnoteDefinition']);

/**
 * Record, on every flow node, the number of blank lines before it when that is not the single
 * blank line the serializer writes by default (legacy files have double blank lines; GitBook
 * writes none between `{% tabs %}` and `{% tab %}`; hand-written files vary).
 */
export function recordSpacing(tree: Root): void {
  const walk = (node: Nodes): void => {
    if (!('children' in node)) return;
    const parent = node as Parent;
    if (FLOW_PARENTS.has(node.type)) {
      for (let i = 1; i < parent.children.length; i++) {
        const left = parent.children[i - 1]!;
        const right = parent.children[i]!;
        if (!left.position || !right.position) continue;
        const blank = right.position.start.line - left.position.end.line - 1;
        if (node.type === 'listItem') {
          const spread = (node as { spread?: boolean | null }).spread;
          if ((spread && blank === 1) || (!spread && blank === 0)) continue;
        } else if (blank === 1) continue;
        (right.data ??= {}) as Record<string, unknown>;
        (right.data as Record<string, unknown>).blankBefore = blank;
      }
    }
    for (const c of parent.children) walk(c as Nodes);
  };
  walk(tree);
}
