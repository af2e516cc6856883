import type { PhrasingContent } from 'mdast';
import type { DocumentLeaf } from '../types.js';

/** Markdown emphasis nodes and their document marks. */
export const MARK_OF_NODE = { strong: 'bold', emphasis: 'italic', delete: 'strikethrough' } as const;
const NODE_OF_MARK: Record<string, 'strong' | 'emphasis' | 'delete'> = { bold: 'strong', italic: 'emphasis', strikethrough: 'delete' };

/** The marks of a leaf that wrap it in markdown, outermost first (`code` is the leaf itself; marks markdown has no syntax for are dropped). */
function wrapping(leaf: DocumentLeaf): string[] {
  const out: string[] = [];
  for (const m of leaf.marks) if (m && typeof m === 'object' && NODE_OF_MARK[m.type] && !out.includes(m.type)) out.push(m.type);
  return out;
}

function leafNode(leaf: DocumentLeaf): PhrasingContent {
  if (leaf.marks.some((m) => m?.type === 'code')) return { type: 'inlineCode', value: leaf.text };
  if (leaf.text === '\n') return { type: 'break' };
  return { type: 'text', value: leaf.text };
}

/**
 * Leaves → phrasing: runs of leaves sharing their outer mark become one strong / emphasis / delete node
 * (the order of a leaf's marks is their nesting, outermost first); a `code` leaf is inline code; a leaf of
 * exactly one newline is a hard break.
 */
export function leavesToPhrasing(leaves: DocumentLeaf[], depth = 0): PhrasingContent[] {
  const out: PhrasingContent[] = [];
  let i = 0;
  while (i < leaves.length) {
    const mark = wrapping(leaves[i]!)[depth];
    if (mark === undefined) {
      if (leaves[i]!.text !== '' || leaves.length === 1) out.push(leafNode(leaves[i]!));
      i++;
      continue;
    }
    let j = i + 1;
    while (j < leaves.length && wrapping(leaves[j]!)[depth] === mark) j++;
    out.push({ type: NODE_OF_MARK[mark]!, children: leavesToPhrasing(leaves.slice(i, j), depth + 1) } as PhrasingContent);
    i = j;
  }
  return out;
}
